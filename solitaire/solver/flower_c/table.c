/* Keys and tables: the Zobrist numbers of the transposition key, the
 * complete search's table, the best-first runs' seen sets, the clock. */
#include "table.h"

#include <sys/mman.h>

uint8_t SUIT[52], RANK[52];
Key ZC[52][53];
uint64_t ZB[2][52];
uint64_t ZS[2][65], ZQ[2][65], ZF[2][4][14];

/* The transposition key: a 128-bit Zobrist hash (two independent 64-bit
 * halves) XOR-ed over, for each card in a column, the pair (card, card
 * under it or BASE), and over the bouquet cards. The set of (card, parent)
 * pairs determines the columns as a multiset of sequences, and the cards
 * in neither place are home; so the key is the canonical key of rule 5
 * (columns sorted, bouquet as a set, foundations implied) up to hash
 * collisions: with n stored states the chance of any collision is below
 * n^2 / 2^128 (under 1e-23 for 1e8 states). */
static uint64_t splitmix(uint64_t *x) {
    return fmix_a(*x += 0x9E3779B97F4A7C15ULL);
}

void init_zobrist(void) {
    for (int c = 0; c < 52; c++) {
        SUIT[c] = (uint8_t)(c / 13);
        RANK[c] = (uint8_t)(c % 13);
    }
    uint64_t seed = 0x5EEDF10E3ULL;
    for (int h = 0; h < 2; h++) {
        for (int c = 0; c < 52; c++) {
            for (int p = 0; p < 53; p++) *(h ? &ZC[c][p].b : &ZC[c][p].a) = splitmix(&seed);
            ZB[h][c] = splitmix(&seed);
        }
    }
    for (int h = 0; h < 2; h++) {
        for (int c = 0; c < 65; c++) {
            ZS[h][c] = splitmix(&seed);
            ZQ[h][c] = splitmix(&seed);
        }
        for (int su = 0; su < 4; su++)
            for (int r = 0; r < 14; r++) ZF[h][su][r] = splitmix(&seed);
    }
}

static double elapsed(const Search *s) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - s->limits.start.tv_sec) + 1e-9 * (double)(t.tv_nsec - s->limits.start.tv_nsec);
}

/* Has the time run out, or has the search been called off? (out_of_time
 * asks every CLOCK_EVERY nodes.) */
int time_is_up(Search *s) {
    if (s->limits.stop && *s->limits.stop) {
        s->limit = "stopped";
        return 1;
    }
    if (s->limits.max_seconds >= 0 && elapsed(s) > s->limits.max_seconds) {
        s->limit = "seconds";
        return 1;
    }
    return 0;
}

/* The table is probed at random: at millions of slots nearly every probe
 * misses the TLB as well as the cache. Large tables are mapped on their own
 * and asked for 2 MB pages (transparent huge pages, where the kernel
 * offers them with madvise), which takes the page walk out of most probes. */
void *big_alloc(size_t bytes) {
    if (bytes < (4u << 20)) return calloc(1, bytes);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p; /* mmap's pages come zeroed */
}

void big_free(void *p, size_t bytes) {
    if (!p) return;
    if (bytes < (4u << 20)) free(p);
    else munmap(p, bytes);
}

static Key *tt_alloc(uint64_t cap) { return big_alloc(cap * sizeof(Key)); }

void tt_free(Key *t, uint64_t cap) { big_free(t, cap * sizeof(Key)); }

static int tt_grow(Search *s) {
    uint64_t ncap = s->table.cap ? s->table.cap * 2 : (1u << 16);
    Key *nt = tt_alloc(ncap);
    if (!nt) return -1;
    for (uint64_t i = 0; i < s->table.cap; i++) {
        Key k = s->table.slot[i];
        if (!k.b) continue;
        uint64_t j = k.a & (ncap - 1);
        while (nt[j].b) j = (j + 1) & (ncap - 1);
        nt[j] = k;
    }
    tt_free(s->table.slot, s->table.cap);
    s->table.slot = nt;
    s->table.cap = ncap;
    return 0;
}

/* 1: newly stored, 0: seen before, -1: out of memory */
int tt_insert(Search *s, Key k) {
    k.b |= 1; /* an empty slot has b == 0 */
    if ((uint64_t)(s->states + 1) * 4 > s->table.cap * 3 && tt_grow(s)) return -1;
    uint64_t m = s->table.cap - 1, j = k.a & m;
    while (s->table.slot[j].b) {
        if (s->table.slot[j].a == k.a && s->table.slot[j].b == k.b) return 0;
        j = (j + 1) & m;
    }
    s->table.slot[j] = k;
    s->states++;
    return 1;
}

/* 1: newly stored, 0: seen before, -1: out of memory */
int seen_insert(Seen *t, Key k) {
    uint64_t v = k.b | 1;
    if ((t->count + 1) * 4 > t->cap * 3) {
        uint64_t ncap = t->cap ? t->cap * 2 : (1u << 16);
        uint64_t *ns = big_alloc(ncap * sizeof(uint64_t));
        if (!ns) return -1;
        for (uint64_t i = 0; i < t->cap; i++) {
            if (i + 16 < t->cap && t->slot[i + 16]) /* its new slot, fetched ahead */
                __builtin_prefetch(&ns[fmix_a(t->slot[i + 16]) & (ncap - 1)], 1);
            uint64_t w = t->slot[i];
            if (!w) continue;
            uint64_t j = fmix_a(w) & (ncap - 1);
            while (ns[j]) j = (j + 1) & (ncap - 1);
            ns[j] = w;
        }
        big_free(t->slot, t->cap * sizeof(uint64_t));
        t->slot = ns;
        t->cap = ncap;
    }
    uint64_t m = t->cap - 1, j = fmix_a(v) & m;
    while (t->slot[j]) {
        if (t->slot[j] == v) return 0;
        j = (j + 1) & m;
    }
    t->slot[j] = v;
    t->count++;
    return 1;
}
