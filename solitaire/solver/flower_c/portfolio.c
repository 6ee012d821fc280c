/* Above the searches: which one runs, and when. The incomplete phase's
 * portfolio runs the best-first runs (best_first.c) and the ordered
 * depth-first run (depth_first.c) one after the other; the complete
 * search (depth_first.c) pauses once for its step aside, a best-first
 * run, and goes on. Neither search calls the other. */
#include "table.h"

/* The complete search's step aside, taken once, when it has stored
 * aside.states states (run_depth_first returns R_ASIDE): a best-first run (aside.depth_weight and
 * aside.blocked_weight, at most aside.expansions expansions) from the
 * starting layout looks for the goal, while the complete search's table
 * and line wait, and the search then goes on where it was. R_WON: the
 * run's line is now the search's (its position is no longer the search's:
 * the search ends there); R_LIMIT: time ran out or the search was called
 * off; R_NONE: go on. Its giving up proves nothing; the complete search
 * alone proves. A search that needs a little more than aside.states loses
 * only the run's time, not a second search from the start. */
static int step_aside(Search *s) {
    Search *b = search_fork(s->aside.start); /* the starting layout and options */
    if (!b) return R_OOM;
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

/* The complete search (or the ordered run) with its step aside: R_WON,
 * R_NONE, R_LIMIT or R_OOM, as run_depth_first. */
int run_complete(Search *s) {
    int r = run_depth_first(s);
    while (r == R_ASIDE) {
        r = step_aside(s);
        if (r == R_NONE) r = resume_depth_first(s);
    }
    return r;
}

/* The incomplete phase: the portfolio's runs (s->portfolio, from the
 * solver's settings) one after the other, each until its share of the
 * budgets is spent (its deadline falls at the sum of the shares so far) or
 * it gives up; the table is emptied between runs. A run with PAUSE_KEEP is
 * kept whole (store, queue, seen set) when its expansions cap stops it, and
 * the run with PAUSE_RESUME goes on with it where it stopped. */
int run_portfolio(Search *s) {
    double mn = s->limits.max_nodes, ms = s->limits.max_seconds, upto = 0;
    Layout root = s->pos;
    int r = R_NONE;
    BestFirst *kept = bf_alloc();
    int have_kept = 0;
    if (!kept) return R_OOM;
    for (int i = 0; i < s->portfolio_len; i++) {
        const PortfolioRun *run_i = &s->portfolio[i];
        if (i) {
            tt_free(s->table.slot, s->table.cap);
            s->table.slot = NULL;
            s->table.cap = 0;
            s->states = 0;
            s->limit = NULL;
            s->moves_len = s->frames_len = 0;
            set_layout(s, &root);
        }
        upto += run_i->share;
        s->limits.max_nodes = mn >= 0 ? mn * upto : -1; /* (a capped run before may have set it) */
        if (ms >= 0) s->limits.max_seconds = ms * upto;
        double cap = s->nodes + run_i->expansions;
        if (run_i->expansions > 0 && (s->limits.max_nodes < 0 || cap < s->limits.max_nodes)) s->limits.max_nodes = cap;
        if (run_i->pause == PAUSE_RESUME) {
            if (!have_kept) {
                r = R_NONE; /* the kept run gave up (or won): nothing to go on with */
                continue;
            }
            r = bf_run(s, kept);
            bf_close(kept);
            have_kept = 0;
        } else if (run_i->pause == PAUSE_KEEP) {
            r = bf_open(s, kept, run_i->depth_weight, run_i->blocked_weight);
            if (r == R_NONE) r = bf_run(s, kept);
            /* kept when its cap or its time stopped it between two expansions (not the states budget) */
            have_kept = r == R_LIMIT && s->limit && strcmp(s->limit, "states") != 0;
            if (!have_kept) bf_close(kept);
        } else {
            r = run_i->best_first ? run_best_first(s, run_i->depth_weight, run_i->blocked_weight) : run_depth_first(s);
        }
        if (r == R_WON || r == R_OOM || (s->limits.stop && *s->limits.stop)) break;
    }
    if (have_kept) bf_close(kept);
    free(kept);
    return r; /* the last run's: a spent budget, or it gave up */
}

/* The search ``kind`` from the layout in ``s``, which the module has set
 * up: R_WON (the line in s->path; the real game's cut of its detours by
 * shorten.c), R_NONE, R_LIMIT or R_OOM. */
int run_search(Search *s, int kind, int depth_weight, int blocked_weight) {
    Search start = *s; /* the starting layout and options, for the step aside */
    s->aside.start = &start;
    int r;
    if (kind == RUN_PORTFOLIO) r = run_portfolio(s);
    else if (kind == RUN_BEST_FIRST) r = run_best_first(s, depth_weight, blocked_weight);
    else r = run_complete(s);
    if (r == R_WON && !s->abstract.on) shorten_line(s, &start.pos);
    s->aside.start = NULL;
    return r;
}
