/* The stalled check's search, shared by both games' modules: can any card
 * still reach a foundation?
 *
 * The space searched is every layout reachable by moves that are not to a
 * foundation. Since no card goes home, the foundations stay fixed, and so
 * do the cards each suit needs next (``needed``). A needed card in the
 * bouquet is available at once; one in a pile becomes available exactly
 * when the card above it leaves. The game's rules unit (cruel_c/stall.c,
 * flower_c/stall.c) generates and plays the moves: for each layout this
 * search hands it, it offers every child (stall_offer), or says that one
 * shows a needed card (STALL_SHOWN).
 *
 * Order: best first on the fewest cards above a needed card, newest first on
 * ties (depth-first along the best line). A position that is not stalled is
 * usually decided in a few dozen states; a stalled one needs the whole space.
 *
 * Layouts are kept whole and canonical (the game's pack: Flower Garden's
 * columns sorted, as they are interchangeable; Cruel's empty piles dropped,
 * since moves look only at tops and a redeal reads the non-empty piles in
 * order: the argument of reduction 1 in cruel_c/cruel.h), 80 bytes each,
 * and the seen set compares them byte for byte: no hash collision can merge
 * two layouts, so "stalled" is exact. Memory: about 100 bytes per stored
 * state (state, table slot, heap entry), so the default budget of 200,000
 * states is about 20 MB.
 */
#ifndef STALL_H
#define STALL_H

#include <stddef.h>
#include <stdint.h>

#define STALL_PILES 12

/* A canonical layout: the piles, base to top, one after the other. */
typedef struct {
    uint64_t bouquet; /* bit c set: card c is in the bouquet */
    uint8_t np;       /* piles kept */
    uint8_t len[STALL_PILES];
    uint8_t seq[52]; /* pile 0 base .. top, pile 1 ..., zero after the last card */
    uint8_t pad[3];
} StallState;

typedef struct StallSearch StallSearch;

/* Offer every child of ``s`` through stall_offer: STALL_SHOWN when one shows
 * a needed card, -1 out of memory, -2 the budget ran out, else 0. */
typedef int (*StallExpand)(StallSearch *x, const StallState *s, void *game);

enum { STALL_SHOWN = 2 };

struct StallSearch {
    uint64_t needed; /* bit c: card c is the next its foundation takes */
    long long max_states;
    StallState *states;
    size_t nstates, cap;
    uint32_t *table; /* index + 1, 0 = empty */
    size_t tmask;
    uint64_t *heap; /* (h << 32) | (0xffffffff - index): fewest first, newest first */
    size_t nheap, heapcap;
};

/* The cards the foundations at these heights take next. */
uint64_t stall_needed(const int found[4]);

/* Store a new state and queue it: 1 stored, 0 seen before, -1 out of
 * memory, -2 budget spent. */
int stall_offer(StallSearch *x, const StallState *s);

/* The search from ``root``: 1 stalled, 0 not stalled (or no card is left:
 * won), -1 the states budget ran out, -4 out of memory. Frees what it
 * allocated; x->nstates says how many layouts it stored. */
int stall_run(StallSearch *x, const StallState *root, StallExpand expand, void *game);

#endif
