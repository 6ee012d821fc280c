/* The dead-layout test (reductions 2 and 3): does a prefix of the card
 * sequence lie frozen, so that none of its cards ever goes home? cruel.h
 * gives the argument. The search (prune=1) asks it of each layout before
 * keying it, the module's ``dead`` of one layout. */
#include "cruel.h"

/* Reduction 3 (prune=1): a frozen prefix of the sequence, of at most lmax
 * cards (see PREFIX_MAX); 1 when there is one. */
int dead_prefix(const State *st, int lmax) {
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
