/* The Flower Garden core: what its parts share.
 *
 * The module (../_flower_c.c, which only converts between Python and C)
 * runs one of four searches on a ``Search``, or the stalled check
 * (stall.c): the complete depth-first search (depth_first.c; with a guide,
 * and a step aside that portfolio.c takes), the ordered depth-first run and
 * the best-first runs (best_first.c), the portfolio of the incomplete phase
 * (portfolio.c, above both searches), each on the real game or on an
 * abstract game (abstract.c). position.c holds the rules (the position, its
 * moves and playing them) for all of them, table.c keeps the keys and the
 * tables of positions seen, search.c a search's buffers, shorten.c cuts
 * the detours of a won line. docs/solver.md explains the searches and
 * argues each pruning rule.
 */
#ifndef FLOWER_H
#define FLOWER_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* clock_gettime, MAP_ANONYMOUS under -std=c11 */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCOL 6
#define BQ 6       /* source: the bouquet */
#define FOUND 6    /* target: the foundation */
#define BASE 52    /* parent of a column's bottom card */
#define G_HOME 255 /* a guide's step to the foundation (see guide_holds) */
#define MAXCH 13
#define CLOCK_EVERY 1024
#define MAX_PORTFOLIO 16

/* A best-first run holds at most this many positions (64 bytes each) and
 * sees at most BEST_FIRST_SEEN (its seen set then at 256 MB): two runs side
 * by side stay under 1.6 GB of the 2 GB a solve may use. */
#define BEST_FIRST_NODES 6000000
#define BEST_FIRST_SEEN 25000000

typedef struct {
    uint64_t a, b;
} Key;

typedef struct {
    int16_t score;
    uint8_t card, src, target, n;
    uint8_t chain[MAXCH]; /* bouquet cards, rank rising; played from the last */
} FMove;

typedef struct {
    uint8_t card, src, target, parent_from;
} Step;

typedef struct {
    int64_t mstart;
    int32_t mcount, midx;
    int64_t auto_start, after_auto;
    int64_t gnext; /* the guide's place after its first move, or -1 (see guide_pick) */
} Frame;

/* The state: six columns as small arrays (the real layout, so moves name
 * real columns), the bouquet as a 52-bit mask, four foundation heights,
 * and the transposition key (table.c), kept up to date by step. */
typedef struct {
    uint8_t col[NCOL][56];
    int len[NCOL];
    uint64_t bouquet;
    int found[4];
    int home;
    Key key;
} Layout;

/* The budgets (a negative number: none) and the byte through which
 * another thread calls the search off. */
typedef struct {
    double max_nodes, max_seconds, max_states;
    struct timespec start;
    volatile const char *stop;
} Limits;

/* The complete search's transposition table: open addressing, linear
 * probing, 16 bytes a slot, doubled at 3/4 load. */
typedef struct {
    Key *slot;
    uint64_t cap; /* power of two */
} Table;

/* The abstract game (rule 6; abstract.c): 0 = the real game. */
typedef struct {
    int on;
    int low[4];               /* per suit: ranks below it are low cards */
    uint8_t code[52];         /* a low card's own number, a high card's 52 + rank */
    uint64_t high;            /* the high cards */
    Key key;                  /* its key, kept up to date by step */
    Key column_key[NCOL][57]; /* each column's first i cards, hashed */
    Key *child_keys;          /* the expanded position's children's keys (store_children) */
    int64_t child_keys_cap;
} Abstract;

/* A guide for the complete search (guide_pick): each step of an earlier
 * line as the card and where it went (G_HOME, or the card it went on, BASE
 * for an empty column); ``at``: the place on it of the position being
 * entered, -1 off it. */
typedef struct {
    uint8_t *card, *onto;
    int64_t len, at;
} Guide;

/* The complete search's step aside (step_aside): once it has stored more
 * than ``states`` states (0: never), a best-first run of that depth and
 * blocked weight and at most ``expansions`` expansions looks for its goal
 * from the starting layout (``start``, the search as it was set up). */
typedef struct {
    double states, expansions;
    int depth_weight, blocked_weight, won;
    const struct Search *start;
    int64_t auto_start; /* where the paused search's position began its safe moves */
} StepAside;

/* One run of the portfolio (best_first.c's run_portfolio). */
enum { PAUSE_NONE = 0, PAUSE_KEEP = 1, PAUSE_RESUME = 2 };
typedef struct {
    int best_first;     /* else the ordered depth-first run */
    int depth_weight;   /* a best-first run's weight of a move of the line */
    int blocked_weight; /* its weight of a card on a lower card of its suit */
    double share;       /* of the budgets; a run's deadline is the sum of the shares so far */
    double expansions;  /* the most positions it expands (0: no cap); the time it leaves goes on */
    int pause;          /* KEEP: kept when its cap stops it; RESUME: that run goes on */
} PortfolioRun;

typedef struct Search {
    Layout pos;
    Limits limits;
    int greedy, prune;        /* the incomplete phase's move order; rule 1 */
    int64_t best_first_store; /* positions a best-first run holds at once */
    /* spent */
    int64_t nodes, states;
    const char *limit; /* the budget that ran out */
    Table table;
    /* stacks: the line played, the moves generated, the depth-first frames */
    Step *path;
    int64_t path_len, path_cap;
    FMove *moves;
    int64_t moves_len, moves_cap;
    Frame *frames;
    int64_t frames_len, frames_cap;
    int oom;
    Abstract abstract;
    Guide guide;
    StepAside aside;
    PortfolioRun portfolio[MAX_PORTFOLIO];
    int portfolio_len;
} Search;

/* How a search ended (R_ASIDE: the complete search paused for its step
 * aside; resume_depth_first goes on). */
enum { R_NONE = 0, R_WON = 1, R_LIMIT = 2, R_OOM = 3, R_ASIDE = 4 };

/* ---- table.c (table.h): keys, tables, time ---- */

/* ---- abstract.c: the abstract game ---- */

void ak_init(Search *s);
void abstract_setup(Search *s, const int low[4]);
int store_children(Search *s, int64_t mstart, int keep_first);

/* Won: all 52 home; in the abstract game, some suit with high cards has
 * its low cards all home (a suit without high cards ends nothing). */
static inline int won(const Search *s) {
    if (s->abstract.on)
        for (int su = 0; su < 4; su++)
            if (s->abstract.low[su] < 13 && s->pos.found[su] >= s->abstract.low[su]) return 1;
    return s->pos.home == 52;
}

/* ---- position.c: the position and its moves ---- */

/* Grow a stack of the search ``s`` to hold ``need`` more; -1 from the
 * calling function when out of memory. */
#define RESERVE(arr, len, cap, need)                                          \
    do {                                                                      \
        if ((len) + (need) > (cap)) {                                         \
            int64_t nc = (cap) ? (cap) : 1024;                                \
            while (nc < (len) + (need)) nc *= 2;                              \
            void *p = realloc((arr), (size_t)nc * sizeof(*(arr)));            \
            if (!p) { s->oom = 1; return -1; }                                \
            (arr) = p;                                                        \
            (cap) = nc;                                                       \
        }                                                                     \
    } while (0)

static inline int parent_of(const Search *s, int j) {
    return s->pos.len[j] ? s->pos.col[j][s->pos.len[j] - 1] : BASE;
}

int step(Search *s, int c, int src, int target);
void undo_to(Search *s, int64_t path_len);
int auto_moves(Search *s);
int gen_moves(Search *s);
int apply_move(Search *s, const FMove *m);
int evaluate(const Search *s, int blocked);
int score_moves(Search *s, int64_t mstart);
void sort_moves(FMove *m, int n);
void set_layout(Search *s, const Layout *start);

/* ---- stall.c: the stalled check on these rules (../shared_c/stall.h) ---- */

/* From the layout in ``s`` (whose moves it uses): 1 stalled, 0 not (or
 * won), -1 the states budget ran out, -4 out of memory; *states: the
 * layouts stored. */
int flower_stalled(Search *s, long long max_states, long long *states);

/* ---- search.c: a search's buffers ---- */

struct Search *search_fork(const struct Search *start);
void free_search(Search *s);

/* ---- depth_first.c, best_first.c: the two searches; shorten.c ---- */

int run_depth_first(Search *s);
int resume_depth_first(Search *s);
typedef struct BestFirst BestFirst; /* one best-first run, which can pause and go on */
BestFirst *bf_alloc(void);
int bf_open(Search *s, BestFirst *b, int w_depth, int blocked);
int bf_run(Search *s, BestFirst *b);
void bf_close(BestFirst *b);
int run_best_first(Search *s, int depth_weight, int blocked_weight);
void shorten_line(Search *s, const Layout *start);

/* ---- portfolio.c: above both searches ---- */

/* The searches the module names. */
enum { RUN_COMPLETE = 1, RUN_ORDERED, RUN_BEST_FIRST, RUN_PORTFOLIO };

int run_search(Search *s, int kind, int depth_weight, int blocked_weight);
int run_complete(Search *s);
int run_portfolio(Search *s);

#endif
