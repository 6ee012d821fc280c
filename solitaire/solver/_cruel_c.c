/* Cruel core: the Python module, which only converts between Python and C
 * (the search and the stalled check are in cruel_c/, its parts listed in
 * cruel_c/cruel.h, which also argues its table's bounds and its
 * reductions). The GIL is released while a search runs.
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
 *     dead(piles, foundations) -> bool
 *
 * True when the dead-layout test (reductions 2 and 3) proves the layout lost.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cruel_c/cruel.h"

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

static PyObject *py_stalled(PyObject *self, PyObject *args) {
    PyObject *piles, *found;
    long long max_states = -1, states = 0;
    if (!PyArg_ParseTuple(args, "OO|L", &piles, &found, &max_states)) return NULL;
    State root;
    if (parse_state(piles, found, &root) < 0) return NULL;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = cruel_stalled(&root, max_states, &states);
    Py_END_ALLOW_THREADS
    if (status == -4) return PyErr_NoMemory();
    return Py_BuildValue("(iL)", status, states);
}

static PyMethodDef methods[] = {
    {"stalled", py_stalled, METH_VARARGS,
     "stalled(piles, foundations, max_states=-1) -> (status, states): 1 stalled (no card can reach a"
     " foundation), 0 not, -1 the states budget ran out (see shared_c/stall.h)"},
    {"dead", py_dead, METH_VARARGS,
     "dead(piles, foundations) -> True when the dead-layout test (reduction 2) proves the layout lost"},
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(piles, foundations, *, greedy=False, prune=True, max_nodes=None, max_seconds=None,"
     " max_states=None) -> (status, nodes, states, moves)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_cruel_c",
                                    "Cruel core in C (see _cruel.py and _stall.py).", -1, methods};

PyMODINIT_FUNC PyInit__cruel_c(void) {
    init_zobrist();
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    PyModule_AddIntConstant(m, "BYTES_PER_SLOT", 16);
    PyModule_AddIntConstant(m, "FRAME_BYTES", (int)sizeof(Frame));
    return m;
}
