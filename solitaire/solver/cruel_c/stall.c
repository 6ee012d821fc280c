/* The stalled check on Cruel's rules (position.c): the moves that are not
 * to a foundation (onto the same suit one rank higher, and redeals), over
 * the shared search of ../shared_c/stall.h. Canonical layouts drop the
 * empty piles (reduction 1 of cruel.h). */
#include "cruel.h"
#include "../shared_c/stall.h"

static void pack(const State *st, StallState *out) {
    memset(out, 0, sizeof *out);
    int n = 0;
    for (int i = 0; i < NPILES; i++)
        if (st->len[i]) out->len[n++] = st->len[i];
    out->np = (uint8_t)n;
    memcpy(out->seq, st->seq, st->left);
}

static void unpack(const StallState *s, const uint8_t found[4], State *st) {
    memset(st, 0, sizeof *st);
    int left = 0;
    for (int i = 0; i < s->np; i++) left += s->len[i];
    memcpy(st->len, s->len, s->np);
    memcpy(st->seq, s->seq, (size_t)left);
    memcpy(st->found, found, 4);
    st->left = (uint8_t)left;
}

static int shows_needed(const StallSearch *x, const State *st) {
    int end = 0;
    for (int i = 0; i < NPILES; i++) {
        end += st->len[i];
        if (st->len[i] && ((x->needed >> st->seq[end - 1]) & 1)) return 1;
    }
    return 0;
}

static int expand(StallSearch *x, const StallState *s, void *game) {
    State st;
    unpack(s, (const uint8_t *)game, &st);
    MoveList m;
    list_moves(&st, &m);
    for (int i = 0; i < m.n; i++) {
        if (m.tgt[i] == TGT_FOUND) continue;
        State child = st;
        apply_move(&child, m.card[i], m.src[i], m.tgt[i]);
        if (shows_needed(x, &child)) return STALL_SHOWN;
        StallState p;
        pack(&child, &p);
        int r = stall_offer(x, &p);
        if (r < 0) return r;
    }
    return 0;
}

int cruel_stalled(const State *root, long long max_states, long long *states) {
    StallSearch x;
    memset(&x, 0, sizeof x);
    x.max_states = max_states;
    int found[4];
    for (int s = 0; s < 4; s++) found[s] = root->found[s];
    x.needed = stall_needed(found);
    StallState p;
    pack(root, &p);
    int status = stall_run(&x, &p, expand, (void *)root->found);
    *states = (long long)x.nstates;
    return status;
}
