/* A search's buffers: a new search from a starting one, and freeing them.
 * The module (../_flower_c.c) and the portfolio (portfolio.c) make
 * searches; each frees its own. */
#include "table.h"

/* A search with the layout and options of ``start`` and buffers of its own
 * (none yet): nothing spent, no guide. NULL when out of memory. */
Search *search_fork(const Search *start) {
    Search *b = malloc(sizeof(Search));
    if (!b) return NULL;
    *b = *start;
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
    return b;
}

/* Free the buffers of ``s`` (not ``s`` itself). */
void free_search(Search *s) {
    tt_free(s->table.slot, s->table.cap);
    free(s->path);
    free(s->moves);
    free(s->frames);
    free(s->guide.card);
    free(s->guide.onto);
    free(s->abstract.child_keys);
}
