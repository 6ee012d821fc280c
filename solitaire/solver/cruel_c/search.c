/* The search: a depth-first search over an explicit stack of frames, each
 * new layout tested dead (prune=1), keyed and stored once, within the
 * budgets of nodes, seconds and states and the memory caps of cruel.h; on
 * a win it returns the line of moves. */
#include "cruel.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CLOCK_EVERY 4096

/* The status: 1 won (the line in path_card / path_tgt, malloc'd, path_len
 * moves), 0 the reachable space exhausted, -1 nodes, -2 seconds, -3 states
 * budget spent (or the table or the stack out of room), -4 out of memory
 * before the search or for the line. A budget below 0: none. */
int run_search(const State *root, int greedy, int prune, long long max_nodes,
               double max_seconds, long long max_states, long long *nodes_out,
               long long *states_out, int8_t **path_card, int8_t **path_tgt,
               int *path_len) {
    *nodes_out = 0;
    *states_out = 0;
    *path_len = 0;
    *path_card = NULL;
    *path_tgt = NULL;
    if (root->left == 0) return 1;
    /* table: at most 3/4 full; it starts small and doubles as it fills, up
     * to the size the states budget needs (never above MAX_SLOTS) */
    uint64_t want = 1024;
    uint64_t cap_states = max_states >= 0 ? (uint64_t)max_states + 2 : MAX_SLOTS;
    while (want * 3 / 4 < cap_states && want < MAX_SLOTS) want <<= 1;
    uint64_t hard_states = want * 3 / 4;
    uint64_t first = want < ((uint64_t)1 << 16) ? want : ((uint64_t)1 << 16);
    Table t;
    t.mask = first - 1;
    t.count = 0;
    t.slots = calloc(first * 2, sizeof(uint64_t));
    if (!t.slots) return -4;
    size_t cap = 1024;
    Frame *stack = malloc(cap * sizeof(Frame));
    if (!stack) {
        free(t.slots);
        return -4;
    }
    double deadline = max_seconds >= 0 ? now_s() + max_seconds : 0;
    long long nodes = 0;
    long long next_clock = CLOCK_EVERY;
    int status = 0;
    size_t sp = 0;
    uint64_t a, b;

    if (prune && (dead_prefix(root, MAXSEQ))) goto done; /* status 0, nodes 0 */
    key_of(root, prune, &a, &b);
    table_insert(&t, a, b);
    nodes = 1;
    if (max_nodes >= 0 && nodes > max_nodes) { status = -1; goto done; }
    if (max_states >= 0 && (long long)t.count > max_states) { status = -3; goto done; }
    stack[0].st = *root;
    gen_moves(&stack[0], greedy);
    sp = 1;
    while (sp > 0) {
        Frame *f = &stack[sp - 1];
        if (f->next >= f->nmv) {
            sp--;
            continue;
        }
        int c = f->card[f->next], tg = f->tgt[f->next], sr = f->src[f->next];
        f->next++;
        if (sp == cap) {
            if ((cap * 2) * sizeof(Frame) > MAX_STACK_BYTES) { status = -3; goto done; }
            Frame *ns = realloc(stack, cap * 2 * sizeof(Frame));
            if (!ns) { status = -3; goto done; }
            stack = ns;
            cap *= 2;
            f = &stack[sp - 1];
        }
        Frame *g = &stack[sp];
        g->st = f->st;
        apply_move(&g->st, c, sr, tg);
        if (g->st.left == 0) {
            status = 1;
            sp++;
            break;
        }
        if (prune && (dead_prefix(&g->st, PREFIX_MAX))) continue;
        key_of(&g->st, prune, &a, &b);
        if (!table_insert(&t, a, b)) continue;
        nodes++;
        if (max_nodes >= 0 && nodes > max_nodes) { status = -1; goto done; }
        if (max_states >= 0 && (long long)t.count > max_states) { status = -3; goto done; }
        if (t.count >= hard_states) { status = -3; goto done; }
        if (t.count >= (t.mask + 1) / 4 * 3 && table_grow(&t) < 0) { status = -3; goto done; }
        if (nodes >= next_clock) {
            next_clock = nodes + CLOCK_EVERY;
            if (max_seconds >= 0 && now_s() > deadline) { status = -2; goto done; }
        }
        gen_moves(g, greedy);
        sp++;
    }
    if (status == 1) {
        /* frames 0 .. sp-2 each hold the move taken from them */
        int n = (int)sp - 1;
        *path_card = malloc(n > 0 ? n : 1);
        *path_tgt = malloc(n > 0 ? n : 1);
        if (!*path_card || !*path_tgt) {
            free(*path_card);
            free(*path_tgt);
            *path_card = *path_tgt = NULL;
            status = -4;
            goto done;
        }
        for (int i = 0; i < n; i++) {
            (*path_card)[i] = stack[i].card[stack[i].next - 1];
            (*path_tgt)[i] = stack[i].tgt[stack[i].next - 1];
        }
        *path_len = n;
    }
done:
    *nodes_out = nodes;
    *states_out = (long long)t.count;
    free(stack);
    free(t.slots);
    return status;
}
