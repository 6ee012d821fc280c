/* The stalled check in C: can any card still reach a foundation?
 *
 *     stalled(game, piles, bouquet, foundations, max_states) -> (status, states)
 *
 * game: "cruel" or "flower"; piles: the 12 piles or 6 columns, each a
 * sequence of card ints (suit * 13 + rank, rank 0 = ace), base to top;
 * bouquet: Flower Garden's bouquet (empty for Cruel); foundations: 4 ints.
 * status: 1 stalled (every layout reachable without a foundation move was
 * seen, and none offers one), 0 not stalled (one that offers a foundation
 * move was found, or the position is won), -1 the states budget ran out
 * (not proven either way). states: how many layouts were stored.
 *
 * The space searched is the one of _stall.py's reference: every layout
 * reachable by moves that are not to a foundation (Cruel: onto the same suit
 * one rank higher, and redeals; Flower Garden: onto one rank higher or into
 * an empty column, never a column's only card into an empty column). Since
 * no card goes home, the foundations stay fixed, and so do the cards each
 * suit needs next. A needed card in the bouquet is available at once; one in
 * a pile becomes available exactly when the card above it leaves, so the
 * search stops at the first child whose source pile then shows a needed
 * card (or, after a Cruel redeal, at the first needed top).
 *
 * Order: best first on the fewest cards above a needed card, newest first on
 * ties (depth-first along the best line). A position that is not stalled is
 * usually decided in a few dozen states; a stalled one needs the whole space.
 *
 * States are kept whole and canonical (Flower Garden: columns sorted, as they
 * are interchangeable; Cruel: empty piles dropped, since moves look only at
 * tops and a redeal reads the non-empty piles in order: the argument of
 * reduction 1 in cruel_c/cruel.h), 80 bytes each, and the seen set compares
 * them byte for byte: no hash collision can merge two layouts, so "stalled"
 * is exact. Memory: about 100 bytes per stored state (state, table slot, heap
 * entry), so the default budget of 200,000 states is about 20 MB. The GIL is
 * released while the search runs.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 12

typedef struct {
    uint64_t bouquet; /* bit c set: card c is in the bouquet */
    uint8_t np;       /* piles kept (Cruel: non-empty ones; Flower: 6) */
    uint8_t len[MAXP];
    uint8_t seq[52];  /* pile 0 base .. top, pile 1 ..., zero after the last card */
    uint8_t pad[3];
} State;

typedef struct {
    int flower;
    uint64_t needed; /* bit c: card c is the next its foundation takes */
    State *states;
    size_t nstates, cap;
    uint32_t *table; /* index + 1, 0 = empty */
    size_t tmask;
    uint64_t *heap; /* (h << 32) | (0xffffffff - index): fewest first, newest first */
    size_t nheap, heapcap;
    long long max_states;
} Search;

/* Working form: piles as separate arrays. */
typedef struct {
    int np;
    int len[MAXP];
    uint8_t c[MAXP][52];
    uint64_t bouquet;
} Work;

static void unpack(const State *s, Work *w) {
    int k = 0;
    w->np = s->np;
    for (int i = 0; i < s->np; i++) {
        w->len[i] = s->len[i];
        memcpy(w->c[i], s->seq + k, s->len[i]);
        k += s->len[i];
    }
    w->bouquet = s->bouquet;
}

static int cmp_pile(const Work *w, int a, int b) {
    if (w->len[a] != w->len[b]) return w->len[a] < w->len[b] ? -1 : 1;
    return memcmp(w->c[a], w->c[b], (size_t)w->len[a]);
}

/* Canonical packed state of a working layout. */
static void pack(const Work *w, int flower, State *s) {
    int order[MAXP], n = 0;
    for (int i = 0; i < w->np; i++)
        if (flower || w->len[i] > 0) order[n++] = i;
    if (flower) { /* insertion sort of the 6 columns */
        for (int i = 1; i < n; i++) {
            int x = order[i], j = i - 1;
            while (j >= 0 && cmp_pile(w, order[j], x) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    }
    memset(s, 0, sizeof *s);
    s->bouquet = w->bouquet;
    s->np = (uint8_t)n;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int p = order[i];
        s->len[i] = (uint8_t)w->len[p];
        memcpy(s->seq + k, w->c[p], (size_t)w->len[p]);
        k += w->len[p];
    }
}

static uint64_t hash_state(const State *s) {
    const uint64_t *q = (const uint64_t *)s;
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < sizeof(State) / 8; i++) {
        h ^= q[i];
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    return h;
}

/* Cards above the shallowest needed card (large when none is in a pile). */
static uint32_t distance(const Search *x, const State *s) {
    uint32_t best = 1000;
    int k = 0;
    for (int i = 0; i < s->np; i++) {
        for (int d = 0; d < s->len[i]; d++)
            if ((x->needed >> s->seq[k + d]) & 1) {
                uint32_t above = (uint32_t)(s->len[i] - 1 - d);
                if (above < best) best = above;
            }
        k += s->len[i];
    }
    int empty = 0;
    for (int i = 0; i < s->np; i++) empty += s->len[i] == 0;
    return best * 8 + (uint32_t)(7 - empty);
}

static int heap_push(Search *x, uint64_t v) {
    if (x->nheap == x->heapcap) {
        size_t cap = x->heapcap ? x->heapcap * 2 : 1024;
        uint64_t *h = realloc(x->heap, cap * sizeof *h);
        if (!h) return -1;
        x->heap = h;
        x->heapcap = cap;
    }
    size_t i = x->nheap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (x->heap[p] <= v) break;
        x->heap[i] = x->heap[p];
        i = p;
    }
    x->heap[i] = v;
    return 0;
}

static uint64_t heap_pop(Search *x) {
    uint64_t top = x->heap[0], v = x->heap[--x->nheap];
    size_t i = 0, n = x->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && x->heap[c + 1] < x->heap[c]) c++;
        if (v <= x->heap[c]) break;
        x->heap[i] = x->heap[c];
        i = c;
    }
    if (n) x->heap[i] = v;
    return top;
}

static int table_grow(Search *x) {
    size_t size = x->table ? (x->tmask + 1) * 2 : 4096;
    uint32_t *t = calloc(size, sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < x->nstates; i++) {
        size_t j = hash_state(&x->states[i]) & (size - 1);
        while (t[j]) j = (j + 1) & (size - 1);
        t[j] = (uint32_t)(i + 1);
    }
    free(x->table);
    x->table = t;
    x->tmask = size - 1;
    return 0;
}

/* Store a new state and queue it: 1 stored, 0 seen before, -1 out of memory,
 * -2 budget spent. */
static int add(Search *x, const State *s) {
    if ((x->nstates + 1) * 4 > (x->tmask + 1) * 3 && table_grow(x) < 0) return -1;
    size_t j = hash_state(s) & x->tmask;
    while (x->table[j]) {
        if (!memcmp(&x->states[x->table[j] - 1], s, sizeof *s)) return 0;
        j = (j + 1) & x->tmask;
    }
    if (x->max_states >= 0 && (long long)x->nstates >= x->max_states) return -2;
    if (x->nstates == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 1024;
        State *st = realloc(x->states, cap * sizeof *st);
        if (!st) return -1;
        x->states = st;
        x->cap = cap;
    }
    size_t idx = x->nstates++;
    x->states[idx] = *s;
    x->table[j] = (uint32_t)(idx + 1);
    uint64_t h = distance(x, s);
    if (heap_push(x, (h << 32) | (0xffffffffULL - idx)) < 0) return -1;
    return 1;
}

/* Cruel: the layout is in groups of 4 (a redeal would change nothing). */
static int grouped(const Work *w) {
    int left = 0;
    for (int i = 0; i < w->np; i++) left += w->len[i];
    for (int i = 0; i < w->np; i++) {
        int want = left >= 4 ? 4 : left;
        if (w->len[i] != want) return 0;
        left -= want;
    }
    return left == 0;
}

/* Move the top of pile src onto pile dst (or, for the bouquet, card c) in a
 * copy of w, and offer the child: 2 when it shows a needed card (not
 * stalled), else add()'s answer. */
static int child_move(Search *x, const Work *w, int src, int card, int dst) {
    Work v = *w;
    if (src >= 0) {
        v.len[src]--;
    } else {
        v.bouquet &= ~(1ULL << card);
    }
    v.c[dst][v.len[dst]++] = (uint8_t)card;
    if (src >= 0 && v.len[src] > 0 && ((x->needed >> v.c[src][v.len[src] - 1]) & 1)) return 2;
    State s;
    pack(&v, x->flower, &s);
    return add(x, &s);
}

static int child_redeal(Search *x, const Work *w) {
    Work v;
    uint8_t all[52];
    int n = 0;
    for (int i = 0; i < w->np; i++)
        for (int d = 0; d < w->len[i]; d++) all[n++] = w->c[i][d];
    v.np = (n + 3) / 4;
    v.bouquet = 0;
    for (int i = 0; i < v.np; i++) {
        int k = n - 4 * i < 4 ? n - 4 * i : 4;
        v.len[i] = k;
        memcpy(v.c[i], all + 4 * i, (size_t)k);
        if ((x->needed >> v.c[i][k - 1]) & 1) return 2;
    }
    State s;
    pack(&v, 0, &s);
    return add(x, &s);
}

/* Expand one state: 2 a needed card shows, -1 out of memory, -2 budget, else 0. */
static int expand(Search *x, const State *s) {
    Work w;
    unpack(s, &w);
    int r;
    if (x->flower) {
        int first_empty = -1;
        for (int i = 0; i < w.np; i++)
            if (w.len[i] == 0) {
                first_empty = i;
                break;
            }
        /* Available cards: column tops, then the bouquet. */
        for (int src = 0; src < w.np; src++) {
            if (!w.len[src]) continue;
            int card = w.c[src][w.len[src] - 1], rank = card % 13;
            for (int dst = 0; dst < w.np; dst++) {
                if (dst == src || !w.len[dst] || w.c[dst][w.len[dst] - 1] % 13 != rank + 1) continue;
                if ((r = child_move(x, &w, src, card, dst)) == 2 || r < 0) return r;
            }
            /* Into an empty column (all are alike): useful only off a longer column. */
            if (first_empty >= 0 && w.len[src] > 1)
                if ((r = child_move(x, &w, src, card, first_empty)) == 2 || r < 0) return r;
        }
        for (int card = 0; card < 52; card++) {
            if (!((w.bouquet >> card) & 1)) continue;
            int rank = card % 13;
            for (int dst = 0; dst < w.np; dst++) {
                if (!w.len[dst] || w.c[dst][w.len[dst] - 1] % 13 != rank + 1) continue;
                if ((r = child_move(x, &w, -1, card, dst)) == 2 || r < 0) return r;
            }
            if (first_empty >= 0)
                if ((r = child_move(x, &w, -1, card, first_empty)) == 2 || r < 0) return r;
        }
    } else {
        int top_pile[52];
        for (int c = 0; c < 52; c++) top_pile[c] = -1;
        for (int i = 0; i < w.np; i++)
            if (w.len[i]) top_pile[w.c[i][w.len[i] - 1]] = i;
        for (int src = 0; src < w.np; src++) {
            if (!w.len[src]) continue;
            int card = w.c[src][w.len[src] - 1];
            if (card % 13 == 12 || top_pile[card + 1] < 0) continue;
            if ((r = child_move(x, &w, src, card, top_pile[card + 1])) == 2 || r < 0) return r;
        }
        if (!grouped(&w))
            if ((r = child_redeal(x, &w)) == 2 || r < 0) return r;
    }
    return 0;
}

static int run(Search *x, const Work *root) {
    /* Needed cards already available: a pile top, or anywhere in the bouquet. */
    if (root->bouquet & x->needed) return 0;
    for (int i = 0; i < root->np; i++)
        if (root->len[i] && ((x->needed >> root->c[i][root->len[i] - 1]) & 1)) return 0;
    State s;
    pack(root, x->flower, &s);
    int r = add(x, &s);
    if (r < 0) return r == -2 ? -1 : -4;
    while (x->nheap) {
        uint64_t v = heap_pop(x);
        size_t idx = 0xffffffffULL - (v & 0xffffffffULL);
        State cur = x->states[idx];
        r = expand(x, &cur);
        if (r == 2) return 0;
        if (r == -2) return -1;
        if (r == -1) return -4;
    }
    return 1;
}

static int read_cards(PyObject *seq, uint8_t *out, int max, int *n, uint64_t *seen) {
    PyObject *f = PySequence_Fast(seq, "cards must be a sequence of ints");
    if (!f) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (len > max) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        if (c < 0 || c > 51 || ((*seen >> c) & 1)) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "cards must be distinct ints 0..51");
            return -1;
        }
        *seen |= 1ULL << c;
        out[i] = (uint8_t)c;
    }
    *n = (int)len;
    Py_DECREF(f);
    return 0;
}

static PyObject *py_stalled(PyObject *self, PyObject *args) {
    const char *game;
    PyObject *piles, *bouquet, *found;
    long long max_states = -1;
    if (!PyArg_ParseTuple(args, "sOOO|L", &game, &piles, &bouquet, &found, &max_states))
        return NULL;
    int flower = !strcmp(game, "flower");
    if (!flower && strcmp(game, "cruel")) {
        PyErr_SetString(PyExc_ValueError, "game must be 'cruel' or 'flower'");
        return NULL;
    }
    Work w;
    memset(&w, 0, sizeof w);
    uint64_t seen = 0;
    PyObject *p = PySequence_Fast(piles, "piles must be a sequence");
    if (!p) return NULL;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(p);
    if (np != (flower ? 6 : 12)) {
        Py_DECREF(p);
        PyErr_SetString(PyExc_ValueError, flower ? "expected 6 columns" : "expected 12 piles");
        return NULL;
    }
    w.np = (int)np;
    for (int i = 0; i < w.np; i++)
        if (read_cards(PySequence_Fast_GET_ITEM(p, i), w.c[i], 52, &w.len[i], &seen) < 0) {
            Py_DECREF(p);
            return NULL;
        }
    Py_DECREF(p);
    uint8_t bq[52];
    int nb = 0;
    if (read_cards(bouquet, bq, flower ? 16 : 0, &nb, &seen) < 0) return NULL;
    for (int i = 0; i < nb; i++) w.bouquet |= 1ULL << bq[i];
    int f[4];
    if (!PyArg_ParseTuple(found, "iiii", &f[0], &f[1], &f[2], &f[3])) return NULL;
    Search x;
    memset(&x, 0, sizeof x);
    x.flower = flower;
    x.max_states = max_states;
    for (int s = 0; s < 4; s++) {
        if (f[s] < 0 || f[s] > 13) {
            PyErr_SetString(PyExc_ValueError, "foundations must be 0..13");
            return NULL;
        }
        if (f[s] < 13) x.needed |= 1ULL << (s * 13 + f[s]);
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = seen ? run(&x, &w) : 0; /* no card left: won */
    Py_END_ALLOW_THREADS
    long long states = (long long)x.nstates;
    free(x.states);
    free(x.table);
    free(x.heap);
    if (status == -4) return PyErr_NoMemory();
    return Py_BuildValue("(iL)", status, states);
}

static PyMethodDef methods[] = {
    {"stalled", py_stalled, METH_VARARGS,
     "stalled(game, piles, bouquet, foundations, max_states=-1) -> (status, states):"
     " 1 stalled, 0 not, -1 budget spent"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_stall_c",
                                    "The stalled check in C (see _stall.py).", -1, methods};

PyMODINIT_FUNC PyInit__stall_c(void) { return PyModule_Create(&moddef); }
