/* Cruel search core in C: the same depth-first search as the pure Python
 * one in _cruel.py (which stays as the tests' reference), an order of
 * magnitude faster per node, with the GIL released while it runs.
 *
 *     search(piles, foundations, *, greedy=False, prune=True, max_nodes=None,
 *            max_seconds=None, max_states=None) -> (status, nodes, states, moves)
 *
 * piles: 12 sequences of card ints (suit * 13 + rank, rank 0 = ace), base to
 * top; foundations: 4 ints (cards home per suit). max_*: a number, or None
 * for no limit.
 * status: 1 won (moves = the line, a list of (card, target) with target -1
 * for a foundation, 0..11 a pile, -2 with card -1 for a redeal), 0 the
 * reachable space is exhausted (proof of unsolvability, unless greedy),
 * -1 nodes, -2 seconds, -3 states budget spent (never a verdict); when
 * malloc fails, MemoryError. Bad input raises ValueError or TypeError.
 * nodes counts stored states, as the Python search does (one tick each).
 *
 * State: the remaining cards as one sequence, pile 1 base .. pile 12 top
 * (exactly the order a redeal reads), plus the 12 pile lengths and the four
 * foundation heights: 65 bytes, copied into each frame of an explicit stack
 * (no recursion, no depth limit but memory).
 *
 * Transposition table: open addressing, linear probing, 16 bytes per slot
 * (a 128-bit key), at most 3/4 full, sized from the states budget: with
 * max_states = S it grows by doubling up to 2^ceil(log2(4S/3)) slots (at
 * most 2^26: 1 GB, 50 million states): 16 bytes / load, so between 21 bytes
 * per stored state (3/4 full, just before a doubling) and 43 (3/8 full, just
 * after). While it doubles, the old and the new table are both held (1.5 GB
 * at the last doubling); with the stack's cap of 256 MB (a frame is about
 * 150 bytes, the line is rarely deeper than a few hundred moves) a search
 * stays under 1.8 GB whatever the budget says. The key is a
 * Zobrist hash: two independent 64-bit tables Z[card][pile][depth] filled by
 * a fixed PRNG, XORed over the cards. Two distinct layouts differ in at least
 * one (card, pile, depth) feature, so for random tables their keys collide
 * with probability 2^-128 (minus one bit spent to mark used slots: 2^-127);
 * over a search storing N states the chance that any two ever merge is at
 * most N^2 / 2^128: 3e-24 for N = 40 million. A merge could only make the
 * search skip a layout (a solution would still be replayed by the engine,
 * but an UNSOLVABLE verdict would rest on it), so that is the bound on a
 * wrong UNSOLVABLE verdict per solve.
 *
 * Sound reductions (prune=1; prune=0 keys the exact layout and searches
 * exactly the tree of _cruel.py's PyCruelSearch):
 *
 * 1. Empty piles are keyed by their rank among the non-empty piles, not by
 *    their number. Two layouts whose non-empty piles are the same and in the
 *    same order (only the places of the empty piles differ) have the same
 *    reachable futures: a move depends only on the top cards (never on pile
 *    numbers), and maps the two layouts to two layouts again alike in this
 *    sense; an empty pile never receives a card; a redeal reads only the
 *    non-empty piles in order, so it gives the same exact layout from both.
 *    The one asymmetry: one of them may be grouped (4, 4, .., rest: redeal
 *    illegal) while the other is not; then the other's redeal gives exactly
 *    the grouped one, which is already the same class. So the classes
 *    reachable from either are the same, and the win is a property of the
 *    class (all cards home).
 * 2. Dead layouts are not searched (a dead root is UNSOLVABLE at once):
 *    the case of 3 where the first pile holds a card x at depth <= 2 under
 *    a higher card y of its suit that never leaves (a king, or its
 *    successor below it), for example 2S with KS on it. The code tests 3.
 * 3. Dead layouts, more generally: a frozen prefix. Let P be the first L
 *    cards of the sequence (positions 0..L-1; see PREFIX_MAX). Call a
 *    position of P "open" when its card is a top now (it ends its pile) or
 *    may be one later: after any redeal (position 3, 7, 11, ...), or when the
 *    cards above it leave (only position L-1 can be uncovered that way: the
 *    cards above any other position of P are cards of P). If every card y at
 *    an open position has (i) a lower card of its suit in P, (ii) no
 *    successor, or its successor in P at a position that is not open, and
 *    (iii) unless y is at L-1, its predecessor in P, then no card of P ever
 *    leaves, and the deal is lost. Why: suppose all of P still lies at
 *    positions 0..L-1, and look at the first event that changes that. Cards
 *    enter the sequence only onto a top, so one placed before position L-1
 *    lands on an open position p < L-1 and is y - 1 for the card y there,
 *    which lies in P (iii): that would be a card of P leaving. A card of P
 *    leaves only from a top (an open position): home needs every lower card
 *    of its suit home, but one is in P (i); onto its successor needs that
 *    card on top of another pile, but it is a king or its successor sits at
 *    a closed position of P (ii), covered by cards of P. A redeal keeps the
 *    order and removes nothing, and the cuts fall at the same positions.
 *    So no first event exists: P stays, and its cards never go home.
 *    Tested against the brute force.
 * No foundation move is forced: a card's presence shifts how every later
 * card is grouped at the next redeal, so sending it home is not provably
 * harmless (see _cruel.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#define NPILES 12
#define NCARDS 52
#define MAXSEQ 48
#define MAXMV 26
#define TGT_FOUND (-1)
#define TGT_REDEAL (-2)

typedef struct {
    uint8_t seq[MAXSEQ];
    uint8_t len[NPILES];
    uint8_t found[4];
    uint8_t left;
} State;

typedef struct {
    State st;
    int8_t card[MAXMV];
    int8_t tgt[MAXMV];
    int8_t src[MAXMV];
    uint8_t nmv, next;
} Frame;

static uint64_t Z1[NCARDS][NPILES][MAXSEQ];
static uint64_t Z2[NCARDS][NPILES][MAXSEQ];

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_zobrist(void) {
    uint64_t s = 0x5EED5EED12345ULL;
    for (int c = 0; c < NCARDS; c++)
        for (int p = 0; p < NPILES; p++)
            for (int d = 0; d < MAXSEQ; d++) Z1[c][p][d] = splitmix(&s);
    for (int c = 0; c < NCARDS; c++)
        for (int p = 0; p < NPILES; p++)
            for (int d = 0; d < MAXSEQ; d++) Z2[c][p][d] = splitmix(&s);
}

static void key_of(const State *st, int prune, uint64_t *a, uint64_t *b) {
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

typedef struct {
    uint64_t *slots; /* 2 per slot */
    uint64_t mask;
    uint64_t count;
} Table;

/* 1 when newly inserted, 0 when present */
static int table_insert(Table *t, uint64_t a, uint64_t b);

/* Double the table (rehash); 0 on success, -1 when out of memory. */
static int table_grow(Table *t) {
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

static int table_insert(Table *t, uint64_t a, uint64_t b) {
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

static int grouped(const State *st) {
    int left = st->left;
    for (int i = 0; i < NPILES; i++) {
        int want = left >= 4 ? 4 : left;
        if (st->len[i] != want) return 0;
        left -= want;
    }
    return 1;
}

/* Moves best first, as in _cruel.py: foundation moves (score 0), pile moves
 * (5), redeal (9); 3 off when the move uncovers a card its foundation needs.
 * Greedy (the incomplete first phase): only the best move when it is a
 * foundation move. */
static void gen_moves(Frame *f, int greedy) {
    const State *st = &f->st;
    int8_t top_pile[NCARDS];
    int tops[NPILES], topc[NPILES], below[NPILES], np = 0;
    int pos = 0;
    memset(top_pile, -1, sizeof top_pile);
    for (int i = 0; i < NPILES; i++) {
        int n = st->len[i];
        pos += n;
        if (n) {
            int c = st->seq[pos - 1];
            top_pile[c] = (int8_t)i;
            tops[np] = i;
            topc[np] = c;
            below[np] = n > 1 ? st->seq[pos - 2] : -1;
            np++;
        }
    }
    int score[MAXMV], card[MAXMV], tgt[MAXMV], src[MAXMV], n = 0;
    for (int k = 0; k < np; k++) {
        int i = tops[k], c = topc[k];
        int s = c / 13, r = c % 13;
        int bonus = 0;
        int bl = below[k];
        if (bl >= 0 && st->found[bl / 13] == bl % 13) bonus = 3;
        if (st->found[s] == r) {
            score[n] = 0 - bonus; card[n] = c; tgt[n] = TGT_FOUND; src[n] = i; n++;
        }
        if (r != 12 && top_pile[c + 1] >= 0) {
            score[n] = 5 - bonus; card[n] = c; tgt[n] = top_pile[c + 1]; src[n] = i; n++;
        }
    }
    if (!grouped(st)) {
        score[n] = 9; card[n] = -1; tgt[n] = TGT_REDEAL; src[n] = -1; n++;
    }
    /* insertion sort by (score, card, target): the order of _cruel.py's
     * out.sort() on (score, card, src, target) tuples, src following from
     * the card, so both searches walk the same tree */
    for (int i = 1; i < n; i++) {
        int sc = score[i], cd = card[i], tg = tgt[i], sr = src[i], j = i - 1;
        while (j >= 0 && (score[j] > sc || (score[j] == sc && (card[j] > cd ||
                                                               (card[j] == cd && tgt[j] > tg))))) {
            score[j + 1] = score[j]; card[j + 1] = card[j]; tgt[j + 1] = tgt[j];
            src[j + 1] = src[j]; j--;
        }
        score[j + 1] = sc; card[j + 1] = cd; tgt[j + 1] = tg; src[j + 1] = sr;
    }
    if (greedy && n > 0 && tgt[0] == TGT_FOUND) n = 1;
    for (int i = 0; i < n; i++) {
        f->card[i] = (int8_t)card[i];
        f->tgt[i] = (int8_t)tgt[i];
        f->src[i] = (int8_t)src[i];
    }
    f->nmv = (uint8_t)n;
    f->next = 0;
}

/* Reduction 3 (prune=1): a frozen prefix of the sequence; see the header.
 * Prefixes of up to lmax cards are tried: all of them at the root, up to
 * PREFIX_MAX at the other nodes (longer ones rarely add a proof and cost a
 * third of the speed). */
#define PREFIX_MAX 16
static int dead_prefix(const State *st, int lmax) {
    int n = st->left;
    if (n == 0) return 0;
    if (lmax > n) lmax = n;
    enum { FAR = 99 };
    /* only the first lmax places matter: a card farther is never in a
     * prefix tried, so its place is recorded as FAR */
    uint8_t open[MAXSEQ]; /* a top now (pile end) or after any redeal */
    int8_t where[NCARDS];
    memset(open, 0, (size_t)lmax);
    memset(where, FAR, sizeof where);
    int pos = 0;
    for (int i = 0; i < NPILES && pos < lmax; i++) {
        pos += st->len[i];
        if (st->len[i] && pos <= lmax) open[pos - 1] = 1;
    }
    for (int p = 3; p < lmax; p += 4) open[p] = 1;
    for (int p = 0; p < lmax; p++) where[st->seq[p]] = (int8_t)p;
    /* for each of the first lmax places: the nearest place holding a lower
     * card of its suit, its successor's place, its predecessor's place */
    int low[MAXSEQ], succ[MAXSEQ], pred[MAXSEQ];
    for (int p = 0; p < lmax; p++) {
        int y = st->seq[p], s = y / 13, r = y % 13, m = FAR;
        for (int rr = st->found[s]; rr < r; rr++) {
            int w = where[s * 13 + rr];
            if (w < m) m = w;
        }
        low[p] = m;
        succ[p] = r == 12 ? -1 : where[y + 1]; /* -1: a king, nothing to move onto */
        pred[p] = (r > st->found[s]) ? where[y - 1] : FAR;
        /* a place open whatever the prefix whose card fails (i), (ii) or
         * (iii) for every prefix tried (no lower card or no predecessor in
         * the first lmax places, or its successor at an open place): only
         * prefixes ending at p or before can still pass */
        if (open[p] && (m == FAR || pred[p] == FAR ||
                        (succ[p] >= 0 && succ[p] < lmax && open[succ[p]]))) {
            lmax = p + 1;
            break;
        }
    }
    for (int L = 1; L <= lmax; L++) {
        int ok = 1;
        for (int p = 0; p < L; p++) {
            int last = p == L - 1;
            if (!open[p] && !last) continue; /* never a top */
            /* (i) cannot go home: a lower card of its suit in the prefix */
            int fail = low[p] >= L;
            /* (ii) cannot move: a king, or its successor at a closed place
             * of the prefix */
            if (!fail && succ[p] >= 0)
                fail = succ[p] >= L || open[succ[p]] || succ[p] == L - 1;
            /* (iii) nothing can be put on it unless it ends the prefix: its
             * predecessor in the prefix */
            if (!fail && !last) fail = pred[p] >= L;
            if (fail) {
                ok = 0;
                break;
            }
        }
        if (ok) return 1;
    }
    return 0;
}

static void apply_move(State *st, int c, int src, int tgt) {
    if (tgt == TGT_REDEAL) {
        int left = st->left;
        for (int i = 0; i < NPILES; i++) {
            int n = left >= 4 ? 4 : left;
            st->len[i] = (uint8_t)n;
            left -= n;
        }
        return;
    }
    int end = 0;
    for (int j = 0; j <= src; j++) end += st->len[j];
    /* remove seq[end - 1], the top of pile src (the card c) */
    memmove(st->seq + end - 1, st->seq + end, st->left - end);
    st->len[src]--;
    if (tgt == TGT_FOUND) {
        st->found[c / 13]++;
        st->left--;
        return;
    }
    int dend = 0;
    for (int j = 0; j <= tgt; j++) dend += st->len[j];
    /* insert c at dend (in the sequence without c) */
    memmove(st->seq + dend + 1, st->seq + dend, (st->left - 1) - dend);
    st->seq[dend] = (uint8_t)c;
    st->len[tgt]++;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CLOCK_EVERY 4096
/* The table never exceeds 2^26 slots (1 GB, 50 million states). */
#define MAX_SLOTS ((uint64_t)1 << 26)
/* The explicit stack may take at most this many bytes (it grows by
 * doubling); deeper lines end the search as a states (memory) limit. */
#define MAX_STACK_BYTES ((size_t)256 << 20)

static int run_search(const State *root, int greedy, int prune, long long max_nodes,
                      double max_seconds, long long max_states, long long *nodes_out,
                      long long *states_out, int8_t **path_card, int8_t **path_tgt,
                      int *path_len) {
    *nodes_out = 0;
    *states_out = 0;
    *path_len = 0;
    *path_card = NULL;
    *path_tgt = NULL;
    if (root->left == 0) return 1;
    /* table: at most 3/4 full; it starts small and doubles as it fills, up
     * to the size the states budget needs (never above MAX_SLOTS) */
    uint64_t want = 1024;
    uint64_t cap_states = max_states >= 0 ? (uint64_t)max_states + 2 : MAX_SLOTS;
    while (want * 3 / 4 < cap_states && want < MAX_SLOTS) want <<= 1;
    uint64_t hard_states = want * 3 / 4;
    uint64_t first = want < ((uint64_t)1 << 16) ? want : ((uint64_t)1 << 16);
    Table t;
    t.mask = first - 1;
    t.count = 0;
    t.slots = calloc(first * 2, sizeof(uint64_t));
    if (!t.slots) return -4;
    size_t cap = 1024;
    Frame *stack = malloc(cap * sizeof(Frame));
    if (!stack) {
        free(t.slots);
        return -4;
    }
    double deadline = max_seconds >= 0 ? now_s() + max_seconds : 0;
    long long nodes = 0;
    long long next_clock = CLOCK_EVERY;
    int status = 0;
    size_t sp = 0;
    uint64_t a, b;

    if (prune && (dead_prefix(root, MAXSEQ))) goto done; /* status 0, nodes 0 */
    key_of(root, prune, &a, &b);
    table_insert(&t, a, b);
    nodes = 1;
    if (max_nodes >= 0 && nodes > max_nodes) { status = -1; goto done; }
    if (max_states >= 0 && (long long)t.count > max_states) { status = -3; goto done; }
    stack[0].st = *root;
    gen_moves(&stack[0], greedy);
    sp = 1;
    while (sp > 0) {
        Frame *f = &stack[sp - 1];
        if (f->next >= f->nmv) {
            sp--;
            continue;
        }
        int c = f->card[f->next], tg = f->tgt[f->next], sr = f->src[f->next];
        f->next++;
        if (sp == cap) {
            if ((cap * 2) * sizeof(Frame) > MAX_STACK_BYTES) { status = -3; goto done; }
            Frame *ns = realloc(stack, cap * 2 * sizeof(Frame));
            if (!ns) { status = -3; goto done; }
            stack = ns;
            cap *= 2;
            f = &stack[sp - 1];
        }
        Frame *g = &stack[sp];
        g->st = f->st;
        apply_move(&g->st, c, sr, tg);
        if (g->st.left == 0) {
            status = 1;
            sp++;
            break;
        }
        if (prune && (dead_prefix(&g->st, PREFIX_MAX))) continue;
        key_of(&g->st, prune, &a, &b);
        if (!table_insert(&t, a, b)) continue;
        nodes++;
        if (max_nodes >= 0 && nodes > max_nodes) { status = -1; goto done; }
        if (max_states >= 0 && (long long)t.count > max_states) { status = -3; goto done; }
        if (t.count >= hard_states) { status = -3; goto done; }
        if (t.count >= (t.mask + 1) / 4 * 3 && table_grow(&t) < 0) { status = -3; goto done; }
        if (nodes >= next_clock) {
            next_clock = nodes + CLOCK_EVERY;
            if (max_seconds >= 0 && now_s() > deadline) { status = -2; goto done; }
        }
        gen_moves(g, greedy);
        sp++;
    }
    if (status == 1) {
        /* frames 0 .. sp-2 each hold the move taken from them */
        int n = (int)sp - 1;
        *path_card = malloc(n > 0 ? n : 1);
        *path_tgt = malloc(n > 0 ? n : 1);
        if (!*path_card || !*path_tgt) {
            free(*path_card);
            free(*path_tgt);
            *path_card = *path_tgt = NULL;
            status = -4;
            goto done;
        }
        for (int i = 0; i < n; i++) {
            (*path_card)[i] = stack[i].card[stack[i].next - 1];
            (*path_tgt)[i] = stack[i].tgt[stack[i].next - 1];
        }
        *path_len = n;
    }
done:
    *nodes_out = nodes;
    *states_out = (long long)t.count;
    free(stack);
    free(t.slots);
    return status;
}

static int parse_state(PyObject *piles, PyObject *found, State *st) {
    memset(st, 0, sizeof *st);
    PyObject *seq = PySequence_Fast(piles, "piles must be a sequence of 12 piles");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NPILES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "piles must be 12 piles");
        return -1;
    }
    int seen[NCARDS] = {0};
    int pos = 0;
    for (int i = 0; i < NPILES; i++) {
        PyObject *p = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "a pile must be a sequence of cards");
        if (!p) {
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(p);
        for (Py_ssize_t k = 0; k < n; k++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(p, k));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(p);
                Py_DECREF(seq);
                return -1;
            }
            if (c < 0 || c >= NCARDS || seen[c] || pos >= MAXSEQ) {
                Py_DECREF(p);
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "bad card, repeated card or too many cards");
                return -1;
            }
            seen[c] = 1;
            st->seq[pos++] = (uint8_t)c;
        }
        st->len[i] = (uint8_t)n;
        Py_DECREF(p);
    }
    Py_DECREF(seq);
    st->left = (uint8_t)pos;
    PyObject *f = PySequence_Fast(found, "foundations must be a sequence of 4 ints");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != 4) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "foundations must be 4 ints");
        return -1;
    }
    for (int s = 0; s < 4; s++) {
        long h = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, s));
        if (h == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        if (h < 1 || h > 13) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "a foundation height must be 1..13 (aces start home)");
            return -1;
        }
        /* the piles must hold exactly ranks h..12 of the suit */
        for (int r = 0; r < 13; r++) {
            if (seen[s * 13 + r] != (r >= h)) {
                Py_DECREF(f);
                PyErr_SetString(PyExc_ValueError, "the foundations do not match the cards in the piles");
                return -1;
            }
        }
        st->found[s] = (uint8_t)h;
    }
    Py_DECREF(f);
    return 0;
}

/* A budget: None (no limit, -1 inside) or a number, at least 0. */
static int budget_arg(PyObject *o, double *out) {
    if (o == Py_None) {
        *out = -1;
        return 0;
    }
    double v = PyFloat_AsDouble(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v < 0 ? 0 : v;
    return 0;
}

static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"piles", "foundations", "greedy", "prune", "max_nodes",
                             "max_seconds", "max_states", NULL};
    PyObject *piles, *found, *nodes_arg = Py_None, *seconds_arg = Py_None, *states_arg = Py_None;
    int greedy = 0, prune = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$ppOOO", kwlist, &piles, &found, &greedy,
                                     &prune, &nodes_arg, &seconds_arg, &states_arg))
        return NULL;
    double nodes_budget, max_seconds, states_budget;
    if (budget_arg(nodes_arg, &nodes_budget) || budget_arg(seconds_arg, &max_seconds) ||
        budget_arg(states_arg, &states_budget))
        return NULL;
    long long max_nodes = (long long)nodes_budget, max_states = (long long)states_budget;
    State root;
    if (parse_state(piles, found, &root) < 0) return NULL;
    long long nodes, states;
    int8_t *pc = NULL, *pt = NULL;
    int plen = 0, status;
    Py_BEGIN_ALLOW_THREADS
    status = run_search(&root, greedy, prune, max_nodes, max_seconds, max_states, &nodes,
                        &states, &pc, &pt, &plen);
    Py_END_ALLOW_THREADS
    if (status == -4) {
        free(pc);
        free(pt);
        return PyErr_NoMemory();
    }
    PyObject *moves = PyList_New(plen);
    if (!moves) {
        free(pc);
        free(pt);
        return NULL;
    }
    for (int i = 0; i < plen; i++) {
        PyObject *m = Py_BuildValue("(ii)", (int)pc[i], (int)pt[i]);
        if (!m) {
            Py_DECREF(moves);
            free(pc);
            free(pt);
            return NULL;
        }
        PyList_SET_ITEM(moves, i, m);
    }
    free(pc);
    free(pt);
    return Py_BuildValue("(iLLN)", status, nodes, states, moves);
}

static PyObject *py_dead(PyObject *self, PyObject *args) {
    PyObject *piles, *found;
    if (!PyArg_ParseTuple(args, "OO", &piles, &found)) return NULL;
    State st;
    if (parse_state(piles, found, &st) < 0) return NULL;
    return PyBool_FromLong(dead_prefix(&st, MAXSEQ));
}

static PyMethodDef methods[] = {
    {"dead", py_dead, METH_VARARGS,
     "dead(piles, foundations) -> True when the dead-layout test (reduction 2) proves the layout lost"},
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(piles, foundations, *, greedy=False, prune=True, max_nodes=None, max_seconds=None,"
     " max_states=None) -> (status, nodes, states, moves)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_cruel_c",
                                    "Cruel search core in C (see _cruel.py).", -1, methods};

PyMODINIT_FUNC PyInit__cruel_c(void) {
    init_zobrist();
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    PyModule_AddIntConstant(m, "BYTES_PER_SLOT", 16);
    PyModule_AddIntConstant(m, "FRAME_BYTES", (int)sizeof(Frame));
    return m;
}
