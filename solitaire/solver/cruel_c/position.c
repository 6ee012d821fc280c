/* Cruel's rules, once: a layout's legal moves and playing one, a redeal
 * included. The search orders them (gen_moves, the order of the tests'
 * reference search, so both walk the same tree); the stalled check
 * (stall.c) takes them as they come. */
#include "cruel.h"

int grouped(const State *st) {
    int left = st->left;
    for (int i = 0; i < NPILES; i++) {
        int want = left >= 4 ? 4 : left;
        if (st->len[i] != want) return 0;
        left -= want;
    }
    return 1;
}

/* Every legal move, pile by pile (a pile's top to its foundation, then onto
 * its successor), then the redeal, each with its score: foundation moves 0,
 * pile moves 5, the redeal 9; 3 off when the move uncovers a card its
 * foundation needs. */
void list_moves(const State *st, MoveList *out) {
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
    int n = 0;
    for (int k = 0; k < np; k++) {
        int i = tops[k], c = topc[k];
        int s = c / 13, r = c % 13;
        int bonus = 0;
        int bl = below[k];
        if (bl >= 0 && st->found[bl / 13] == bl % 13) bonus = 3;
        if (st->found[s] == r) {
            out->score[n] = 0 - bonus; out->card[n] = c; out->tgt[n] = TGT_FOUND; out->src[n] = i; n++;
        }
        if (r != 12 && top_pile[c + 1] >= 0) {
            out->score[n] = 5 - bonus; out->card[n] = c; out->tgt[n] = top_pile[c + 1]; out->src[n] = i; n++;
        }
    }
    if (!grouped(st)) {
        out->score[n] = 9; out->card[n] = -1; out->tgt[n] = TGT_REDEAL; out->src[n] = -1; n++;
    }
    out->n = n;
}

/* The search's moves, best first (as in the reference search of the
 * tests). Greedy (the incomplete first phase): only the best move when it
 * is a foundation move. */
void gen_moves(Frame *f, int greedy) {
    MoveList m;
    list_moves(&f->st, &m);
    int *score = m.score, *card = m.card, *tgt = m.tgt, *src = m.src, n = m.n;
    /* insertion sort by (score, card, target): the order of the reference
     * search's sort on (score, card, src, target) tuples, src following
     * from the card, so both searches walk the same tree */
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

/* Play card c from pile src to tgt (a pile, TGT_FOUND), or redeal (tgt
 * TGT_REDEAL: c and src unused). */
void apply_move(State *st, int c, int src, int tgt) {
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
