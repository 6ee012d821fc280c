/* The depth-first search: the complete search (with its guide; it pauses
 * for its step aside, which portfolio.c takes) and the incomplete phase's
 * ordered run. */
#include "table.h"

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
static int guide_holds(const Search *s, int64_t j) {
    int c = s->guide.card[j], o = s->guide.onto[j];
    if (RANK[c] < s->pos.found[SUIT[c]]) return 1;
    if (o == G_HOME || (s->pos.bouquet >> c & 1)) return 0;
    for (int k = 0; k < NCOL; k++)
        for (int i = 0; i < s->pos.len[k]; i++)
            if (s->pos.col[k][i] == c) return (i ? s->pos.col[k][i - 1] : BASE) == o;
    return 0;
}

static int64_t guide_advance(const Search *s, int64_t j) {
    while (j < s->guide.len && guide_holds(s, j)) j++;
    return j;
}

/* At a position on the guide (place s->guide.at), put first among the ``cnt``
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
static int64_t guide_pick(Search *s, int64_t mstart, int cnt) {
    int64_t base = guide_advance(s, s->guide.at), best = base, best_early = base, p0 = s->path_len;
    int pick = -1, pick_early = -1;
    for (int i = 0; i < cnt; i++) {
        const FMove *m = &s->moves[mstart + i];
        /* a card sent home before the guide sends it: every step of it
         * then holds, but later steps that put cards on it never will */
        int early = m->target == FOUND && !(base < s->guide.len && s->guide.card[base] == m->card && s->guide.onto[base] == G_HOME);
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
    FMove t = s->moves[mstart + pick];
    memmove(&s->moves[mstart + 1], &s->moves[mstart], (size_t)pick * sizeof(FMove)); /* the rest keep their order */
    s->moves[mstart] = t;
    return best;
}

static int expand(Search *s, int *pushed, int64_t auto_start);

/* Enter the position just reached: safe moves, win test, table (unless
 * ``stored`` by store_children already), then expand it; R_ASIDE instead,
 * once, when the search has stored more than aside.states states (see
 * resume_depth_first). */
static int enter(Search *s, int *pushed, int stored) {
    *pushed = 0;
    int64_t auto_start = s->path_len;
    if (s->prune && auto_moves(s)) return R_OOM;
    if (won(s)) return R_WON;
    if (!stored) {
        int ins = tt_insert(s, s->abstract.on ? s->abstract.key : s->pos.key);
        if (ins < 0) return R_OOM;
        if (ins == 0 && s->guide.at < 0) { /* on the guide it is entered again (see guide_pick) */
            undo_to(s, auto_start);
            return R_NONE;
        }
    }
    s->nodes++;
    if (s->aside.states > 0 && (double)s->states > s->aside.states) {
        s->aside.states = 0; /* once */
        s->aside.auto_start = auto_start;
        return R_ASIDE;
    }
    return expand(s, pushed, auto_start);
}

/* Budgets, and a new frame with the position's moves. */
static int expand(Search *s, int *pushed, int64_t auto_start) {
    if (s->limits.max_nodes >= 0 && (double)s->nodes > s->limits.max_nodes) { s->limit = "nodes"; return R_LIMIT; }
    if (s->limits.max_states >= 0 && (double)s->states > s->limits.max_states) { s->limit = "states"; return R_LIMIT; }
    if (out_of_time(s)) return R_LIMIT;
    int64_t mstart = s->moves_len;
    if (gen_moves(s)) return R_OOM;
    int64_t gnext = s->guide.at >= 0 && s->moves_len > mstart ? guide_pick(s, mstart, (int)(s->moves_len - mstart)) : -1;
    if (gnext == -2) return R_OOM;
    /* the abstract games only: the real game's search wins deals too, and
     * entering children in this order makes its won lines far longer
     * (deal 8's, 1,157 moves after shortening, against under 400) */
    int cnt = s->abstract.on ? store_children(s, mstart, gnext >= 0) : (int)(s->moves_len - mstart);
    if (cnt < 0) return R_OOM;
    if (s->greedy && cnt > 1 && gnext < 0) {
        /* greedy mode's depth-first run: best evaluated child first */
        if (score_moves(s, mstart)) return R_OOM;
        sort_moves(s->moves + mstart, cnt);
    }
    if (s->frames_len + 1 > s->frames_cap) {
        int64_t nc = s->frames_cap ? s->frames_cap * 2 : 1024;
        void *p = realloc(s->frames, (size_t)nc * sizeof(Frame));
        if (!p) return R_OOM;
        s->frames = p;
        s->frames_cap = nc;
    }
    Frame *f = &s->frames[s->frames_len++];
    f->mstart = mstart;
    f->mcount = cnt;
    f->midx = 0;
    f->auto_start = auto_start;
    f->after_auto = s->path_len;
    f->gnext = gnext;
    *pushed = 1;
    return R_NONE;
}

/* Take the frames' next moves until the stack is empty. */
static int descend(Search *s) {
    int pushed;
    while (s->frames_len) {
        Frame *f = &s->frames[s->frames_len - 1];
        if (f->midx == f->mcount) {
            s->moves_len = f->mstart;
            undo_to(s, f->auto_start);
            s->frames_len--;
            continue;
        }
        s->guide.at = f->midx ? -1 : f->gnext; /* only the first move can follow the guide */
        FMove m = s->moves[f->mstart + f->midx++];
        undo_to(s, f->after_auto);
        if (apply_move(s, &m)) return R_OOM;
        int r = enter(s, &pushed, s->abstract.on); /* store_children stored it */
        if (r != R_NONE) return r;
        /* not pushed: the state was seen; the next move undoes this one */
    }
    return R_NONE;
}

/* The depth-first search from the layout in ``s``: R_WON (the line in
 * s->path), R_NONE (every position reachable under the pruning rules was
 * expanded: for the complete search, a proof), R_LIMIT or R_OOM; or
 * R_ASIDE, when the complete search has stored aside.states states (it
 * goes on with resume_depth_first). With ``greedy`` (the ordered run),
 * each node's moves are ordered by the evaluation of the child; its
 * failure proves nothing. */
int run_depth_first(Search *s) {
    int pushed;
    s->guide.at = s->guide.len ? 0 : -1;
    int r = enter(s, &pushed, 0);
    if (r != R_NONE || !pushed) return r;
    return descend(s);
}

/* Go on where run_depth_first returned R_ASIDE: the position it had
 * entered is expanded, and the search goes on from there. */
int resume_depth_first(Search *s) {
    int pushed;
    int r = expand(s, &pushed, s->aside.auto_start);
    if (r != R_NONE) return r;
    return descend(s);
}
