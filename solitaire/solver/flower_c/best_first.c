/* The best-first runs: of the incomplete phase (portfolio.c chooses
 * them), of phase 2's helpers and step aside, and of the line shortening. */
#include "table.h"

/* Incomplete and heuristic: always expand the stored position with the best
 * evaluation plus w_depth for each move of its line (a weighted A*: the
 * larger w_depth, the wider and the shorter the lines). A position is
 * stored whole (Node); the winning line is rebuilt from parent links and
 * replayed with its safe moves. Its failure proves nothing.
 * The hard deals need runs of several seconds that see more positions than
 * a run can hold: a run holds at most best_first_store positions (64 bytes
 * each), and when its store is full it drops all but its best open
 * positions and their lines (bf_collect) and goes on. Its seen set keeps
 * every position it stored, 8 to 16 bytes each, up to BEST_FIRST_SEEN,
 * when the run gives up. */

/* A stored position: the bouquet, the column lengths and the column cards
 * packed at 52 + 6 x 6 + 6 bits a card (50 bytes); the foundations follow
 * from the cards in neither place. The move that made it is not kept: the
 * winning line is found again at the end, between each node and its parent. */
typedef struct {
    int32_t parent;
    int32_t depth;
    int32_t qnext; /* the next node of its bucket in the queue, or -1 */
    uint8_t bits[52];
} Node;
_Static_assert(sizeof(Node) == 64, "a stored position is 64 bytes");

typedef struct {
    uint8_t *p;
    uint64_t acc;
    int n;
} Bits;

/* Four bytes at a time (widths up to 32 bits): a position is 400 bits, so
 * a save writes 48 bytes and then 2, a load reads at most the 52. */
static inline void bits_put(Bits *b, uint64_t v, int width) {
    b->acc |= v << b->n;
    b->n += width;
    if (b->n >= 32) {
        uint32_t w = (uint32_t)b->acc;
        memcpy(b->p, &w, 4);
        b->p += 4;
        b->acc >>= 32;
        b->n -= 32;
    }
}

static inline void bits_end(Bits *b) {
    for (; b->n > 0; b->n -= 8, b->acc >>= 8) *b->p++ = (uint8_t)b->acc;
}

static inline uint64_t bits_get(Bits *b, int width) {
    if (b->n < width) {
        uint32_t w;
        memcpy(&w, b->p, 4);
        b->p += 4;
        b->acc |= (uint64_t)w << b->n;
        b->n += 32;
    }
    uint64_t v = b->acc & ((1ULL << width) - 1);
    b->acc >>= width;
    b->n -= width;
    return v;
}

static void load_node(Search *s, const Node *nd) {
    Bits b = {(uint8_t *)nd->bits, 0, 0};
    s->pos.key.a = s->pos.key.b = 0;
    s->pos.bouquet = bits_get(&b, 26);
    s->pos.bouquet |= bits_get(&b, 26) << 26;
    for (int j = 0; j < NCOL; j++) s->pos.len[j] = (int)bits_get(&b, 6);
    uint64_t present = s->pos.bouquet;
    for (int j = 0; j < NCOL; j++) {
        int p = BASE;
        for (int i = 0; i < s->pos.len[j]; i++) {
            int c = (int)bits_get(&b, 6);
            s->pos.col[j][i] = c;
            present |= 1ULL << c;
            hx(s, c, p);
            p = c;
        }
    }
    for (uint64_t m = s->pos.bouquet; m; m &= m - 1) hb(s, __builtin_ctzll(m));
    s->pos.home = 0;
    for (int su = 0; su < 4; su++) { /* a suit is home up to its lowest card still out */
        uint64_t out = (present >> (su * 13) & 0x1FFF) | 1ULL << 13;
        s->pos.found[su] = __builtin_ctzll(out);
        s->pos.home += s->pos.found[su];
    }
}

static void save_node(Search *s, Node *nd) {
    Bits b = {nd->bits, 0, 0};
    bits_put(&b, s->pos.bouquet & ((1ULL << 26) - 1), 26);
    bits_put(&b, s->pos.bouquet >> 26, 26);
    for (int j = 0; j < NCOL; j++) bits_put(&b, (uint64_t)s->pos.len[j], 6);
    for (int j = 0; j < NCOL; j++)
        for (int i = 0; i < s->pos.len[j]; i++) bits_put(&b, s->pos.col[j][i], 6);
    bits_end(&b);
}

/* The open positions, by f (evaluation + depth weight): a bucket for each
 * value, first in first out, so positions of equal f come out oldest first
 * (the order a heap keyed on (f, node) gives), each push and pop in constant
 * time; a heap's were a dozen cache misses deep at millions of nodes. */
typedef struct {
    int32_t *head, *tail;
    int64_t cap;   /* f values 0 .. cap - 1 */
    int64_t count;
    int64_t min;   /* no bucket below min holds a node */
} Queue;

static int queue_push(Queue *q, Node *nodes, int32_t f, int32_t node) {
    if (f < 0) f = 0;
    if (f >= q->cap) {
        int64_t nc = q->cap ? q->cap : 4096;
        while (nc <= f) nc *= 2;
        int32_t *h = realloc(q->head, (size_t)nc * sizeof(int32_t));
        if (!h) return -1;
        q->head = h;
        int32_t *t = realloc(q->tail, (size_t)nc * sizeof(int32_t));
        if (!t) return -1;
        q->tail = t;
        for (int64_t i = q->cap; i < nc; i++) q->head[i] = q->tail[i] = -1;
        if (!q->cap) q->min = nc;
        q->cap = nc;
    }
    nodes[node].qnext = -1;
    if (q->tail[f] >= 0) nodes[q->tail[f]].qnext = node;
    else q->head[f] = node;
    q->tail[f] = node;
    if (f < q->min) q->min = f;
    q->count++;
    return 0;
}

static int32_t queue_pop(Queue *q, Node *nodes) {
    while (q->head[q->min] < 0) q->min++;
    int32_t node = q->head[q->min];
    q->head[q->min] = nodes[node].qnext;
    if (q->head[q->min] < 0) q->tail[q->min] = -1;
    q->count--;
    return node;
}

/* The move that leads from node ``from`` to node ``to`` (after its safe
 * moves), found again among the moves of ``from``: 0, or -1 if out of memory
 * or none does (which cannot happen). */
static int move_between(Search *s, const Node *from, const Node *to, FMove *out) {
    load_node(s, to);
    Key want = s->pos.key;
    load_node(s, from);
    s->path_len = 0;
    s->moves_len = 0;
    if (gen_moves(s)) return -1;
    for (int64_t i = 0; i < s->moves_len; i++) {
        if (apply_move(s, &s->moves[i]) || (s->prune && auto_moves(s))) return -1;
        int same = s->pos.key.a == want.a && s->pos.key.b == want.b;
        undo_to(s, 0);
        if (same) {
            *out = s->moves[i];
            return 0;
        }
    }
    return -1;
}

/* When the store is full: keep the ``keep`` best open positions (by f,
 * oldest first within one f: the order they would come out) and every
 * position on their lines, drop the rest, and compact the store (a parent
 * always comes before its children, so one pass renumbers them). The
 * dropped positions stay in the seen set, so they are not found again: the
 * run goes on over its best open positions. On the hard deals this
 * matched, node for node over 6 million nodes, a run with a store five
 * times as large (which most of the time never came to expand what is
 * dropped). Returns how many positions are left, or -1 when out of memory. */
static int64_t bf_collect(Node *nodes, int64_t nn, Queue *q, int64_t keep) {
    int32_t *open = malloc((size_t)keep * sizeof(int32_t));
    int32_t *fval = malloc((size_t)keep * sizeof(int32_t));
    int32_t *renum = malloc((size_t)nn * sizeof(int32_t));
    if (!open || !fval || !renum) {
        free(open);
        free(fval);
        free(renum);
        return -1;
    }
    int64_t k = 0;
    for (int64_t f = q->min; f < q->cap && k < keep; f++)
        for (int32_t v = q->head[f]; v >= 0 && k < keep; v = nodes[v].qnext) {
            open[k] = v;
            fval[k++] = (int32_t)f;
        }
    for (int64_t i = 0; i < nn; i++) renum[i] = -1;
    for (int64_t i = 0; i < k; i++) /* mark each line up to where it meets a marked one */
        for (int32_t v = open[i]; v >= 0 && renum[v] < 0; v = nodes[v].parent) renum[v] = 0;
    int64_t j = 0;
    for (int64_t i = 0; i < nn; i++) {
        if (renum[i] < 0) continue;
        renum[i] = (int32_t)j;
        if (j != i) nodes[j] = nodes[i];
        if (nodes[j].parent >= 0) nodes[j].parent = renum[nodes[j].parent];
        j++;
    }
    for (int64_t f = 0; f < q->cap; f++) q->head[f] = q->tail[f] = -1;
    q->count = 0;
    q->min = q->cap;
    for (int64_t i = 0; i < k; i++) queue_push(q, nodes, fval[i], renum[open[i]]); /* f < cap: no growth */
    free(open);
    free(fval);
    free(renum);
    return j;
}

/* One best-first run, which can stop at a budget and go on later (the portfolio
 * pauses its long run for short ones): everything it needs is here, and the
 * shared state ``s`` is loaded from its store at every expansion. */
struct BestFirst {
    Node *nodes;
    Queue queue;
    Seen seen;
    Key *keys; /* the children's keys */
    int64_t nn, kcap, store, room, states;
    int w_depth, blocked;
    Layout root; /* the starting layout */
};

BestFirst *bf_alloc(void) { return calloc(1, sizeof(BestFirst)); }

void bf_close(BestFirst *b) {
    big_free(b->nodes, (size_t)b->store * sizeof(Node));
    big_free(b->seen.slot, b->seen.cap * sizeof(uint64_t));
    free(b->keys);
    free(b->queue.head);
    free(b->queue.tail);
    memset(b, 0, sizeof *b);
}

/* Store the starting position. R_NONE: ready to run (bf_close it after);
 * R_WON: its safe moves win it; R_OOM. */
int bf_open(Search *s, BestFirst *b, int w_depth, int blocked) {
    memset(b, 0, sizeof *b);
    b->store = s->best_first_store;
    b->room = b->store / 8 < 65536 ? b->store / 8 : 65536; /* for one position's children */
    b->w_depth = w_depth;
    b->blocked = blocked;
    b->root = s->pos;
    int64_t p0 = s->path_len;
    if (s->prune && auto_moves(s)) return R_OOM;
    if (won(s)) return R_WON; /* the safe moves played are the line */
    b->nodes = big_alloc((size_t)b->store * sizeof(Node)); /* pages come as they are used */
    if (!b->nodes) return R_OOM;
    save_node(s, &b->nodes[0]);
    b->nodes[0].parent = -1;
    b->nodes[0].depth = 0;
    b->nn = 1;
    if (seen_insert(&b->seen, s->abstract.on ? s->abstract.key : s->pos.key) < 0) return R_OOM;
    b->states = 1;
    undo_to(s, p0);
    if (queue_push(&b->queue, b->nodes, 0, 0)) return R_OOM;
    return R_NONE;
}

/* Expand until won (R_WON, the line played on ``s`` from the start),
 * a budget is spent (R_LIMIT: it can run again from there), or it gives up
 * (R_NONE: it proves nothing) or runs out of memory (R_OOM). */
int bf_run(Search *s, BestFirst *b) {
    Node *nodes = b->nodes;
    Queue *queue = &b->queue;
    int32_t goal = -1;
    FMove last = {0};
    s->states = b->states;
    while (queue->count && goal < 0) {
        if (b->nn + b->room > b->store) {
            b->nn = bf_collect(nodes, b->nn, queue, b->store / 8);
            if (b->nn < 0) return R_OOM;
            if (b->nn + b->room > b->store * 3 / 4) return R_NONE; /* the lines alone fill it: gives up */
        }
        /* budgets before the pop, so that a run stopped here loses nothing */
        if (s->limits.max_nodes >= 0 && (double)s->nodes + 1 > s->limits.max_nodes) { s->limit = "nodes"; return R_LIMIT; }
        if (out_of_time(s)) return R_LIMIT;
        int32_t popped = queue_pop(queue, nodes);
        s->nodes++;
        load_node(s, &nodes[popped]);
        if (s->abstract.on) ak_init(s);
        int32_t depth = nodes[popped].depth;
        s->path_len = 0;
        s->moves_len = 0;
        if (gen_moves(s)) return R_OOM;
        /* First every child's key, its slot in the seen set fetched ahead
         * (a cache miss each, most of a run's time when waited for one by
         * one), then each child again, stored if new. */
        if (s->moves_len > b->kcap) {
            Key *k = realloc(b->keys, (size_t)s->moves_len * sizeof(Key));
            if (!k) return R_OOM;
            b->keys = k;
            b->kcap = s->moves_len;
        }
        Key *keys = b->keys;
        for (int64_t i = 0; i < s->moves_len; i++) {
            if (apply_move(s, &s->moves[i])) return R_OOM;
            if (s->prune && auto_moves(s)) return R_OOM;
            if (won(s)) {
                goal = popped;
                last = s->moves[i];
                break;
            }
            keys[i] = s->abstract.on ? s->abstract.key : s->pos.key;
            seen_prefetch(&b->seen, keys[i]);
            undo_to(s, 0);
        }
        for (int64_t i = 0; i < s->moves_len && goal < 0; i++) {
            int ins = seen_insert(&b->seen, keys[i]);
            if (ins < 0) return R_OOM;
            if (ins) {
                FMove m = s->moves[i];
                if (apply_move(s, &m)) return R_OOM;
                if (s->prune && auto_moves(s)) return R_OOM;
                b->states = ++s->states;
                /* gives up (proves nothing) with a full store or seen set */
                if (b->nn >= b->store || b->seen.count >= BEST_FIRST_SEEN) return R_NONE;
                if (s->limits.max_states >= 0 && (double)b->nn >= s->limits.max_states) { /* the positions it holds */
                    s->limit = "states";
                    return R_LIMIT;
                }
                Node *nd = &nodes[b->nn];
                save_node(s, nd);
                nd->parent = popped;
                nd->depth = depth + 1;
                if (queue_push(queue, nodes, evaluate(s, b->blocked) + b->w_depth * (depth + 1), (int32_t)b->nn))
                    return R_OOM;
                b->nn++;
                undo_to(s, 0);
            }
        }
    }
    if (goal < 0) return R_NONE; /* every position expanded: gives up, proves nothing */
    /* rebuild the line: the moves from the root, each followed by its
     * safe foundation moves, replayed on the starting layout */
    int32_t cnt = 1;
    for (int32_t v = goal; nodes[v].parent >= 0; v = nodes[v].parent) cnt++;
    FMove *line = malloc((size_t)cnt * sizeof(FMove));
    if (!line) return R_OOM;
    int32_t k = cnt;
    line[--k] = last;
    for (int32_t v = goal; nodes[v].parent >= 0; v = nodes[v].parent)
        if (move_between(s, &nodes[nodes[v].parent], &nodes[v], &line[--k])) {
            free(line);
            return R_OOM;
        }
    set_layout(s, &b->root);
    int bad = s->prune && auto_moves(s);
    for (int32_t i = 0; i < cnt && !bad; i++) bad = apply_move(s, &line[i]) || (s->prune && auto_moves(s));
    free(line);
    return bad ? R_OOM : R_WON;
}

/* One best-first run from the layout in ``s``: R_WON (the line in
 * s->path), R_NONE (it gave up: proves nothing), R_LIMIT or R_OOM. */
int run_best_first(Search *s, int w_depth, int blocked) {
    BestFirst b;
    int r = bf_open(s, &b, w_depth, blocked);
    if (r == R_NONE) r = bf_run(s, &b);
    bf_close(&b);
    return r;
}
