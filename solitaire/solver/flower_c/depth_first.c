/* The depth-first search: the complete search (with its guide and its step
 * aside) and the incomplete phase's ordered run. */
#include "flower.h"

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

/* Enter the position just reached: safe moves, win test, table (unless
 * ``stored`` by store_children already), budgets, and a new frame with its
 * moves. */
static int step_aside(Search *s);

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
        int r = step_aside(s);
        if (r != R_NONE) return r;
    }
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

/* The depth-first search from the layout in ``s``: R_WON (the line in
 * s->path), R_NONE (every position reachable under the pruning rules was
 * expanded: for the complete search, a proof), R_LIMIT or R_OOM. With
 * ``greedy`` (the ordered run), each node's moves are ordered by the
 * evaluation of the child; its failure proves nothing. */
int run(Search *s) {
    int pushed;
    s->guide.at = s->guide.len ? 0 : -1;
    int r = enter(s, &pushed, 0);
    if (r != R_NONE || !pushed) return r;
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
        r = enter(s, &pushed, s->abstract.on); /* store_children stored it */
        if (r != R_NONE) return r;
        /* not pushed: the state was seen; the next move undoes this one */
    }
    return R_NONE;
}


/* The complete search's step aside, taken once, when it has stored
 * aside.states states: a best-first run (aside.depth_weight and
 * aside.blocked_weight, at most aside.expansions expansions) from the
 * starting layout looks for the goal, while the complete search's table
 * and line wait, and the search then goes on where it was. R_WON: the
 * run's line is now the search's (its position is no longer the search's:
 * the search ends there); R_LIMIT: time ran out or the search was called
 * off; R_NONE: go on. Its giving up proves nothing; the complete search
 * alone proves. A search that needs a little more than aside.states loses
 * only the run's time, not a second search from the start. */
static int step_aside(Search *s) {
    s->aside.states = 0; /* once */
    Search *b = malloc(sizeof(Search));
    if (!b) return R_OOM;
    *b = *s->aside.start; /* the starting layout and options; the buffers are its own */
    memset(&b->table, 0, sizeof b->table);
    b->path = NULL;
    b->path_len = b->path_cap = 0;
    b->moves = NULL;
    b->moves_len = b->moves_cap = 0;
    b->frames = NULL;
    b->frames_len = b->frames_cap = 0;
    b->abstract.child_keys = NULL;
    b->abstract.child_keys_cap = 0;
    memset(&b->guide, 0, sizeof b->guide);
    b->guide.at = -1;
    b->nodes = b->states = 0;
    b->greedy = 1;
    b->limits.max_states = -1;
    b->limits.max_nodes = s->aside.expansions;
    if (s->limits.max_nodes >= 0 && s->limits.max_nodes - (double)s->nodes < b->limits.max_nodes)
        b->limits.max_nodes = s->limits.max_nodes - (double)s->nodes;
    if (b->limits.max_nodes < 0) b->limits.max_nodes = 0;
    int r = run_best_first(b, s->aside.depth_weight, s->aside.blocked_weight);
    s->nodes += b->nodes;
    if (r == R_WON) {
        s->aside.won = 1;
        s->limit = "aside";
        free(s->path);
        s->path = b->path;
        s->path_len = b->path_len;
        s->path_cap = b->path_cap;
        b->path = NULL;
    } else if (r == R_LIMIT) {
        if (strcmp(b->limit, "nodes") == 0 && (s->limits.max_nodes < 0 || (double)s->nodes < s->limits.max_nodes))
            r = R_NONE; /* its own cap: the complete search goes on */
        else
            s->limit = b->limit;
    }
    free_search(b);
    free(b);
    return r;
}
