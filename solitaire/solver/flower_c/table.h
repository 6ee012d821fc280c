/* The Flower Garden core's keys, tables and clock (table.c): the Zobrist
 * tables, the key's terms each move changes (the real game's and the
 * abstract game's), the transposition table, the best-first runs' seen
 * set, the time. */
#ifndef FLOWER_TABLE_H
#define FLOWER_TABLE_H

#include "flower.h"

extern uint8_t SUIT[52], RANK[52]; /* c / 13 and c % 13, looked up */
extern Key ZC[52][53];             /* both halves side by side: one cache line a probe */
extern uint64_t ZB[2][52];
extern uint64_t ZS[2][65], ZQ[2][65], ZF[2][4][14];

void init_zobrist(void);
int time_is_up(Search *s);
void *big_alloc(size_t bytes);
void big_free(void *p, size_t bytes);
void tt_free(Key *t, uint64_t cap);
int tt_insert(Search *s, Key k);

/* The best-first runs' table of positions seen: one half of the key (8
 * bytes a slot, not 16), as a run stores millions of positions beside the
 * complete search's table. A collision (chance below n^2 / 2^65: 3e-6 at
 * ten million) could only drop a position from a search that proves
 * nothing by failing and whose wins are replayed. */
typedef struct {
    uint64_t *slot; /* 0: empty */
    uint64_t cap, count;
} Seen;

int seen_insert(Seen *t, Key k);

/* Two 64-bit finalizers (splitmix64's and murmur3's): the abstract key's
 * two halves chain a column's codes through different ones. */
static inline uint64_t fmix_a(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t fmix_b(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

/* Fetch the cache line at p ahead of its use. On x86 by inline assembly:
 * gcc -O2 dropped the __builtin_prefetch of the table probes (the binary
 * held only the rehash's), and the probes waited on every miss. */
static inline void prefetch(const void *p) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p);
#endif
}

static inline void tt_prefetch(const Search *s, Key k) {
    if (s->table.cap) prefetch(&s->table.slot[k.a & (s->table.cap - 1)]);
}

static inline void seen_prefetch(const Seen *t, Key k) {
    if (t->cap) prefetch(&t->slot[fmix_a(k.b | 1) & (t->cap - 1)]);
}

/* Every CLOCK_EVERY nodes: has the time run out, or been called off? */
static inline int out_of_time(Search *s) {
    if (s->nodes % CLOCK_EVERY) return 0;
    return time_is_up(s);
}

/* The abstract game's key (abstract.c), kept up to date by step. */

static inline void ak_add(Search *s, Key k) {
    s->abstract.key.a += k.a;
    s->abstract.key.b += k.b;
}

static inline void ak_sub(Search *s, Key k) {
    s->abstract.key.a -= k.a;
    s->abstract.key.b -= k.b;
}

static inline void ak_push(Search *s, int j, int c) { /* before len[j]++ */
    int n = s->pos.len[j], k = s->abstract.code[c];
    Key *h = s->abstract.column_key[j];
    h[n + 1].a = fmix_a(h[n].a ^ ZS[0][k]);
    h[n + 1].b = fmix_b(h[n].b + ZS[1][k]);
    ak_sub(s, h[n]);
    ak_add(s, h[n + 1]);
}

static inline void ak_pop(Search *s, int j) { /* after len[j]-- */
    int n = s->pos.len[j];
    ak_sub(s, s->abstract.column_key[j][n + 1]);
    ak_add(s, s->abstract.column_key[j][n]);
}

static inline void ak_bouquet(Search *s, int c, int sign) {
    Key z = {ZQ[0][s->abstract.code[c]], ZQ[1][s->abstract.code[c]]};
    if (sign > 0) ak_add(s, z);
    else ak_sub(s, z);
}

static inline void ak_found(Search *s, int su, int from, int to) {
    s->abstract.key.a += ZF[0][su][to] - ZF[0][su][from];
    s->abstract.key.b += ZF[1][su][to] - ZF[1][su][from];
}

/* The key's terms: card c on parent p (a card, or BASE), card c in the bouquet. */
static inline void hx(Search *s, int c, int p) {
    s->pos.key.a ^= ZC[c][p].a;
    s->pos.key.b ^= ZC[c][p].b;
}

static inline void hb(Search *s, int c) {
    s->pos.key.a ^= ZB[0][c];
    s->pos.key.b ^= ZB[1][c];
}

#endif
