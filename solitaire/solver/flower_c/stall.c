/* The stalled check on Flower Garden's rules (position.c's moves, prune
 * off: no safe foundation moves), over the shared search of
 * ../shared_c/stall.h. Canonical layouts sort the columns (they are
 * interchangeable). The moves are the search's: a column's top card onto a
 * column one rank higher or into the first empty column (never a lone
 * card), and bouquet cards only in chains that end with a column's top
 * card (rule 4): a bouquet card that nothing goes on uncovers nothing, so
 * delaying it past the moment a needed card shows loses no such moment,
 * and the chains reach every layout where one first shows. */
#include "flower.h"
#include "../shared_c/stall.h"

static int cmp_col(const Layout *p, int a, int b) {
    if (p->len[a] != p->len[b]) return p->len[a] < p->len[b] ? -1 : 1;
    return memcmp(p->col[a], p->col[b], (size_t)p->len[a]);
}

static void pack(const Layout *p, StallState *out) {
    int order[NCOL];
    for (int i = 0; i < NCOL; i++) { /* insertion sort of the columns */
        int j = i - 1;
        while (j >= 0 && cmp_col(p, order[j], i) > 0) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = i;
    }
    memset(out, 0, sizeof *out);
    out->bouquet = p->bouquet;
    out->np = NCOL;
    int k = 0;
    for (int i = 0; i < NCOL; i++) {
        int c = order[i];
        out->len[i] = (uint8_t)p->len[c];
        memcpy(out->seq + k, p->col[c], (size_t)p->len[c]);
        k += p->len[c];
    }
}

static void unpack(const StallState *s, const int found[4], Layout *p) {
    memset(p, 0, sizeof *p);
    int k = 0;
    for (int i = 0; i < NCOL; i++) {
        p->len[i] = s->len[i];
        memcpy(p->col[i], s->seq + k, s->len[i]);
        k += s->len[i];
    }
    p->bouquet = s->bouquet;
    for (int su = 0; su < 4; su++) {
        p->found[su] = found[su];
        p->home += found[su];
    }
}

static int shows_needed(const StallSearch *x, const Layout *p) {
    for (int j = 0; j < NCOL; j++)
        if (p->len[j] && ((x->needed >> p->col[j][p->len[j] - 1]) & 1)) return 1;
    return 0;
}

/* ``game``: a Search used for its moves only (its layout is replaced). */
static int expand(StallSearch *x, const StallState *s, void *game) {
    Search *g = game;
    Layout start;
    unpack(s, g->pos.found, &start);
    set_layout(g, &start);
    g->moves_len = 0;
    if (gen_moves(g)) return -1;
    for (int64_t i = 0; i < g->moves_len; i++) {
        FMove m = g->moves[i];
        if (m.target == FOUND) continue;
        if (apply_move(g, &m)) return -1;
        if (shows_needed(x, &g->pos)) return STALL_SHOWN;
        StallState p;
        pack(&g->pos, &p);
        undo_to(g, 0);
        int r = stall_offer(x, &p);
        if (r < 0) return r;
    }
    return 0;
}

int flower_stalled(Search *s, long long max_states, long long *states) {
    StallSearch x;
    memset(&x, 0, sizeof x);
    x.max_states = max_states;
    x.needed = stall_needed(s->pos.found);
    s->greedy = s->prune = 0;
    StallState root;
    pack(&s->pos, &root);
    int status = stall_run(&x, &root, expand, s);
    *states = (long long)x.nstates;
    return status;
}
