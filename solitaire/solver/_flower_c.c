/* Flower Garden search core in C: the same search as _flower.py, faster.
 *
 * ``search(columns, bouquet, foundations, greedy, prune, max_nodes,
 * max_seconds, max_states[, stop[, low[, weight[, blocked[, store[, guide[,
 * aside]]]]]]])``
 * -> (status, limit, nodes, states, moves)
 *   status 1 solved (``moves`` is a list of (card, target) pairs, target a
 *   column index or -1 for the foundation), 0 unsolvable (the reachable space
 *   modulo the proven-safe pruning below was exhausted), -1 a budget ran out
 *   (``limit`` is "nodes", "seconds" or "states", or "stopped" when another
 *   thread set the first byte of ``stop``, a writable buffer such as a
 *   bytearray, checked with the clock; never reported as 0). max_* are
 *   numbers or None. ``weight``, in greedy mode only: -1 (the default) runs
 *   the portfolio below, 0 its ordered depth-first run alone, more one
 *   best-first run with that depth weight, ``blocked`` the weight in its
 *   evaluation of a card on a lower card of its suit (-1: W_BLOCKED, the
 *   long runs'; see evaluate), ``store`` the positions it holds at once
 *   (0: BEST_FIRST_NODES). In a best-first run the states budget counts
 *   the positions held, and ``states`` returns those ever stored. The
 *   search runs without the GIL.
 *
 * State: six columns as small arrays (the real layout, so moves name real
 * columns), the bouquet as a 52-bit mask, four foundation heights.
 *
 * Transposition key: a 128-bit Zobrist hash (two independent 64-bit halves)
 * XOR-ed over, for each card in a column, the pair (card, card under it or
 * "column base"), and over the bouquet cards. The set of (card, parent) pairs
 * determines the columns as a multiset of sequences, and the cards in neither
 * place are home; so the key is exactly the canonical key of _flower.py
 * (columns sorted, bouquet as a set, foundations implied), up to hash
 * collisions: with n stored states the chance of any collision is below
 * n^2 / 2^128 (under 1e-23 for 1e8 states). It is updated incrementally.
 *
 * Transposition table: open addressing, linear probing, 16 bytes a slot,
 * grown by doubling at 3/4 load: 21 to 43 bytes per stored state. The
 * depth-first line is an explicit stack (a frame of 20 bytes plus the moves
 * generated at that depth, 20 bytes each, and the steps played). With the
 * states budget of search.py this keeps a single solve well under 2 GB.
 *
 * Pruning (each rule is argued in _flower.py's docstring, same numbers):
 *  1. safe foundation moves are played at once (when ``prune``),
 *  2. a card goes only to the first empty column,
 *  3. a column's only card never goes to an empty column,
 *  4. bouquet cards go to columns only in chains ending with a column card,
 *  5. transpositions are not expanded twice,
 *  6. with ``low`` (a bound per suit), the abstract game: reach G, some suit
 *     with high cards having its low cards home, with high cards of one
 *     rank alike (the key ``ak``); status 0 then means G is out of reach, which
 *     proves the position lost.
 * ``guide``: a line as ``moves`` returns it (an earlier run's), which the
 * complete search follows first (guide_pick): a move order, no pruning.
 * ``aside``: (states, weight, expansions): once the complete search has
 * stored that many states it steps aside for one best-first run of that
 * depth weight and at most that many expansions (step_aside), and goes on
 * where it was if the run does not win; if it wins, ``limit`` is "aside".
 * One best-first run (a ``weight`` with ``greedy``) plays the abstract game
 * too: its seen set keys positions by ``ak``, and it stops at G. Like any
 * best-first run it proves nothing when it gives up.
 * Move order in the complete search: as generated (foundation moves first).
 * Ordering by evaluating every child halves the node rate, and the
 * heuristic work is done by greedy mode; what is left to the complete search
 * is mostly proofs, where the order does not matter.
 * Greedy mode (search.py's first, incomplete phase): a portfolio (PORTFOLIO)
 * run one after the other: best-first searches that differ in how much a
 * position's depth counts against its evaluation, and the same depth-first
 * search with each node's moves ordered by the evaluation of the child.
 * Different runs solve different deals, and most deals fall to one of them
 * within a small fraction of a second, so every run gets a short slice,
 * then one four times as long (so that a long budget does not keep a deal
 * that suits the fourth run waiting behind three long first slices), and
 * the run of weight 24 then gets the rest of the time, as one run: the hard
 * deals need runs of several seconds that see tens of millions of
 * positions. That run also weighs each card that lies on a lower card of
 * its suit (W_BLOCKED, as much as a card not home): alone for 8 s on the
 * 42 deals then undecided, weight 12 won 1 of them without it and 7, 8,
 * 15, 18 and 17 with it at 8, 16, 32, 64 and 128, weight 24 0 without and
 * 6, 8, 12 and 16 with 8, 16, 32 and 64. But the plain evaluation wins
 * other deals: _flower.py runs one of weight 24 with it beside this one
 * (on the 29 deals of seeds 0..999 left undecided in 10 s, within 7
 * million nodes, about what a run gets in 10 s, this run won 5 and the
 * plain one 7, 4 the same). The short slices keep the plain evaluation,
 * with which they were timed. After the long run's first 1.5 million
 * expansions, it is paused (kept whole: its store, queue and seen set) for
 * two runs of higher depth weight (48 and 64, blocked cards weighed), each
 * capped in expansions as well as in time (450 and 900 thousand; the time
 * they leave goes to the long run), then goes on where it stopped: the
 * short runs win deals 18, 6 and 161 within those, which no run of weight
 * 24 won within 6 million, and the deals the long run wins within 1.5
 * million come no later for them (run first, they put p90 from 1.7 s to
 * 3 s on a slow machine).
 * Its failure proves nothing; only a win is used (rebuilt and replayed;
 * search.py replays it again through the engine).
 * Every won line, from either mode, is shortened before it is returned
 * (shorten_line: detours and loops cut, in the manner of _polish.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define NCOL 6
#define BQ 6     /* source: the bouquet */
#define FOUND 6  /* target: the foundation */
#define BASE 52  /* parent of a column's bottom card */
#define G_HOME 255 /* a guide's step to the foundation (see guide_holds) */
#define MAXCH 13
#define CLOCK_EVERY 1024

typedef struct {
    uint64_t a, b;
} Key;

typedef struct {
    int16_t score;
    uint8_t card, src, target, n;
    uint8_t chain[MAXCH]; /* bouquet cards, rank rising; played from the last */
} FMove;

typedef struct {
    uint8_t card, src, target, parent_from;
} Step;

typedef struct {
    int64_t mstart;
    int32_t mcount, midx;
    int64_t auto_start, after_auto;
    int64_t gnext; /* the guide's place after its first move, or -1 (see guide_pick) */
} Frame;

static uint8_t SUIT[52], RANK[52]; /* c / 13 and c % 13, looked up */
static Key ZC[52][53]; /* both halves side by side: one cache line a probe */
static uint64_t ZB[2][52];
static uint64_t ZS[2][65], ZQ[2][65], ZF[2][4][14];

typedef struct {
    /* state */
    uint8_t col[NCOL][56];
    int len[NCOL];
    uint64_t bq;
    int found[4];
    int home;
    Key h;
    /* options and budgets */
    int greedy, prune;
    double max_nodes; /* < 0: none */
    double max_seconds;
    double max_states;
    struct timespec t0;
    /* counters */
    int64_t nodes, states;
    const char *limit;
    /* transposition table */
    Key *tt;
    uint64_t cap; /* power of two */
    /* stacks */
    Step *path;
    int64_t plen, pcap;
    FMove *mv;
    int64_t mlen, mcap;
    Frame *fr;
    int64_t flen, fcap;
    int oom;
    int64_t store; /* positions a best-first run holds at once (0: BEST_FIRST_NODES) */
    volatile const char *stop; /* another thread sets *stop: give up now */
    /* the abstract game (see its key, ak_*): 0 = the real game */
    int abstract;
    int low[4];       /* per suit: ranks below it are low cards */
    uint8_t code[52]; /* a low card's own number, a high card's 52 + rank */
    uint64_t hi;      /* the high cards */
    Key ak;           /* its key, kept up to date by step */
    Key colh[NCOL][57]; /* each column's first i cards, hashed */
    Key *ck;            /* its search's children's keys (store_children) */
    int64_t ckcap;
    /* a guide for the complete search (see guide_pick): each step of an
     * earlier line as the card and where it went (G_HOME, or the card it went
     * on, BASE for an empty column); gi: the place of the position being
     * entered on it, -1 off it */
    uint8_t *gcard, *gonto;
    int64_t glen, gi;
    /* the complete search's step aside (see step_aside): once it has stored
     * more than aside_states states (0: never), a best-first run of depth
     * weight aside_weight and at most aside_nodes expansions looks for its
     * goal from the starting layout (start) */
    double aside_states, aside_nodes;
    int aside_weight, aside_won;
    const void *start;
} S;

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

static uint64_t splitmix(uint64_t *x) {
    return fmix_a(*x += 0x9E3779B97F4A7C15ULL);
}

static void init_zobrist(void) {
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

static double elapsed(S *s) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - s->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - s->t0.tv_nsec);
}

/* Every CLOCK_EVERY nodes: has the time run out, or been called off? */
static int out_of_time(S *s) {
    if (s->nodes % CLOCK_EVERY) return 0;
    if (s->stop && *s->stop) {
        s->limit = "stopped";
        return 1;
    }
    if (s->max_seconds >= 0 && elapsed(s) > s->max_seconds) {
        s->limit = "seconds";
        return 1;
    }
    return 0;
}

/* ---- transposition table ---------------------------------------------- */

/* The table is probed at random: at millions of slots nearly every probe
 * misses the TLB as well as the cache. Large tables are mapped on their own
 * and asked for 2 MB pages (transparent huge pages, where the kernel
 * offers them with madvise), which takes the page walk out of most probes. */
static void *big_alloc(size_t bytes) {
    if (bytes < (4u << 20)) return calloc(1, bytes);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p; /* mmap's pages come zeroed */
}

static void big_free(void *p, size_t bytes) {
    if (!p) return;
    if (bytes < (4u << 20)) free(p);
    else munmap(p, bytes);
}

static Key *tt_alloc(uint64_t cap) { return big_alloc(cap * sizeof(Key)); }

static void tt_free(Key *t, uint64_t cap) { big_free(t, cap * sizeof(Key)); }

static int tt_grow(S *s) {
    uint64_t ncap = s->cap ? s->cap * 2 : (1u << 16);
    Key *nt = tt_alloc(ncap);
    if (!nt) return -1;
    for (uint64_t i = 0; i < s->cap; i++) {
        Key k = s->tt[i];
        if (!k.b) continue;
        uint64_t j = k.a & (ncap - 1);
        while (nt[j].b) j = (j + 1) & (ncap - 1);
        nt[j] = k;
    }
    tt_free(s->tt, s->cap);
    s->tt = nt;
    s->cap = ncap;
    return 0;
}

/* 1: newly stored, 0: seen before, -1: out of memory */
static int tt_insert(S *s, Key k) {
    k.b |= 1; /* an empty slot has b == 0 */
    if ((uint64_t)(s->states + 1) * 4 > s->cap * 3 && tt_grow(s)) return -1;
    uint64_t m = s->cap - 1, j = k.a & m;
    while (s->tt[j].b) {
        if (s->tt[j].a == k.a && s->tt[j].b == k.b) return 0;
        j = (j + 1) & m;
    }
    s->tt[j] = k;
    s->states++;
    return 1;
}

/* The best-first runs' table of positions seen: one half of the key (8
 * bytes a slot, not 16), as a run stores millions of positions beside the
 * complete search's table. A collision (chance below n^2 / 2^65: 3e-6 at
 * ten million) could only drop a position from a search that proves
 * nothing by failing and whose wins are replayed. */
typedef struct {
    uint64_t *slot; /* 0: empty */
    uint64_t cap, count;
} Seen;

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

static inline void seen_prefetch(const Seen *t, Key k) {
    if (t->cap) prefetch(&t->slot[fmix_a(k.b | 1) & (t->cap - 1)]);
}

/* 1: newly stored, 0: seen before, -1: out of memory */
static int seen_insert(Seen *t, Key k) {
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

/* ---- the abstract game ---------------------------------------------- */

/* The abstract game's key (``ak``): high cards of one rank are alike, so a column is
 * hashed as a sequence of codes (the (card, parent) pairs of the real key
 * would mix up two columns that cross at alike cards), the columns and the
 * bouquet as multisets (sums), and the foundations, no longer implied by
 * the cards left, are hashed in. ``step`` keeps it up to date: colh holds
 * each column's prefix hashes, so a card put on or taken off a column
 * changes the sum by one term. */
static inline void ak_add(S *s, Key k) {
    s->ak.a += k.a;
    s->ak.b += k.b;
}

static inline void ak_sub(S *s, Key k) {
    s->ak.a -= k.a;
    s->ak.b -= k.b;
}

static inline void ak_push(S *s, int j, int c) { /* before len[j]++ */
    int n = s->len[j], k = s->code[c];
    Key *h = s->colh[j];
    h[n + 1].a = fmix_a(h[n].a ^ ZS[0][k]);
    h[n + 1].b = fmix_b(h[n].b + ZS[1][k]);
    ak_sub(s, h[n]);
    ak_add(s, h[n + 1]);
}

static inline void ak_pop(S *s, int j) { /* after len[j]-- */
    int n = s->len[j];
    ak_sub(s, s->colh[j][n + 1]);
    ak_add(s, s->colh[j][n]);
}

static inline void ak_bouquet(S *s, int c, int sign) {
    Key z = {ZQ[0][s->code[c]], ZQ[1][s->code[c]]};
    if (sign > 0) ak_add(s, z);
    else ak_sub(s, z);
}

static inline void ak_found(S *s, int su, int from, int to) {
    s->ak.a += ZF[0][su][to] - ZF[0][su][from];
    s->ak.b += ZF[1][su][to] - ZF[1][su][from];
}

/* The key from scratch (the starting layout). */
static void ak_init(S *s) {
    s->ak.a = s->ak.b = 0;
    for (int j = 0; j < NCOL; j++) {
        s->colh[j][0].a = 0x243F6A8885A308D3ULL;
        s->colh[j][0].b = 0x13198A2E03707344ULL;
        int n = s->len[j];
        s->len[j] = 0;
        ak_add(s, s->colh[j][0]);
        for (int i = 0; i < n; i++) {
            ak_push(s, j, s->col[j][i]);
            s->len[j]++;
        }
    }
    for (uint64_t bq = s->bq; bq; bq &= bq - 1) ak_bouquet(s, __builtin_ctzll(bq), 1);
    for (int su = 0; su < 4; su++) ak_found(s, su, 0, s->found[su]);
}

/* Won: all 52 home; in the abstract game, some suit with high cards has
 * its low cards all home (a suit without high cards ends nothing). */
static inline int won(const S *s) {
    if (s->abstract)
        for (int su = 0; su < 4; su++)
            if (s->low[su] < 13 && s->found[su] >= s->low[su]) return 1;
    return s->home == 52;
}

/* ---- growable stacks -------------------------------------------------- */

#define RESERVE(arr, len, cap, need)                                          \
    do {                                                                      \
        if ((len) + (need) > (cap)) {                                         \
            int64_t nc = (cap) ? (cap) : 1024;                                \
            while (nc < (len) + (need)) nc *= 2;                              \
            void *p = realloc((arr), (size_t)nc * sizeof(*(arr)));            \
            if (!p) { s->oom = 1; return -1; }                                \
            (arr) = p;                                                        \
            (cap) = nc;                                                       \
        }                                                                     \
    } while (0)

/* ---- state changes ---------------------------------------------------- */

static inline int parent_of(S *s, int j) {
    return s->len[j] ? s->col[j][s->len[j] - 1] : BASE;
}

static inline void hx(S *s, int c, int p) {
    s->h.a ^= ZC[c][p].a;
    s->h.b ^= ZC[c][p].b;
}

static inline void hb(S *s, int c) {
    s->h.a ^= ZB[0][c];
    s->h.b ^= ZB[1][c];
}

/* Move card c from src (column or BQ) to target (column or FOUND). */
static int step(S *s, int c, int src, int target) {
    RESERVE(s->path, s->plen, s->pcap, 1);
    Step *st = &s->path[s->plen++];
    st->card = c;
    st->src = src;
    st->target = target;
    if (src == BQ) {
        s->bq &= ~(1ULL << c);
        hb(s, c);
        st->parent_from = BASE;
        if (s->abstract) ak_bouquet(s, c, -1);
    } else {
        s->len[src]--;
        int p = parent_of(s, src);
        st->parent_from = p;
        hx(s, c, p);
        if (s->abstract) ak_pop(s, src);
    }
    if (target == FOUND) {
        if (s->abstract) ak_found(s, c / 13, s->found[c / 13], s->found[c / 13] + 1);
        s->found[c / 13]++;
        s->home++;
    } else {
        hx(s, c, parent_of(s, target));
        if (s->abstract) ak_push(s, target, c);
        s->col[target][s->len[target]++] = c;
    }
    return 0;
}

static void unstep(S *s) {
    Step *st = &s->path[--s->plen];
    int c = st->card;
    if (st->target == FOUND) {
        if (s->abstract) ak_found(s, c / 13, s->found[c / 13], s->found[c / 13] - 1);
        s->found[c / 13]--;
        s->home--;
    } else {
        s->len[st->target]--;
        hx(s, c, parent_of(s, st->target));
        if (s->abstract) ak_pop(s, st->target);
    }
    if (st->src == BQ) {
        s->bq |= 1ULL << c;
        hb(s, c);
        if (s->abstract) ak_bouquet(s, c, 1);
    } else {
        hx(s, c, st->parent_from);
        if (s->abstract) ak_push(s, st->src, c);
        s->col[st->src][s->len[st->src]++] = c;
    }
}

static void undo_to(S *s, int64_t plen) {
    while (s->plen > plen) unstep(s);
}

/* Rule 1: a card of rank r goes home when its foundation needs it and every
 * card of rank r - 1 is home (r <= the lowest foundation height). */
static int auto_moves(S *s) {
    int progress = 1;
    while (progress) {
        progress = 0;
        int low = s->found[0];
        for (int i = 1; i < 4; i++)
            if (s->found[i] < low) low = s->found[i];
        for (int j = 0; j < NCOL; j++) {
            if (!s->len[j]) continue;
            int c = s->col[j][s->len[j] - 1], su = c / 13, r = c % 13;
            if (s->found[su] == r && r <= low) {
                if (step(s, c, j, FOUND)) return -1;
                progress = 1;
            }
        }
        for (int su = 0; su < 4; su++) {
            int r = s->found[su];
            if (r < 13 && r <= low && (s->bq >> (su * 13 + r) & 1)) {
                if (step(s, su * 13 + r, BQ, FOUND)) return -1;
                progress = 1;
            }
        }
    }
    return 0;
}

/* ---- move generation -------------------------------------------------- */

typedef struct {
    uint64_t bq_by_rank[13]; /* bouquet cards of each rank */
    int tops_by_rank[14][NCOL + 1];
    int ntops[14];
    int empty;
    int buried[NCOL];
} Ctx;

static int push_move(S *s, int score, int card, int src, int target, int n, const uint8_t *chain) {
    RESERVE(s->mv, s->mlen, s->mcap, 1);
    FMove *m = &s->mv[s->mlen++];
    m->score = (int16_t)score;
    m->card = card;
    m->src = src;
    m->target = target;
    m->n = n;
    if (n) memcpy(m->chain, chain, n);
    return 0;
}

static int chains(S *s, Ctx *x, int card, int src, uint8_t *chain, int n, int rank, int score) {
    if (rank > 12) return 0;
    uint64_t bs = x->bq_by_rank[rank];
    while (bs) {
        int b = __builtin_ctzll(bs);
        bs &= bs - 1;
        chain[n] = b;
        if (rank + 1 <= 12) {
            for (int i = 0; i < x->ntops[rank + 1]; i++) {
                int j = x->tops_by_rank[rank + 1][i];
                if (push_move(s, score + n + 2 + (x->buried[j] ? 2 : 0), card, src, j, n + 1, chain)) return -1;
            }
        }
        if (x->empty >= 0)
            if (push_move(s, score + n + 2 + 3, card, src, x->empty, n + 1, chain)) return -1;
        if (chains(s, x, card, src, chain, n + 1, rank + 1, score)) return -1;
    }
    return 0;
}

static int gen_moves(S *s) {
    Ctx x;
    memset(&x, 0, sizeof x);
    x.empty = -1;
    for (int j = 0; j < NCOL; j++) {
        if (s->len[j]) {
            int r = s->col[j][s->len[j] - 1] % 13;
            x.tops_by_rank[r][x.ntops[r]++] = j;
        } else if (x.empty < 0) {
            x.empty = j;
        }
    }
    /* next card each foundation needs: burying it is bad, uncovering it good
     * (scores order only the greedy mode's moves: the complete search skips this) */
    if (s->greedy) {
        uint64_t needed = 0;
        for (int su = 0; su < 4; su++)
            if (s->found[su] < 13) needed |= 1ULL << (su * 13 + s->found[su]);
        for (int j = 0; j < NCOL; j++)
            for (int i = 0; i + 1 < s->len[j]; i++)
                if (needed >> s->col[j][i] & 1) { x.buried[j] = 1; break; }
    }
    int any_bq = 0;
    for (uint64_t m = s->bq; m; m &= m - 1) {
        int c = __builtin_ctzll(m), su = c / 13, r = c % 13;
        if (s->found[su] == r)
            if (push_move(s, 0, c, BQ, FOUND, 0, NULL)) return -1;
        x.bq_by_rank[r] |= 1ULL << c;
        any_bq = 1;
    }
    if (s->abstract) {
        /* alike bouquet cards make alike chains: keep one of each rank */
        for (int r = 0; r < 13; r++) {
            uint64_t h = x.bq_by_rank[r] & s->hi;
            if (h) x.bq_by_rank[r] = (x.bq_by_rank[r] & ~s->hi) | (h & (~h + 1));
        }
    }
    uint8_t chain[MAXCH];
    for (int src = 0; src < NCOL; src++) {
        int n = s->len[src];
        if (!n) continue;
        int c = s->col[src][n - 1], su = c / 13, r = c % 13;
        if (s->found[su] == r)
            if (push_move(s, 0, c, src, FOUND, 0, NULL)) return -1;
        int base = 10;
        if (n == 1) {
            base -= 3;
        } else {
            int t = s->col[src][n - 2];
            if (s->found[t / 13] == t % 13) base -= 6;
            else if (x.buried[src]) base -= 2;
        }
        if (r + 1 <= 12) {
            for (int i = 0; i < x.ntops[r + 1]; i++) {
                int j = x.tops_by_rank[r + 1][i];
                if (push_move(s, base + (x.buried[j] ? 2 : 0), c, src, j, 0, NULL)) return -1;
            }
        }
        if (x.empty >= 0 && n > 1)
            if (push_move(s, base + 3, c, src, x.empty, 0, NULL)) return -1;
        if (any_bq)
            if (chains(s, &x, c, src, chain, 0, r + 1, base + 1)) return -1;
    }
    return 0;
}

static int apply_move(S *s, const FMove *m);

/* Heuristic weights (the best-first order only; other values tried made no
 * difference on the hard deals): cards lying on the next card of a suit, on
 * the one after, cards not built on a rank one higher, empty columns; and,
 * in the long runs only (``blocked``), cards lying on a lower card of their
 * own suit (which did make one: see the header). */
enum { W_NEXT = 10, W_NEXT2 = 3, W_UNSORTED = 2, W_EMPTY = 6, W_BLOCKED = 64 };

/* How far the position is from won (lower is better), for the best-first
 * order only: cards not home, cards lying on the next card each suit needs,
 * column cards not built on a card one rank higher, and with ``blocked``
 * cards lying on a lower card of their suit (each must leave its column
 * before that card can go home). */
static int evaluate(S *s, int blocked) {
    int h = 64 * (52 - s->home);
    uint8_t next[52] = {0}; /* each card's weight per card above it */
    for (int su = 0; su < 4; su++) {
        int f = s->found[su];
        if (f < 13) next[su * 13 + f] = W_NEXT;
        if (f < 12) next[su * 13 + f + 1] = W_NEXT2;
    }
    for (int j = 0; j < NCOL; j++) {
        int n = s->len[j];
        if (!n) {
            h -= W_EMPTY;
            continue;
        }
        const uint8_t *col = s->col[j];
        int lowest[4] = {13, 13, 13, 13}; /* the lowest rank of each suit so far */
        for (int i = 0; i < n; i++) {
            int c = col[i], su = SUIT[c], r = RANK[c];
            h += next[c] * (n - 1 - i);
            if (i && RANK[col[i - 1]] != r + 1) h += W_UNSORTED;
            if (blocked) {
                if (r > lowest[su]) h += blocked;
                else lowest[su] = r;
            }
        }
    }
    return h;
}

/* Order the moves generated at [mstart, mlen) by the evaluation of the
 * position each one leads to (after its safe foundation moves). */
static int score_moves(S *s, int64_t mstart) {
    int64_t p0 = s->plen;
    for (int64_t i = mstart; i < s->mlen; i++) {
        FMove *m = &s->mv[i];
        if (apply_move(s, m)) return -1;
        if (s->prune && auto_moves(s)) return -1;
        int h = evaluate(s, 0);
        undo_to(s, p0);
        m->score = (int16_t)(h * 2 + (m->score > 1 ? 1 : 0));
    }
    return 0;
}

static void sort_moves(FMove *m, int n) {
    /* stable insertion sort by score; move lists are short */
    for (int i = 1; i < n; i++) {
        FMove t = m[i];
        int j = i - 1;
        while (j >= 0 && m[j].score > t.score) {
            m[j + 1] = m[j];
            j--;
        }
        m[j + 1] = t;
    }
}

static int apply_move(S *s, const FMove *m) {
    for (int i = m->n - 1; i >= 0; i--)
        if (step(s, m->chain[i], BQ, m->target)) return -1;
    return step(s, m->card, m->src, m->target);
}

/* ---- the search ------------------------------------------------------- */

enum { R_NONE = 0, R_WON = 1, R_LIMIT = 2, R_OOM = 3 };

static inline void tt_prefetch(const S *s, Key k) {
    if (s->cap) prefetch(&s->tt[k.a & (s->cap - 1)]);
}

/* The abstract game's search, the moves at [mstart, mlen) of the position
 * just expanded: each child is played once here and its key computed, its
 * slot in the table fetched ahead (probes made one by one as children are
 * entered are cache misses, a third of the search's time when waited for);
 * then the children already in the table are dropped and the new ones
 * stored at once. Each stored child is still entered from this frame
 * (``enter`` with ``stored``), so a complete search still expands every
 * position it stores. A won child is kept, unstored, for ``enter`` to see,
 * and with ``keep_first`` the first child is kept even when stored (the
 * guide's, see guide_pick). Returns the moves kept, or -1. */
static int store_children(S *s, int64_t mstart, int keep_first) {
    int64_t n = s->mlen - mstart, p0 = s->plen;
    if (n > s->ckcap) {
        Key *k = realloc(s->ck, (size_t)n * sizeof(Key));
        if (!k) return -1;
        s->ck = k;
        s->ckcap = n;
    }
    for (int64_t i = 0; i < n; i++) {
        if (apply_move(s, &s->mv[mstart + i])) return -1;
        if (s->prune && auto_moves(s)) return -1;
        if (won(s)) {
            s->ck[i].a = s->ck[i].b = 0; /* no key: kept as it is */
        } else {
            s->ck[i] = s->ak;
            tt_prefetch(s, s->ck[i]);
        }
        undo_to(s, p0);
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
        Key k = s->ck[i];
        if (k.a || k.b) {
            int ins = tt_insert(s, k);
            if (ins < 0) return -1;
            if (!ins && !(i == 0 && keep_first)) continue;
        }
        s->mv[mstart + kept++] = s->mv[mstart + i];
    }
    s->mlen = mstart + kept;
    return (int)kept;
}

/* ---- the guide ------------------------------------------------------- */

/* The refinement of the abstract games (rule 6) runs the search again with
 * one more low card in some suits, from the start: the new goal is most
 * often a few moves past the one the last run reached, but an unguided
 * search goes the same long way round to get there each time (deal 275:
 * three runs of 31 million positions each for the same suit). A guide, the
 * last run's line, puts first at each position on it the move that follows
 * it furthest, so the search goes straight to where the last one ended and
 * looks around there first. It only orders moves: the search expands the
 * same positions as unguided when the goal is out of reach, so a proof
 * costs the same. */

/* Step j of the guide already holds: its card is home, or lies where the
 * step put it. */
static int guide_holds(const S *s, int64_t j) {
    int c = s->gcard[j], o = s->gonto[j];
    if (RANK[c] < s->found[SUIT[c]]) return 1;
    if (o == G_HOME || (s->bq >> c & 1)) return 0;
    for (int k = 0; k < NCOL; k++)
        for (int i = 0; i < s->len[k]; i++)
            if (s->col[k][i] == c) return (i ? s->col[k][i - 1] : BASE) == o;
    return 0;
}

static int64_t guide_advance(const S *s, int64_t j) {
    while (j < s->glen && guide_holds(s, j)) j++;
    return j;
}

/* At a position on the guide (place s->gi), put first among the ``cnt``
 * moves at ``mstart`` the one after which the most further steps hold.
 * Returns the guide's place after it, or -1 (none advances: off the guide
 * from here), or -2 out of memory. The child it picks is entered even when
 * the table holds it already: a position along the guide is often stored,
 * not yet entered, as the child of an earlier one by another order of the
 * same moves, and skipping it left the search off the guide, to go the
 * long way round (deal 135's steps each searched 490 thousand positions
 * for a goal a few moves past the guide's end). Entering a stored position
 * again costs an expansion whose children are mostly stored, and only the
 * first moves from the start can be on the guide, each one further along
 * it: at most one such entry per step of the guide. */
static int64_t guide_pick(S *s, int64_t mstart, int cnt) {
    int64_t base = guide_advance(s, s->gi), best = base, best_early = base, p0 = s->plen;
    int pick = -1, pick_early = -1;
    for (int i = 0; i < cnt; i++) {
        const FMove *m = &s->mv[mstart + i];
        /* a card sent home before the guide sends it: every step of it
         * then holds, but later steps that put cards on it never will */
        int early = m->target == FOUND && !(base < s->glen && s->gcard[base] == m->card && s->gonto[base] == G_HOME);
        if (apply_move(s, m)) return -2;
        if (s->prune && auto_moves(s)) return -2;
        int64_t a = guide_advance(s, base);
        undo_to(s, p0);
        if (early && a > best_early) {
            best_early = a;
            pick_early = i;
        } else if (!early && a > best) {
            best = a;
            pick = i;
        }
    }
    if (pick < 0) { /* only sending a card home early goes on along it */
        pick = pick_early;
        best = best_early;
    }
    if (pick < 0) return -1;
    FMove t = s->mv[mstart + pick];
    memmove(&s->mv[mstart + 1], &s->mv[mstart], (size_t)pick * sizeof(FMove)); /* the rest keep their order */
    s->mv[mstart] = t;
    return best;
}

/* Enter the position just reached: safe moves, win test, table (unless
 * ``stored`` by store_children already), budgets, and a new frame with its
 * moves. */
static int step_aside(S *s);
static void free_s(S *s);

static int enter(S *s, int *pushed, int stored) {
    *pushed = 0;
    int64_t auto_start = s->plen;
    if (s->prune && auto_moves(s)) return R_OOM;
    if (won(s)) return R_WON;
    if (!stored) {
        int ins = tt_insert(s, s->abstract ? s->ak : s->h);
        if (ins < 0) return R_OOM;
        if (ins == 0 && s->gi < 0) { /* on the guide it is entered again (see guide_pick) */
            undo_to(s, auto_start);
            return R_NONE;
        }
    }
    s->nodes++;
    if (s->aside_states > 0 && (double)s->states > s->aside_states) {
        int r = step_aside(s);
        if (r != R_NONE) return r;
    }
    if (s->max_nodes >= 0 && (double)s->nodes > s->max_nodes) { s->limit = "nodes"; return R_LIMIT; }
    if (s->max_states >= 0 && (double)s->states > s->max_states) { s->limit = "states"; return R_LIMIT; }
    if (out_of_time(s)) return R_LIMIT;
    int64_t mstart = s->mlen;
    if (gen_moves(s)) return R_OOM;
    int64_t gnext = s->gi >= 0 && s->mlen > mstart ? guide_pick(s, mstart, (int)(s->mlen - mstart)) : -1;
    if (gnext == -2) return R_OOM;
    /* the abstract games only: the real game's search wins deals too, and
     * entering children in this order makes its won lines far longer
     * (deal 8's, 1,157 moves after shortening, against under 400) */
    int cnt = s->abstract ? store_children(s, mstart, gnext >= 0) : (int)(s->mlen - mstart);
    if (cnt < 0) return R_OOM;
    if (s->greedy && cnt > 1 && gnext < 0) {
        /* greedy mode's depth-first run: best evaluated child first */
        if (score_moves(s, mstart)) return R_OOM;
        sort_moves(s->mv + mstart, cnt);
    }
    if (s->flen + 1 > s->fcap) {
        int64_t nc = s->fcap ? s->fcap * 2 : 1024;
        void *p = realloc(s->fr, (size_t)nc * sizeof(Frame));
        if (!p) return R_OOM;
        s->fr = p;
        s->fcap = nc;
    }
    Frame *f = &s->fr[s->flen++];
    f->mstart = mstart;
    f->mcount = cnt;
    f->midx = 0;
    f->auto_start = auto_start;
    f->after_auto = s->plen;
    f->gnext = gnext;
    *pushed = 1;
    return R_NONE;
}

static int run(S *s) {
    int pushed;
    s->gi = s->glen ? 0 : -1;
    int r = enter(s, &pushed, 0);
    if (r != R_NONE || !pushed) return r;
    while (s->flen) {
        Frame *f = &s->fr[s->flen - 1];
        if (f->midx == f->mcount) {
            s->mlen = f->mstart;
            undo_to(s, f->auto_start);
            s->flen--;
            continue;
        }
        s->gi = f->midx ? -1 : f->gnext; /* only the first move can follow the guide */
        FMove m = s->mv[f->mstart + f->midx++];
        undo_to(s, f->after_auto);
        if (apply_move(s, &m)) return R_OOM;
        r = enter(s, &pushed, s->abstract); /* store_children stored it */
        if (r != R_NONE) return r;
        /* not pushed: the state was seen; the next move undoes this one */
    }
    return R_NONE;
}

/* Put back a starting layout (its state fields only) and empty the line. */
static void set_layout(S *s, const S *root) {
    memcpy(s->col, root->col, sizeof s->col);
    memcpy(s->len, root->len, sizeof s->len);
    memcpy(s->found, root->found, sizeof s->found);
    s->bq = root->bq;
    s->home = root->home;
    s->h = root->h;
    s->plen = 0;
}

/* ---- best-first (the greedy phase) ------------------------------------ */

/* Incomplete and heuristic: always expand the stored position with the best
 * evaluation plus w_depth for each move of its line (a weighted A*: the
 * larger w_depth, the wider and the shorter the lines). A position is
 * stored whole (Node); the winning line is rebuilt from parent links and
 * replayed with its safe moves. Its failure proves nothing. */
/* The hard deals need runs of several seconds, that see more positions
 * than a run can hold: a run holds at most BEST_FIRST_NODES positions (64
 * bytes each), and when its store is full it drops all but its best open
 * positions and their lines (bf_collect) and goes on. Its seen set keeps
 * every position it stored, 8 to 16 bytes each, up to BEST_FIRST_SEEN (the
 * table then at 256 MB), when the run gives up. Two runs side by side
 * (search.py, with _flower.py's) take under 1.6 GB of the 2 GB a solve may
 * use. */
#define BEST_FIRST_NODES 6000000
#define BEST_FIRST_SEEN 25000000

/* A stored position: the bouquet, the column lengths and the column cards
 * packed at 52 + 6 x 6 + 6 bits a card (50 bytes); the foundations follow
 * from the cards in neither place. The move that made it is not kept: the
 * winning line is found again at the end, between each node and its parent. */
typedef struct {
    int32_t parent;
    int32_t depth;
    int32_t qnext; /* the next node of its bucket in the queue, or -1 */
    uint8_t bits[52];
} Node;
_Static_assert(sizeof(Node) == 64, "a stored position is 64 bytes");

typedef struct {
    uint8_t *p;
    uint64_t acc;
    int n;
} Bits;

/* Four bytes at a time (widths up to 32 bits): a position is 400 bits, so
 * a save writes 48 bytes and then 2, a load reads at most the 52. */
static inline void bits_put(Bits *b, uint64_t v, int width) {
    b->acc |= v << b->n;
    b->n += width;
    if (b->n >= 32) {
        uint32_t w = (uint32_t)b->acc;
        memcpy(b->p, &w, 4);
        b->p += 4;
        b->acc >>= 32;
        b->n -= 32;
    }
}

static inline void bits_end(Bits *b) {
    for (; b->n > 0; b->n -= 8, b->acc >>= 8) *b->p++ = (uint8_t)b->acc;
}

static inline uint64_t bits_get(Bits *b, int width) {
    if (b->n < width) {
        uint32_t w;
        memcpy(&w, b->p, 4);
        b->p += 4;
        b->acc |= (uint64_t)w << b->n;
        b->n += 32;
    }
    uint64_t v = b->acc & ((1ULL << width) - 1);
    b->acc >>= width;
    b->n -= width;
    return v;
}

static void load_node(S *s, const Node *nd) {
    Bits b = {(uint8_t *)nd->bits, 0, 0};
    s->h.a = s->h.b = 0;
    s->bq = bits_get(&b, 26);
    s->bq |= bits_get(&b, 26) << 26;
    for (int j = 0; j < NCOL; j++) s->len[j] = (int)bits_get(&b, 6);
    uint64_t present = s->bq;
    for (int j = 0; j < NCOL; j++) {
        int p = BASE;
        for (int i = 0; i < s->len[j]; i++) {
            int c = (int)bits_get(&b, 6);
            s->col[j][i] = c;
            present |= 1ULL << c;
            hx(s, c, p);
            p = c;
        }
    }
    for (uint64_t m = s->bq; m; m &= m - 1) hb(s, __builtin_ctzll(m));
    s->home = 0;
    for (int su = 0; su < 4; su++) { /* a suit is home up to its lowest card still out */
        uint64_t out = (present >> (su * 13) & 0x1FFF) | 1ULL << 13;
        s->found[su] = __builtin_ctzll(out);
        s->home += s->found[su];
    }
}

static void save_node(S *s, Node *nd) {
    Bits b = {nd->bits, 0, 0};
    bits_put(&b, s->bq & ((1ULL << 26) - 1), 26);
    bits_put(&b, s->bq >> 26, 26);
    for (int j = 0; j < NCOL; j++) bits_put(&b, (uint64_t)s->len[j], 6);
    for (int j = 0; j < NCOL; j++)
        for (int i = 0; i < s->len[j]; i++) bits_put(&b, s->col[j][i], 6);
    bits_end(&b);
}

/* The open positions, by f (evaluation + depth weight): a bucket for each
 * value, first in first out, so positions of equal f come out oldest first
 * (the order a heap keyed on (f, node) gives), each push and pop in constant
 * time; a heap's were a dozen cache misses deep at millions of nodes. */
typedef struct {
    int32_t *head, *tail;
    int64_t cap;   /* f values 0 .. cap - 1 */
    int64_t count;
    int64_t min;   /* no bucket below min holds a node */
} Queue;

static int queue_push(Queue *q, Node *nodes, int32_t f, int32_t node) {
    if (f < 0) f = 0;
    if (f >= q->cap) {
        int64_t nc = q->cap ? q->cap : 4096;
        while (nc <= f) nc *= 2;
        int32_t *h = realloc(q->head, (size_t)nc * sizeof(int32_t));
        if (!h) return -1;
        q->head = h;
        int32_t *t = realloc(q->tail, (size_t)nc * sizeof(int32_t));
        if (!t) return -1;
        q->tail = t;
        for (int64_t i = q->cap; i < nc; i++) q->head[i] = q->tail[i] = -1;
        if (!q->cap) q->min = nc;
        q->cap = nc;
    }
    nodes[node].qnext = -1;
    if (q->tail[f] >= 0) nodes[q->tail[f]].qnext = node;
    else q->head[f] = node;
    q->tail[f] = node;
    if (f < q->min) q->min = f;
    q->count++;
    return 0;
}

static int32_t queue_pop(Queue *q, Node *nodes) {
    while (q->head[q->min] < 0) q->min++;
    int32_t node = q->head[q->min];
    q->head[q->min] = nodes[node].qnext;
    if (q->head[q->min] < 0) q->tail[q->min] = -1;
    q->count--;
    return node;
}

/* The move that leads from node ``from`` to node ``to`` (after its safe
 * moves), found again among the moves of ``from``: 0, or -1 if out of memory
 * or none does (which cannot happen). */
static int move_between(S *s, const Node *from, const Node *to, FMove *out) {
    load_node(s, to);
    Key want = s->h;
    load_node(s, from);
    s->plen = 0;
    s->mlen = 0;
    if (gen_moves(s)) return -1;
    for (int64_t i = 0; i < s->mlen; i++) {
        if (apply_move(s, &s->mv[i]) || (s->prune && auto_moves(s))) return -1;
        int same = s->h.a == want.a && s->h.b == want.b;
        undo_to(s, 0);
        if (same) {
            *out = s->mv[i];
            return 0;
        }
    }
    return -1;
}

/* When the store is full: keep the ``keep`` best open positions (by f,
 * oldest first within one f: the order they would come out) and every
 * position on their lines, drop the rest, and compact the store (a parent
 * always comes before its children, so one pass renumbers them). The
 * dropped positions stay in the seen set, so they are not found again: the
 * run goes on over its best open positions. On the hard deals this
 * matched, node for node over 6 million nodes, a run with a store five
 * times as large (which most of the time never came to expand what is
 * dropped). Returns how many positions are left, or -1 when out of memory. */
static int64_t bf_collect(Node *nodes, int64_t nn, Queue *q, int64_t keep) {
    int32_t *open = malloc((size_t)keep * sizeof(int32_t));
    int32_t *fval = malloc((size_t)keep * sizeof(int32_t));
    int32_t *renum = malloc((size_t)nn * sizeof(int32_t));
    if (!open || !fval || !renum) {
        free(open);
        free(fval);
        free(renum);
        return -1;
    }
    int64_t k = 0;
    for (int64_t f = q->min; f < q->cap && k < keep; f++)
        for (int32_t v = q->head[f]; v >= 0 && k < keep; v = nodes[v].qnext) {
            open[k] = v;
            fval[k++] = (int32_t)f;
        }
    for (int64_t i = 0; i < nn; i++) renum[i] = -1;
    for (int64_t i = 0; i < k; i++) /* mark each line up to where it meets a marked one */
        for (int32_t v = open[i]; v >= 0 && renum[v] < 0; v = nodes[v].parent) renum[v] = 0;
    int64_t j = 0;
    for (int64_t i = 0; i < nn; i++) {
        if (renum[i] < 0) continue;
        renum[i] = (int32_t)j;
        if (j != i) nodes[j] = nodes[i];
        if (nodes[j].parent >= 0) nodes[j].parent = renum[nodes[j].parent];
        j++;
    }
    for (int64_t f = 0; f < q->cap; f++) q->head[f] = q->tail[f] = -1;
    q->count = 0;
    q->min = q->cap;
    for (int64_t i = 0; i < k; i++) queue_push(q, nodes, fval[i], renum[open[i]]); /* f < cap: no growth */
    free(open);
    free(fval);
    free(renum);
    return j;
}

/* One best-first run, which can stop at a budget and go on later (run_greedy
 * pauses its long run for short ones): everything it needs is here, and the
 * shared state ``s`` is loaded from its store at every expansion. */
typedef struct {
    Node *nodes;
    Queue queue;
    Seen seen;
    Key *keys; /* the children's keys */
    int64_t nn, kcap, store, room, states;
    int w_depth, blocked;
    S root; /* the starting layout: only its state fields are used */
} BestFirst;

static void bf_close(BestFirst *b) {
    big_free(b->nodes, (size_t)b->store * sizeof(Node));
    big_free(b->seen.slot, b->seen.cap * sizeof(uint64_t));
    free(b->keys);
    free(b->queue.head);
    free(b->queue.tail);
    memset(b, 0, sizeof *b);
}

/* Store the starting position. R_NONE: ready to run (bf_close it after);
 * R_WON: its safe moves win it; R_OOM. */
static int bf_open(S *s, BestFirst *b, int w_depth, int blocked) {
    memset(b, 0, sizeof *b);
    b->store = s->store > 0 ? s->store : BEST_FIRST_NODES;
    b->room = b->store / 8 < 65536 ? b->store / 8 : 65536; /* for one position's children */
    b->w_depth = w_depth;
    b->blocked = blocked;
    b->root = *s;
    int64_t p0 = s->plen;
    if (s->prune && auto_moves(s)) return R_OOM;
    if (won(s)) return R_WON; /* the safe moves played are the line */
    b->nodes = big_alloc((size_t)b->store * sizeof(Node)); /* pages come as they are used */
    if (!b->nodes) return R_OOM;
    save_node(s, &b->nodes[0]);
    b->nodes[0].parent = -1;
    b->nodes[0].depth = 0;
    b->nn = 1;
    if (seen_insert(&b->seen, s->abstract ? s->ak : s->h) < 0) return R_OOM;
    b->states = 1;
    undo_to(s, p0);
    if (queue_push(&b->queue, b->nodes, 0, 0)) return R_OOM;
    return R_NONE;
}

/* Expand until won (R_WON, the line played on ``s`` from the start),
 * a budget is spent (R_LIMIT: it can run again from there), or it gives up
 * (R_NONE: it proves nothing) or runs out of memory (R_OOM). */
static int bf_run(S *s, BestFirst *b) {
    Node *nodes = b->nodes;
    Queue *queue = &b->queue;
    int32_t goal = -1;
    FMove last = {0};
    s->states = b->states;
    while (queue->count && goal < 0) {
        if (b->nn + b->room > b->store) {
            b->nn = bf_collect(nodes, b->nn, queue, b->store / 8);
            if (b->nn < 0) return R_OOM;
            if (b->nn + b->room > b->store * 3 / 4) return R_NONE; /* the lines alone fill it: gives up */
        }
        /* budgets before the pop, so that a run stopped here loses nothing */
        if (s->max_nodes >= 0 && (double)s->nodes + 1 > s->max_nodes) { s->limit = "nodes"; return R_LIMIT; }
        if (out_of_time(s)) return R_LIMIT;
        int32_t popped = queue_pop(queue, nodes);
        s->nodes++;
        load_node(s, &nodes[popped]);
        if (s->abstract) ak_init(s);
        int32_t depth = nodes[popped].depth;
        s->plen = 0;
        s->mlen = 0;
        if (gen_moves(s)) return R_OOM;
        /* First every child's key, its slot in the seen set fetched ahead
         * (a cache miss each, most of a run's time when waited for one by
         * one), then each child again, stored if new. */
        if (s->mlen > b->kcap) {
            Key *k = realloc(b->keys, (size_t)s->mlen * sizeof(Key));
            if (!k) return R_OOM;
            b->keys = k;
            b->kcap = s->mlen;
        }
        Key *keys = b->keys;
        for (int64_t i = 0; i < s->mlen; i++) {
            if (apply_move(s, &s->mv[i])) return R_OOM;
            if (s->prune && auto_moves(s)) return R_OOM;
            if (won(s)) {
                goal = popped;
                last = s->mv[i];
                break;
            }
            keys[i] = s->abstract ? s->ak : s->h;
            seen_prefetch(&b->seen, keys[i]);
            undo_to(s, 0);
        }
        for (int64_t i = 0; i < s->mlen && goal < 0; i++) {
            int ins = seen_insert(&b->seen, keys[i]);
            if (ins < 0) return R_OOM;
            if (ins) {
                FMove m = s->mv[i];
                if (apply_move(s, &m)) return R_OOM;
                if (s->prune && auto_moves(s)) return R_OOM;
                b->states = ++s->states;
                /* gives up (proves nothing) with a full store or seen set */
                if (b->nn >= b->store || b->seen.count >= BEST_FIRST_SEEN) return R_NONE;
                if (s->max_states >= 0 && (double)b->nn >= s->max_states) { /* the positions it holds */
                    s->limit = "states";
                    return R_LIMIT;
                }
                Node *nd = &nodes[b->nn];
                save_node(s, nd);
                nd->parent = popped;
                nd->depth = depth + 1;
                if (queue_push(queue, nodes, evaluate(s, b->blocked) + b->w_depth * (depth + 1), (int32_t)b->nn))
                    return R_OOM;
                b->nn++;
                undo_to(s, 0);
            }
        }
    }
    if (goal < 0) return R_NONE; /* every position expanded: gives up, proves nothing */
    /* rebuild the line: the moves from the root, each followed by its
     * safe foundation moves, replayed on the starting layout */
    int32_t cnt = 1;
    for (int32_t v = goal; nodes[v].parent >= 0; v = nodes[v].parent) cnt++;
    FMove *line = malloc((size_t)cnt * sizeof(FMove));
    if (!line) return R_OOM;
    int32_t k = cnt;
    line[--k] = last;
    for (int32_t v = goal; nodes[v].parent >= 0; v = nodes[v].parent)
        if (move_between(s, &nodes[nodes[v].parent], &nodes[v], &line[--k])) {
            free(line);
            return R_OOM;
        }
    set_layout(s, &b->root);
    int bad = s->prune && auto_moves(s);
    for (int32_t i = 0; i < cnt && !bad; i++) bad = apply_move(s, &line[i]) || (s->prune && auto_moves(s));
    free(line);
    return bad ? R_OOM : R_WON;
}

static int run_best_first(S *s, int w_depth, int blocked) {
    BestFirst b;
    int r = bf_open(s, &b, w_depth, blocked);
    if (r == R_NONE) r = bf_run(s, &b);
    bf_close(&b);
    return r;
}

/* The complete search's step aside, taken once, when it has stored
 * aside_states states: a best-first run (depth weight aside_weight, blocked
 * cards weighed, at most aside_nodes expansions) from the starting layout
 * looks for the goal, while the complete search's table and line wait, and
 * the search then goes on where it was. R_WON: the run's line is now the
 * search's (its position is no longer the search's: the search ends there);
 * R_LIMIT: time ran out or the search was called off; R_NONE: go on. Its
 * giving up proves nothing; the complete search alone proves. Deals whose
 * complete search needs a little more than aside_states lose only the
 * run's time, not a second search from the start. */
static int step_aside(S *s) {
    s->aside_states = 0; /* once */
    S *b = malloc(sizeof(S));
    if (!b) return R_OOM;
    *b = *(const S *)s->start; /* the starting layout and options; the buffers are its own */
    b->tt = NULL;
    b->cap = 0;
    b->path = NULL;
    b->plen = b->pcap = 0;
    b->mv = NULL;
    b->mlen = b->mcap = 0;
    b->fr = NULL;
    b->flen = b->fcap = 0;
    b->ck = NULL;
    b->ckcap = 0;
    b->gcard = b->gonto = NULL;
    b->glen = 0;
    b->gi = -1;
    b->nodes = b->states = 0;
    b->greedy = 1;
    b->max_states = -1;
    b->max_nodes = s->aside_nodes;
    if (s->max_nodes >= 0 && s->max_nodes - (double)s->nodes < b->max_nodes) b->max_nodes = s->max_nodes - (double)s->nodes;
    if (b->max_nodes < 0) b->max_nodes = 0;
    int r = run_best_first(b, s->aside_weight, W_BLOCKED);
    s->nodes += b->nodes;
    if (r == R_WON) {
        s->aside_won = 1;
        s->limit = "aside";
        free(s->path);
        s->path = b->path;
        s->plen = b->plen;
        s->pcap = b->pcap;
        b->path = NULL;
    } else if (r == R_LIMIT) {
        if (strcmp(b->limit, "nodes") == 0 && (s->max_nodes < 0 || (double)s->nodes < s->max_nodes))
            r = R_NONE; /* its own cap: the complete search goes on */
        else
            s->limit = b->limit;
    }
    free_s(b);
    free(b);
    return r;
}

/* The greedy phase: the portfolio's runs one after the other, each until
 * its share of the budgets is spent (its deadline falls at the sum of the
 * shares so far) or it gives up; the table is emptied between runs. */
enum { KEEP = 1, RESUME = 2 };
static const struct {
    int depth_weight; /* 0: the depth-first search, best child first */
    int blocked;      /* the best-first order's weight of a card on a lower one of its suit */
    double share;
    double expansions; /* the most positions it expands (0: no cap); the time it leaves goes on */
    int pause; /* KEEP: a best-first run kept when its cap stops it; RESUME: that run goes on */
} PORTFOLIO[] = {{12, 0, 0.005, 0, 0}, {6, 0, 0.005, 0, 0}, {3, 0, 0.005, 0, 0}, {0, 0, 0.01, 0, 0},
                 {12, 0, 0.02, 0, 0},  {6, 0, 0.02, 0, 0},  {3, 0, 0.02, 0, 0},  {0, 0, 0.04, 0, 0},
                 {24, W_BLOCKED, 0.2, 1500000, KEEP},
                 {48, W_BLOCKED, 0.15, 450000, 0},
                 {64, W_BLOCKED, 0.2, 900000, 0},
                 {24, W_BLOCKED, 0.325, 0, RESUME}};
#define PORTFOLIO_RUNS ((int)(sizeof PORTFOLIO / sizeof PORTFOLIO[0]))

static int run_greedy(S *s) {
    double mn = s->max_nodes, ms = s->max_seconds, upto = 0;
    S root = *s;
    int r = R_NONE;
    BestFirst kept;
    int have_kept = 0;
    for (int i = 0; i < PORTFOLIO_RUNS; i++) {
        if (i) {
            tt_free(s->tt, s->cap);
            s->tt = NULL;
            s->cap = 0;
            s->states = 0;
            s->limit = NULL;
            s->mlen = s->flen = 0;
            set_layout(s, &root);
        }
        upto += PORTFOLIO[i].share;
        s->max_nodes = mn >= 0 ? mn * upto : -1; /* (a capped run before may have set it) */
        if (ms >= 0) s->max_seconds = ms * upto;
        double cap = s->nodes + PORTFOLIO[i].expansions;
        if (PORTFOLIO[i].expansions > 0 && (s->max_nodes < 0 || cap < s->max_nodes)) s->max_nodes = cap;
        if (PORTFOLIO[i].pause == RESUME) {
            if (!have_kept) {
                r = R_NONE; /* the kept run gave up (or won): nothing to go on with */
                continue;
            }
            r = bf_run(s, &kept);
            bf_close(&kept);
            have_kept = 0;
        } else if (PORTFOLIO[i].pause == KEEP) {
            r = bf_open(s, &kept, PORTFOLIO[i].depth_weight, PORTFOLIO[i].blocked);
            if (r == R_NONE) r = bf_run(s, &kept);
            /* kept when its cap or its time stopped it between two expansions (not the states budget) */
            have_kept = r == R_LIMIT && s->limit && strcmp(s->limit, "states") != 0;
            if (!have_kept) bf_close(&kept);
        } else {
            r = PORTFOLIO[i].depth_weight ? run_best_first(s, PORTFOLIO[i].depth_weight, PORTFOLIO[i].blocked) : run(s);
        }
        if (r == R_WON || r == R_OOM || (s->stop && *s->stop)) break;
    }
    if (have_kept) bf_close(&kept);
    return r; /* the last run's: a spent budget, or it gave up */
}


/* ---- shortening a won line -------------------------------------------- */

/* A depth-first search can wander through hundreds of thousands of
 * positions before it wins (an unordered one most of all): its line goes
 * everywhere it went. This cuts the detours the way _polish.py's shortcut
 * pass does, in C so that it is quick on such lines: walking from the
 * start, jump from each position to the furthest later position of the line
 * that one move (with its safe moves) reaches, or that is the same position
 * (a loop); else follow the line one step. Positions are compared by their
 * column-order-free keys, so a step of the line is renamed to the column of
 * the current layout that holds the same cards. On any surprise the original
 * line is kept (search.py replays whatever comes back through the engine). */
typedef struct {
    Key k;
    int64_t idx; /* -1: empty slot */
} KeyAt;

static void keyat_put(KeyAt *t, uint64_t cap, Key k, int64_t idx) {
    uint64_t j = k.a & (cap - 1);
    while (t[j].idx >= 0 && !(t[j].k.a == k.a && t[j].k.b == k.b)) j = (j + 1) & (cap - 1);
    t[j].k = k;
    t[j].idx = idx; /* a later position with the same key wins */
}

static int64_t keyat_get(const KeyAt *t, uint64_t cap, Key k) {
    uint64_t j = k.a & (cap - 1);
    while (t[j].idx >= 0) {
        if (t[j].k.a == k.a && t[j].k.b == k.b) return t[j].idx;
        j = (j + 1) & (cap - 1);
    }
    return -1;
}

static int column_with_top(S *s, int top) {
    for (int j = 0; j < NCOL; j++)
        if (top == BASE ? s->len[j] == 0 : (s->len[j] && s->col[j][s->len[j] - 1] == top)) return j;
    return -1;
}

/* s->path holds the line from root to the win; after this, a line no longer
 * than before (the same one when memory is short). */
static void shorten_line(S *s, const S *root) {
    int64_t n = s->plen;
    uint64_t cap = 1;
    while (cap < 2 * (uint64_t)(n + 1)) cap <<= 1;
    Step *line = malloc((size_t)n * sizeof(Step) + 1);
    uint8_t *onto = malloc((size_t)n + 1);
    KeyAt *at = malloc(cap * sizeof(KeyAt));
    if (!(line && onto && at)) { /* keep the line as it is */
        free(line);
        free(onto);
        free(at);
        return;
    }
    memcpy(line, s->path, (size_t)n * sizeof(Step));
    for (uint64_t j = 0; j < cap; j++) at[j].idx = -1;
    /* the line's positions: key -> last index; and each step's target top
     * (BASE: an empty column), to rename its column later */
    set_layout(s, root);
    keyat_put(at, cap, s->h, 0);
    int ok = 1;
    for (int64_t i = 0; i < n && ok; i++) {
        onto[i] = line[i].target == FOUND ? BASE : (uint8_t)parent_of(s, line[i].target);
        ok = !step(s, line[i].card, line[i].src, line[i].target);
        keyat_put(at, cap, s->h, i + 1);
    }
    set_layout(s, root);
    int64_t i = 0;
    while (ok && i < n) {
        int64_t best = keyat_get(at, cap, s->h), mstart = s->mlen, p0 = s->plen, pick = -1;
        if (best < i || gen_moves(s)) { ok = 0; break; }
        for (int64_t m = mstart; m < s->mlen && ok; m++) {
            if (apply_move(s, &s->mv[m]) || (s->prune && auto_moves(s))) { ok = 0; break; }
            int64_t j = keyat_get(at, cap, s->h);
            if (j > best) { best = j; pick = m; }
            undo_to(s, p0);
        }
        if (!ok) break;
        if (pick >= 0) {
            FMove m = s->mv[pick];
            s->mlen = mstart;
            ok = !apply_move(s, &m) && !(s->prune && auto_moves(s));
            i = best;
            continue;
        }
        s->mlen = mstart;
        if (best > i) { i = best; continue; } /* a loop: this position comes back later */
        const Step *st = &line[i];
        int src = st->src == BQ ? BQ : column_with_top(s, st->card);
        int target = st->target == FOUND ? FOUND : column_with_top(s, onto[i]);
        if (src < 0 || target < 0 || (src == BQ && !(s->bq >> st->card & 1))) { ok = 0; break; }
        ok = !step(s, st->card, src, target);
        i++;
    }
    ok = ok && s->home == 52 && s->plen <= n;
    if (!ok) { /* keep the original line (the path held it: room enough) */
        memcpy(s->path, line, (size_t)n * sizeof(Step));
        s->plen = n;
    }
    free(line);
    free(onto);
    free(at);
}

/* ---- Python glue ------------------------------------------------------ */

static int opt_number(PyObject *o, double *out) {
    if (o == Py_None) { *out = -1; return 0; }
    double v = PyFloat_AsDouble(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0) v = 0;
    *out = v;
    return 0;
}

/* Four ints, one per suit, each in lo..13: 0, or -1 with the error set. */
static int read_suits(PyObject *seq, const char *what, int lo, const char *range, int out[4]) {
    char msg[64];
    snprintf(msg, sizeof msg, "%s must be a sequence", what);
    PyObject *f = PySequence_Fast(seq, msg);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != 4) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: one per suit", what);
        return -1;
    }
    for (int su = 0; su < 4; su++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, su));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(f); return -1; }
        if (v < lo || v > 13) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, range);
            return -1;
        }
        out[su] = (int)v;
    }
    Py_DECREF(f);
    return 0;
}

static int read_cards(PyObject *seq, uint8_t *out, int max, int *n, int *used) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of cards");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (c < 0 || c > 51 || used[c]) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a card must be 0..51 and appear once");
            return -1;
        }
        used[c] = 1;
        out[i] = (uint8_t)c;
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

static void free_s(S *s) {
    tt_free(s->tt, s->cap);
    free(s->path);
    free(s->mv);
    free(s->fr);
    free(s->gcard);
    free(s->gonto);
    free(s->ck);
}

static PyObject *search_with(PyObject *cols, PyObject *bouquet, PyObject *found, int greedy, int prune,
                             PyObject *mn, PyObject *ms, PyObject *mst, const char *stop, PyObject *low, int weight,
                             int blocked, long long store, PyObject *guide, PyObject *aside);

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *cols, *bouquet, *found, *mn, *ms, *mst, *stop = Py_None, *low = Py_None, *guide = Py_None;
    PyObject *aside = Py_None;
    int greedy, prune, weight = -1, blocked = -1;
    long long store = 0;
    if (!PyArg_ParseTuple(args, "OOOppOOO|OOiiLOO", &cols, &bouquet, &found, &greedy, &prune, &mn, &ms, &mst, &stop, &low,
                          &weight, &blocked, &store, &guide, &aside))
        return NULL;
    if (blocked < -1 || blocked > 1024) {
        PyErr_SetString(PyExc_ValueError, "blocked: -1 (the default weight), or 0..1024");
        return NULL;
    }
    if (store < 0 || store > BEST_FIRST_NODES) {
        PyErr_SetString(PyExc_ValueError, "store: 0 (the default) or a number of positions up to the default");
        return NULL;
    }
    Py_buffer stop_buf = {0};
    if (stop != Py_None) {
        if (PyObject_GetBuffer(stop, &stop_buf, PyBUF_SIMPLE)) return NULL;
        if (stop_buf.len < 1) {
            PyBuffer_Release(&stop_buf);
            PyErr_SetString(PyExc_ValueError, "stop must be a buffer of at least one byte");
            return NULL;
        }
    }
    PyObject *res = search_with(cols, bouquet, found, greedy, prune, mn, ms, mst,
                                stop_buf.buf ? (const char *)stop_buf.buf : NULL, low, weight, blocked, store, guide, aside);
    if (stop_buf.obj) PyBuffer_Release(&stop_buf);
    return res;
}

/* The guide: a line of (card, target) pairs as ``search`` returns them,
 * played on the starting layout to learn where each card went. It only
 * orders moves, so it is not checked for legality: it ends at the first
 * step whose card is not free to move or whose target is not a column or
 * its foundation. */
static int read_guide(S *s, PyObject *guide) {
    PyObject *g = PySequence_Fast(guide, "guide must be a sequence of (card, target) pairs");
    if (!g) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(g);
    s->gcard = malloc((size_t)n + 1);
    s->gonto = malloc((size_t)n + 1);
    if (!s->gcard || !s->gonto) {
        Py_DECREF(g);
        PyErr_NoMemory();
        return -1;
    }
    int64_t k = 0;
    for (; k < n; k++) {
        int c, t;
        PyObject *pair = PySequence_Fast_GET_ITEM(g, k);
        if (!PyTuple_Check(pair) || !PyArg_ParseTuple(pair, "ii", &c, &t)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "guide: (card, target) pairs");
            Py_DECREF(g);
            return -1;
        }
        if (c < 0 || c >= 52 || t < -1 || t >= NCOL) break;
        int src = -1;
        if (s->bq >> c & 1) src = BQ;
        for (int j = 0; j < NCOL; j++)
            if (s->len[j] && s->col[j][s->len[j] - 1] == c) src = j;
        if (src < 0 || src == t || (t < 0 && RANK[c] != s->found[SUIT[c]])) break;
        int target = t < 0 ? FOUND : t;
        s->gcard[k] = (uint8_t)c;
        s->gonto[k] = (uint8_t)(target == FOUND ? G_HOME : parent_of(s, target));
        if (step(s, c, src, target)) {
            Py_DECREF(g);
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_DECREF(g);
    undo_to(s, 0);
    s->glen = k;
    return 0;
}

static PyObject *search_with(PyObject *cols, PyObject *bouquet, PyObject *found, int greedy, int prune,
                             PyObject *mn, PyObject *ms, PyObject *mst, const char *stop, PyObject *low, int weight,
                             int blocked, long long store, PyObject *guide, PyObject *aside) {
    S *s = calloc(1, sizeof(S));
    if (!s) return PyErr_NoMemory();
    s->stop = stop;
    s->store = store;
    int used[52] = {0};
    s->greedy = greedy;
    s->prune = prune;
    if (opt_number(mn, &s->max_nodes) || opt_number(ms, &s->max_seconds) || opt_number(mst, &s->max_states))
        goto fail;
    PyObject *fc = PySequence_Fast(cols, "columns must be a sequence");
    if (!fc) goto fail;
    if (PySequence_Fast_GET_SIZE(fc) != NCOL) {
        Py_DECREF(fc);
        PyErr_SetString(PyExc_ValueError, "Flower Garden has six columns");
        goto fail;
    }
    for (int j = 0; j < NCOL; j++) {
        if (read_cards(PySequence_Fast_GET_ITEM(fc, j), s->col[j], 52, &s->len[j], used)) {
            Py_DECREF(fc);
            goto fail;
        }
    }
    Py_DECREF(fc);
    uint8_t bqc[52];
    int nb;
    if (read_cards(bouquet, bqc, 52, &nb, used)) goto fail;
    for (int i = 0; i < nb; i++) s->bq |= 1ULL << bqc[i];
    if (read_suits(found, "foundations", 0, "a foundation height is 0..13", s->found)) goto fail;
    for (int su = 0; su < 4; su++) s->home += s->found[su];
    for (int c = 0; c < 52; c++) {
        if (used[c] == (c % 13 < s->found[c / 13])) {
            PyErr_SetString(PyExc_ValueError, "cards and foundations disagree");
            goto fail;
        }
    }
    for (int j = 0; j < NCOL; j++) {
        int p = BASE;
        for (int i = 0; i < s->len[j]; i++) {
            hx(s, s->col[j][i], p);
            p = s->col[j][i];
        }
    }
    for (int c = 0; c < 52; c++)
        if (s->bq >> c & 1) hb(s, c);
    if (low != Py_None) {
        const char *range = "low: each above its foundation, or 13";
        if (read_suits(low, "low", 1, range, s->low)) goto fail;
        for (int su = 0; su < 4; su++) {
            if (s->low[su] <= s->found[su] && s->low[su] != 13) {
                PyErr_SetString(PyExc_ValueError, range);
                goto fail;
            }
        }
        if (greedy && weight <= 0) { /* its best-first runs only: no portfolio */
            PyErr_SetString(PyExc_ValueError, "the abstract game has no greedy mode but one best-first run");
            goto fail;
        }
        s->abstract = 1;
        for (int c = 0; c < 52; c++) {
            int high = c % 13 >= s->low[c / 13];
            s->code[c] = (uint8_t)(high ? 52 + c % 13 : c);
            if (high) s->hi |= 1ULL << c;
        }
        ak_init(s);
    }
    if (guide != Py_None && read_guide(s, guide)) goto fail;
    if (aside != Py_None) {
        double st, ex;
        int w;
        if (greedy || !PyTuple_Check(aside) || !PyArg_ParseTuple(aside, "did", &st, &w, &ex) || st < 1 || w < 1 || ex < 1) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError,
                            "aside: (states, depth weight, expansions), each at least 1, for the complete search only");
            goto fail;
        }
        s->aside_states = st;
        s->aside_weight = w;
        s->aside_nodes = ex;
    }
    clock_gettime(CLOCK_MONOTONIC, &s->t0);

    int r;
    S root = *s; /* the starting layout, for shortening a won line and for step_aside */
    s->start = &root;
    Py_BEGIN_ALLOW_THREADS
    if (!s->greedy) r = run(s);
    else if (weight < 0) r = run_greedy(s);
    else r = weight ? run_best_first(s, weight, blocked < 0 ? W_BLOCKED : blocked) : run(s); /* one run */
    if (r == R_WON && !s->abstract) shorten_line(s, &root);
    Py_END_ALLOW_THREADS

    if (r == R_OOM) {
        free_s(s);
        free(s);
        return PyErr_NoMemory();
    }
    PyObject *moves = PyList_New(0);
    if (!moves) goto fail;
    if (r == R_WON) {
        for (int64_t i = 0; i < s->plen; i++) {
            Step *st = &s->path[i];
            PyObject *t = Py_BuildValue("(ii)", st->card, st->target == FOUND ? -1 : st->target);
            if (!t || PyList_Append(moves, t)) {
                Py_XDECREF(t);
                Py_DECREF(moves);
                goto fail;
            }
            Py_DECREF(t);
        }
    }
    int status = r == R_WON ? 1 : r == R_LIMIT ? -1 : 0;
    PyObject *res = Py_BuildValue("(isLLN)", status, r == R_LIMIT || s->aside_won ? s->limit : NULL,
                                  (long long)s->nodes, (long long)s->states, moves);
    free_s(s);
    free(s);
    return res;
fail:
    free_s(s);
    free(s);
    return NULL;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(columns, bouquet, foundations, greedy, prune, max_nodes, max_seconds, max_states[, stop[, low[, weight[, blocked[, store[, guide[, aside]]]]]]]])"
     " -> (status, limit, nodes, states, moves)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_flower_c", "Flower Garden search core (see _flower_c.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__flower_c(void) {
    init_zobrist();
    return PyModule_Create(&module);
}
