/* The stalled check's search (see stall.h): the seen set, the queue, the
 * loop. */
#include "stall.h"

#include <stdlib.h>
#include <string.h>

uint64_t stall_needed(const int found[4]) {
    uint64_t needed = 0;
    for (int s = 0; s < 4; s++)
        if (found[s] < 13) needed |= 1ULL << (s * 13 + found[s]);
    return needed;
}

static uint64_t hash_state(const StallState *s) {
    const uint64_t *q = (const uint64_t *)s;
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < sizeof(StallState) / 8; i++) {
        h ^= q[i];
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    return h;
}

/* Cards above the shallowest needed card (large when none is in a pile). */
static uint32_t distance(const StallSearch *x, const StallState *s) {
    uint32_t best = 1000;
    int k = 0;
    for (int i = 0; i < s->np; i++) {
        for (int d = 0; d < s->len[i]; d++)
            if ((x->needed >> s->seq[k + d]) & 1) {
                uint32_t above = (uint32_t)(s->len[i] - 1 - d);
                if (above < best) best = above;
            }
        k += s->len[i];
    }
    int empty = 0;
    for (int i = 0; i < s->np; i++) empty += s->len[i] == 0;
    return best * 8 + (uint32_t)(7 - empty);
}

/* Room for one more item in the array *items of *cap items of ``size``
 * bytes, n in use (doubling): 0, or -1 out of memory. */
static int reserve(void **items, size_t *cap, size_t n, size_t size) {
    if (n < *cap) return 0;
    size_t more = *cap ? *cap * 2 : 1024;
    void *p = realloc(*items, more * size);
    if (!p) return -1;
    *items = p;
    *cap = more;
    return 0;
}

static int heap_push(StallSearch *x, uint64_t v) {
    if (reserve((void **)&x->heap, &x->heapcap, x->nheap, sizeof *x->heap)) return -1;
    size_t i = x->nheap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (x->heap[p] <= v) break;
        x->heap[i] = x->heap[p];
        i = p;
    }
    x->heap[i] = v;
    return 0;
}

static uint64_t heap_pop(StallSearch *x) {
    uint64_t top = x->heap[0], v = x->heap[--x->nheap];
    size_t i = 0, n = x->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && x->heap[c + 1] < x->heap[c]) c++;
        if (v <= x->heap[c]) break;
        x->heap[i] = x->heap[c];
        i = c;
    }
    if (n) x->heap[i] = v;
    return top;
}

static int table_grow(StallSearch *x) {
    size_t size = x->table ? (x->tmask + 1) * 2 : 4096;
    uint32_t *t = calloc(size, sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < x->nstates; i++) {
        size_t j = hash_state(&x->states[i]) & (size - 1);
        while (t[j]) j = (j + 1) & (size - 1);
        t[j] = (uint32_t)(i + 1);
    }
    free(x->table);
    x->table = t;
    x->tmask = size - 1;
    return 0;
}

int stall_offer(StallSearch *x, const StallState *s) {
    if ((x->nstates + 1) * 4 > (x->tmask + 1) * 3 && table_grow(x) < 0) return -1;
    size_t j = hash_state(s) & x->tmask;
    while (x->table[j]) {
        if (!memcmp(&x->states[x->table[j] - 1], s, sizeof *s)) return 0;
        j = (j + 1) & x->tmask;
    }
    if (x->max_states >= 0 && (long long)x->nstates >= x->max_states) return -2;
    if (reserve((void **)&x->states, &x->cap, x->nstates, sizeof *x->states)) return -1;
    size_t idx = x->nstates++;
    x->states[idx] = *s;
    x->table[j] = (uint32_t)(idx + 1);
    uint64_t h = distance(x, s);
    if (heap_push(x, (h << 32) | (0xffffffffULL - idx)) < 0) return -1;
    return 1;
}

static int run(StallSearch *x, const StallState *root, StallExpand expand, void *game) {
    /* Won, or a needed card already available: a pile top, or anywhere in the bouquet. */
    int k = 0, cards = __builtin_popcountll(root->bouquet);
    if (root->bouquet & x->needed) return 0;
    for (int i = 0; i < root->np; i++) {
        k += root->len[i];
        cards += root->len[i];
        if (root->len[i] && ((x->needed >> root->seq[k - 1]) & 1)) return 0;
    }
    if (!cards) return 0;
    int r = stall_offer(x, root);
    if (r < 0) return r == -2 ? -1 : -4;
    while (x->nheap) {
        uint64_t v = heap_pop(x);
        size_t idx = 0xffffffffULL - (v & 0xffffffffULL);
        StallState cur = x->states[idx];
        r = expand(x, &cur, game);
        if (r == STALL_SHOWN) return 0;
        if (r == -2) return -1;
        if (r == -1) return -4;
    }
    return 1;
}

int stall_run(StallSearch *x, const StallState *root, StallExpand expand, void *game) {
    int status = run(x, root, expand, game);
    free(x->states);
    free(x->table);
    free(x->heap);
    x->states = NULL;
    x->table = NULL;
    x->heap = NULL;
    return status;
}
