/* Keys and the transposition table: the Zobrist numbers, the key of a
 * layout (with reduction 1: empty piles keyed by their rank among the
 * non-empty piles), and the table's insert and doubling. cruel.h argues
 * the table's memory and the key's collision bound. */
#include "cruel.h"

static uint64_t Z1[NCARDS][NPILES][MAXSEQ];
static uint64_t Z2[NCARDS][NPILES][MAXSEQ];

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void init_zobrist(void) {
    uint64_t s = 0x5EED5EED12345ULL;
    for (int c = 0; c < NCARDS; c++)
        for (int p = 0; p < NPILES; p++)
            for (int d = 0; d < MAXSEQ; d++) Z1[c][p][d] = splitmix(&s);
    for (int c = 0; c < NCARDS; c++)
        for (int p = 0; p < NPILES; p++)
            for (int d = 0; d < MAXSEQ; d++) Z2[c][p][d] = splitmix(&s);
}

void key_of(const State *st, int prune, uint64_t *a, uint64_t *b) {
    uint64_t h1 = 0, h2 = 0;
    int pos = 0, ord = 0;
    for (int i = 0; i < NPILES; i++) {
        int n = st->len[i];
        if (!n) {
            if (!prune) ord++;
            continue;
        }
        for (int d = 0; d < n; d++) {
            int c = st->seq[pos++];
            h1 ^= Z1[c][ord][d];
            h2 ^= Z2[c][ord][d];
        }
        ord++;
    }
    *a = h1 | 1;  /* slot in use: a != 0 */
    *b = h2;
}

/* Double the table (rehash); 0 on success, -1 when out of memory. */
int table_grow(Table *t) {
    Table n;
    uint64_t size = (t->mask + 1) * 2;
    n.slots = calloc(size * 2, sizeof(uint64_t));
    if (!n.slots) return -1;
    n.mask = size - 1;
    n.count = 0;
    for (uint64_t i = 0; i <= t->mask; i++)
        if (t->slots[2 * i]) table_insert(&n, t->slots[2 * i], t->slots[2 * i + 1]);
    free(t->slots);
    *t = n;
    return 0;
}

/* 1 when newly inserted, 0 when present */
int table_insert(Table *t, uint64_t a, uint64_t b) {
    uint64_t i = (a ^ (a >> 29)) & t->mask;
    for (;;) {
        uint64_t *s = t->slots + 2 * i;
        if (s[0] == 0) {
            s[0] = a;
            s[1] = b;
            t->count++;
            return 1;
        }
        if (s[0] == a && s[1] == b) return 0;
        i = (i + 1) & t->mask;
    }
}
