/* Flower Garden core: the Python module, which only converts between
 * Python and C (the searches and the stalled check are in flower_c/, their
 * parts listed in flower_c/flower.h).
 *
 * search(columns, bouquet, foundations, *, run, prune=True, max_nodes=None,
 *        max_seconds=None, max_states=None, stop=None, low=None,
 *        depth_weight=0, blocked_weight=0, store=6000000, guide=None,
 *        aside=None, portfolio=())
 * -> (status, limit, nodes, states, moves)
 *
 * ``run`` names the search: "complete" (the depth-first search whose
 * failure is a proof), "ordered" (the depth-first search, each node's
 * moves ordered by the evaluation of the child), "best-first" (one run of
 * depth weight ``depth_weight`` and blocked-card weight ``blocked_weight``,
 * holding at most ``store`` positions) or "portfolio" (the runs of
 * ``portfolio``, objects with the fields of the solver's PortfolioRun).
 * Only the complete search's failure proves anything.
 * status 1 won (``moves``: (card, target) pairs, target a column index or
 * -1 for the foundation), 0 lost (the complete search exhausted the space
 * under the pruning rules; any other search gave up), -1 a budget ran out
 * (``limit``: "nodes", "seconds", "states", or "stopped" when another
 * thread set the first byte of ``stop``, a writable buffer). Budgets are
 * numbers or None. ``low`` (a bound per suit) plays the abstract game
 * (rule 6): status 0 then means its goal is out of reach. ``guide``, an
 * earlier line as ``moves`` returns it, is followed first by the complete
 * search (a move order only). ``aside`` (an object with the fields of the
 * solver's StepAside) is the complete search's step aside for one
 * best-first run; a win by it says ``limit`` "aside". In a best-first run
 * the states budget counts the positions held, and ``states`` returns
 * those ever stored. The search runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "flower_c/table.h"

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

/* The guide: a line of (card, target) pairs as ``search`` returns them,
 * played on the starting layout to learn where each card went. It only
 * orders moves, so it is not checked for legality: it ends at the first
 * step whose card is not free to move or whose target is not a column or
 * its foundation. */
static int read_guide(Search *s, PyObject *guide) {
    PyObject *g = PySequence_Fast(guide, "guide must be a sequence of (card, target) pairs");
    if (!g) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(g);
    s->guide.card = malloc((size_t)n + 1);
    s->guide.onto = malloc((size_t)n + 1);
    if (!s->guide.card || !s->guide.onto) {
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
        if (s->pos.bouquet >> c & 1) src = BQ;
        for (int j = 0; j < NCOL; j++)
            if (s->pos.len[j] && s->pos.col[j][s->pos.len[j] - 1] == c) src = j;
        if (src < 0 || src == t || (t < 0 && RANK[c] != s->pos.found[SUIT[c]])) break;
        int target = t < 0 ? FOUND : t;
        s->guide.card[k] = (uint8_t)c;
        s->guide.onto[k] = (uint8_t)(target == FOUND ? G_HOME : parent_of(s, target));
        if (step(s, c, src, target)) {
            Py_DECREF(g);
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_DECREF(g);
    undo_to(s, 0);
    s->guide.len = k;
    return 0;
}

/* The starting layout: six columns, the bouquet, four foundation heights. */
static int read_layout(Search *s, PyObject *cols, PyObject *bouquet, PyObject *found) {
    int used[52] = {0};
    PyObject *fc = PySequence_Fast(cols, "columns must be a sequence");
    if (!fc) return -1;
    if (PySequence_Fast_GET_SIZE(fc) != NCOL) {
        Py_DECREF(fc);
        PyErr_SetString(PyExc_ValueError, "Flower Garden has six columns");
        return -1;
    }
    for (int j = 0; j < NCOL; j++) {
        if (read_cards(PySequence_Fast_GET_ITEM(fc, j), s->pos.col[j], 52, &s->pos.len[j], used)) {
            Py_DECREF(fc);
            return -1;
        }
    }
    Py_DECREF(fc);
    uint8_t bqc[52];
    int nb;
    if (read_cards(bouquet, bqc, 52, &nb, used)) return -1;
    for (int i = 0; i < nb; i++) s->pos.bouquet |= 1ULL << bqc[i];
    if (read_suits(found, "foundations", 0, "a foundation height is 0..13", s->pos.found)) return -1;
    for (int su = 0; su < 4; su++) s->pos.home += s->pos.found[su];
    for (int c = 0; c < 52; c++) {
        if (used[c] == (c % 13 < s->pos.found[c / 13])) {
            PyErr_SetString(PyExc_ValueError, "cards and foundations disagree");
            return -1;
        }
    }
    for (int j = 0; j < NCOL; j++) {
        int p = BASE;
        for (int i = 0; i < s->pos.len[j]; i++) {
            hx(s, s->pos.col[j][i], p);
            p = s->pos.col[j][i];
        }
    }
    for (int c = 0; c < 52; c++)
        if (s->pos.bouquet >> c & 1) hb(s, c);
    return 0;
}

/* (status, limit, nodes, states, moves) of a search that ended with ``r``. */
static PyObject *result(Search *s, int r) {
    if (r == R_OOM) return PyErr_NoMemory();
    PyObject *moves = PyList_New(0);
    if (!moves) return NULL;
    if (r == R_WON) {
        for (int64_t i = 0; i < s->path_len; i++) {
            Step *st = &s->path[i];
            PyObject *t = Py_BuildValue("(ii)", st->card, st->target == FOUND ? -1 : st->target);
            if (!t || PyList_Append(moves, t)) {
                Py_XDECREF(t);
                Py_DECREF(moves);
                return NULL;
            }
            Py_DECREF(t);
        }
    }
    int status = r == R_WON ? 1 : r == R_LIMIT ? -1 : 0;
    return Py_BuildValue("(isLLN)", status, r == R_LIMIT || s->aside.won ? s->limit : NULL, (long long)s->nodes,
                         (long long)s->states, moves);
}

/* An attribute of ``o`` as a number (``optional``: None gives 0). */
static int attr_number(PyObject *o, const char *name, int optional, double *out) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v) return -1;
    if (optional && v == Py_None) {
        *out = 0;
    } else {
        *out = PyFloat_AsDouble(v);
        if (*out == -1 && PyErr_Occurred()) { Py_DECREF(v); return -1; }
    }
    Py_DECREF(v);
    return 0;
}

/* An attribute of ``o`` that is None or one of ``names``: its place in
 * ``names`` plus one, 0 for None; -1 with the error set. */
static int attr_choice(PyObject *o, const char *name, const char *const *names, int n, int optional) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v) return -1;
    int r = -1;
    if (optional && v == Py_None) r = 0;
    else if (PyUnicode_Check(v))
        for (int i = 0; i < n; i++)
            if (PyUnicode_CompareWithASCIIString(v, names[i]) == 0) r = i + 1;
    if (r < 0) PyErr_Format(PyExc_ValueError, "%s: not one the core knows", name);
    Py_DECREF(v);
    return r;
}

static int read_aside(Search *s, PyObject *aside) {
    double states, weight, blocked, expansions;
    if (attr_number(aside, "states", 0, &states) || attr_number(aside, "depth_weight", 0, &weight) ||
        attr_number(aside, "blocked_weight", 0, &blocked) || attr_number(aside, "expansions", 0, &expansions))
        return -1;
    if (states < 1 || weight < 1 || expansions < 1 || blocked < 0 || blocked > 1024) {
        PyErr_SetString(PyExc_ValueError, "aside: states, depth weight and expansions at least 1, blocked weight 0..1024");
        return -1;
    }
    s->aside.states = states;
    s->aside.depth_weight = (int)weight;
    s->aside.blocked_weight = (int)blocked;
    s->aside.expansions = expansions;
    return 0;
}

static int read_portfolio(Search *s, PyObject *portfolio) {
    static const char *const kinds[] = {"ordered", "best-first"};
    static const char *const pauses[] = {"keep", "resume"};
    PyObject *f = PySequence_Fast(portfolio, "portfolio must be a sequence of runs");
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n < 1 || n > MAX_PORTFOLIO) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "portfolio: 1 to %d runs", MAX_PORTFOLIO);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(f, i);
        PortfolioRun *p = &s->portfolio[i];
        double weight, blocked;
        int kind = attr_choice(o, "kind", kinds, 2, 0), pause = kind < 0 ? -1 : attr_choice(o, "pause", pauses, 2, 1);
        if (pause < 0 || attr_number(o, "depth_weight", 0, &weight) || attr_number(o, "blocked_weight", 0, &blocked) ||
            attr_number(o, "share", 0, &p->share) || attr_number(o, "expansions", 1, &p->expansions)) {
            Py_DECREF(f);
            return -1;
        }
        p->best_first = kind == 2;
        p->depth_weight = (int)weight;
        p->blocked_weight = (int)blocked;
        p->pause = pause == 1 ? PAUSE_KEEP : pause == 2 ? PAUSE_RESUME : PAUSE_NONE;
        if (p->share < 0 || p->expansions < 0 || blocked < 0 || blocked > 1024 || (p->best_first && weight < 1)) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "portfolio: shares, expansions and weights out of range");
            return -1;
        }
    }
    s->portfolio_len = (int)n;
    Py_DECREF(f);
    return 0;
}

static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"columns", "bouquet", "foundations", "run", "prune", "max_nodes", "max_seconds",
                             "max_states", "stop", "low", "depth_weight", "blocked_weight", "store", "guide",
                             "aside", "portfolio", NULL};
    static const char *const runs[] = {"complete", "ordered", "best-first", "portfolio"};
    PyObject *cols, *bouquet, *found, *run_name = NULL, *mn = Py_None, *ms = Py_None, *mst = Py_None, *stop = Py_None;
    PyObject *low = Py_None, *guide = Py_None, *aside = Py_None, *portfolio = Py_None;
    int prune = 1, depth_weight = 0, blocked_weight = 0;
    long long store = BEST_FIRST_NODES;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$UpOOOOOiiLOOO", kwlist, &cols, &bouquet, &found, &run_name,
                                     &prune, &mn, &ms, &mst, &stop, &low, &depth_weight, &blocked_weight, &store,
                                     &guide, &aside, &portfolio))
        return NULL;
    int kind = 0;
    for (int i = 0; i < 4 && run_name; i++)
        if (PyUnicode_CompareWithASCIIString(run_name, runs[i]) == 0) kind = i + 1;
    if (!kind) {
        PyErr_SetString(PyExc_ValueError, "run: \"complete\", \"ordered\", \"best-first\" or \"portfolio\"");
        return NULL;
    }
    if (kind == RUN_BEST_FIRST ? depth_weight < 1 : depth_weight != 0) {
        PyErr_SetString(PyExc_ValueError, "depth_weight: at least 1, for a best-first run only");
        return NULL;
    }
    if (blocked_weight < 0 || blocked_weight > 1024) {
        PyErr_SetString(PyExc_ValueError, "blocked_weight: 0..1024");
        return NULL;
    }
    if (store < 1 || store > BEST_FIRST_NODES) {
        PyErr_SetString(PyExc_ValueError, "store: 1 to 6,000,000 positions");
        return NULL;
    }
    if ((portfolio != Py_None) != (kind == RUN_PORTFOLIO)) {
        PyErr_SetString(PyExc_ValueError, "portfolio: the runs of the portfolio, and only for it");
        return NULL;
    }
    if (aside != Py_None && kind != RUN_COMPLETE) {
        PyErr_SetString(PyExc_ValueError, "aside: for the complete search only");
        return NULL;
    }
    if (low != Py_None && (kind == RUN_ORDERED || kind == RUN_PORTFOLIO)) {
        PyErr_SetString(PyExc_ValueError, "the abstract game is played by the complete search or one best-first run");
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
    Search *s = calloc(1, sizeof(Search));
    PyObject *res = NULL;
    if (!s) {
        PyErr_NoMemory();
        goto done;
    }
    s->limits.stop = stop_buf.buf;
    s->best_first_store = store;
    s->greedy = kind != RUN_COMPLETE;
    s->prune = prune;
    if (opt_number(mn, &s->limits.max_nodes) || opt_number(ms, &s->limits.max_seconds) ||
        opt_number(mst, &s->limits.max_states))
        goto done;
    if (read_layout(s, cols, bouquet, found)) goto done;
    if (low != Py_None) {
        const char *range = "low: each above its foundation, or 13";
        int bounds[4];
        if (read_suits(low, "low", 1, range, bounds)) goto done;
        for (int su = 0; su < 4; su++) {
            if (bounds[su] <= s->pos.found[su] && bounds[su] != 13) {
                PyErr_SetString(PyExc_ValueError, range);
                goto done;
            }
        }
        abstract_setup(s, bounds);
    }
    if (guide != Py_None && read_guide(s, guide)) goto done;
    if (aside != Py_None && read_aside(s, aside)) goto done;
    if (portfolio != Py_None && read_portfolio(s, portfolio)) goto done;
    clock_gettime(CLOCK_MONOTONIC, &s->limits.start);

    int r;
    Py_BEGIN_ALLOW_THREADS
    r = run_search(s, kind, depth_weight, blocked_weight);
    Py_END_ALLOW_THREADS
    res = result(s, r);
done:
    if (s) free_search(s);
    free(s);
    if (stop_buf.obj) PyBuffer_Release(&stop_buf);
    return res;
}

static PyObject *py_stalled(PyObject *self, PyObject *args) {
    PyObject *cols, *bouquet, *found;
    long long max_states = -1, states = 0;
    if (!PyArg_ParseTuple(args, "OOO|L", &cols, &bouquet, &found, &max_states)) return NULL;
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    int status = -5;
    if (!read_layout(s, cols, bouquet, found)) {
        Py_BEGIN_ALLOW_THREADS
        status = flower_stalled(s, max_states, &states);
        Py_END_ALLOW_THREADS
    }
    free_search(s);
    free(s);
    if (status == -5) return NULL;
    if (status == -4) return PyErr_NoMemory();
    return Py_BuildValue("(iL)", status, states);
}

static PyMethodDef methods[] = {
    {"stalled", py_stalled, METH_VARARGS,
     "stalled(columns, bouquet, foundations, max_states=-1) -> (status, states): 1 stalled (no card can"
     " reach a foundation), 0 not, -1 the states budget ran out (see shared_c/stall.h)"},
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(columns, bouquet, foundations, *, run, prune=True, max_nodes=None, max_seconds=None, "
     "max_states=None, stop=None, low=None, depth_weight=0, blocked_weight=0, store=6000000, guide=None, "
     "aside=None, portfolio=None) -> (status, limit, nodes, states, moves)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_flower_c", "Flower Garden search core (see _flower_c.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__flower_c(void) {
    init_zobrist();
    return PyModule_Create(&module);
}
