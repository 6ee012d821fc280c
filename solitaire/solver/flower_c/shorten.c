/* Shortening a won line: its detours and loops cut. */
#include "table.h"

/* A depth-first search can wander through hundreds of thousands of
 * positions before it wins (an unordered one most of all): its line goes
 * everywhere it went. This cuts the detours the way _polish.py's shortcut
 * pass does, in C so that it is quick on such lines: walking from the
 * start, jump from each position to the furthest later position of the line
 * that one move (with its safe moves) reaches, or that is the same position
 * (a loop); else follow the line one step. Positions are compared by their
 * column-order-free keys, so a step of the line is renamed to the column of
 * the current layout that holds the same cards. On any surprise the original
 * line is kept (search.py replays whatever comes back through the engine). */
typedef struct {
    Key k;
    int64_t idx; /* -1: empty slot */
} KeyAt;

static void keyat_put(KeyAt *t, uint64_t cap, Key k, int64_t idx) {
    uint64_t j = k.a & (cap - 1);
    while (t[j].idx >= 0 && !(t[j].k.a == k.a && t[j].k.b == k.b)) j = (j + 1) & (cap - 1);
    t[j].k = k;
    t[j].idx = idx; /* a later position with the same key wins */
}

static int64_t keyat_get(const KeyAt *t, uint64_t cap, Key k) {
    uint64_t j = k.a & (cap - 1);
    while (t[j].idx >= 0) {
        if (t[j].k.a == k.a && t[j].k.b == k.b) return t[j].idx;
        j = (j + 1) & (cap - 1);
    }
    return -1;
}

static int column_with_top(Search *s, int top) {
    for (int j = 0; j < NCOL; j++)
        if (top == BASE ? s->pos.len[j] == 0 : (s->pos.len[j] && s->pos.col[j][s->pos.len[j] - 1] == top)) return j;
    return -1;
}

/* s->path holds the line from root to the win; after this, a line no longer
 * than before (the same one when memory is short). */
void shorten_line(Search *s, const Layout *start) {
    int64_t n = s->path_len;
    uint64_t cap = 1;
    while (cap < 2 * (uint64_t)(n + 1)) cap <<= 1;
    Step *line = malloc((size_t)n * sizeof(Step) + 1);
    uint8_t *onto = malloc((size_t)n + 1);
    KeyAt *at = malloc(cap * sizeof(KeyAt));
    if (!(line && onto && at)) { /* keep the line as it is */
        free(line);
        free(onto);
        free(at);
        return;
    }
    memcpy(line, s->path, (size_t)n * sizeof(Step));
    for (uint64_t j = 0; j < cap; j++) at[j].idx = -1;
    /* the line's positions: key -> last index; and each step's target top
     * (BASE: an empty column), to rename its column later */
    set_layout(s, start);
    keyat_put(at, cap, s->pos.key, 0);
    int ok = 1;
    for (int64_t i = 0; i < n && ok; i++) {
        onto[i] = line[i].target == FOUND ? BASE : (uint8_t)parent_of(s, line[i].target);
        ok = !step(s, line[i].card, line[i].src, line[i].target);
        keyat_put(at, cap, s->pos.key, i + 1);
    }
    set_layout(s, start);
    int64_t i = 0;
    while (ok && i < n) {
        int64_t best = keyat_get(at, cap, s->pos.key), mstart = s->moves_len, p0 = s->path_len, pick = -1;
        if (best < i || gen_moves(s)) { ok = 0; break; }
        for (int64_t m = mstart; m < s->moves_len && ok; m++) {
            if (apply_move(s, &s->moves[m]) || (s->prune && auto_moves(s))) { ok = 0; break; }
            int64_t j = keyat_get(at, cap, s->pos.key);
            if (j > best) { best = j; pick = m; }
            undo_to(s, p0);
        }
        if (!ok) break;
        if (pick >= 0) {
            FMove m = s->moves[pick];
            s->moves_len = mstart;
            ok = !apply_move(s, &m) && !(s->prune && auto_moves(s));
            i = best;
            continue;
        }
        s->moves_len = mstart;
        if (best > i) { i = best; continue; } /* a loop: this position comes back later */
        const Step *st = &line[i];
        int src = st->src == BQ ? BQ : column_with_top(s, st->card);
        int target = st->target == FOUND ? FOUND : column_with_top(s, onto[i]);
        if (src < 0 || target < 0 || (src == BQ && !(s->pos.bouquet >> st->card & 1))) { ok = 0; break; }
        ok = !step(s, st->card, src, target);
        i++;
    }
    ok = ok && s->pos.home == 52 && s->path_len <= n;
    if (!ok) { /* keep the original line (the path held it: room enough) */
        memcpy(s->path, line, (size_t)n * sizeof(Step));
        s->path_len = n;
    }
    free(line);
    free(onto);
    free(at);
}

