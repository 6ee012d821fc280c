/* The Cruel core: what its parts share, and what its verdicts rest on.
 * The module (../_cruel_c.c, which only converts between Python and C)
 * runs one depth-first search (search.c) or the stalled check (stall.c)
 * from a ``State``: position.c holds the rules (the moves and playing
 * them) for both, table.c keys the layouts and keeps the transposition
 * table, dead.c tests a layout for a frozen prefix. The search is the one
 * the tests' pure Python reference walks, an order of magnitude faster per
 * node. Below: the state, the table and the memory a search may take, the
 * key's collision bound, and the argument for each reduction.
 */
#ifndef CRUEL_H
#define CRUEL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* clock_gettime under -std=c11 */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NPILES 12
#define NCARDS 52
#define MAXSEQ 48
#define MAXMV 26
#define TGT_FOUND (-1)
#define TGT_REDEAL (-2)

/* State: the remaining cards as one sequence, pile 1 base .. pile 12 top
 * (exactly the order a redeal reads), plus the 12 pile lengths and the four
 * foundation heights: 65 bytes, copied into each frame of an explicit stack
 * (no recursion, no depth limit but memory). */
typedef struct {
    uint8_t seq[MAXSEQ];
    uint8_t len[NPILES];
    uint8_t found[4];
    uint8_t left;
} State;

/* A frame of the stack: its layout and its moves, ``next`` the one to try
 * next (the one taken is next - 1). */
typedef struct {
    State st;
    int8_t card[MAXMV];
    int8_t tgt[MAXMV];
    int8_t src[MAXMV];
    uint8_t nmv, next;
} Frame;

/* Transposition table: open addressing, linear probing, 16 bytes per slot
 * (a 128-bit key), at most 3/4 full, sized from the states budget: with
 * max_states = S it grows by doubling up to 2^ceil(log2(4S/3)) slots (at
 * most 2^26: 1 GB, 50 million states): 16 bytes / load, so between 21 bytes
 * per stored state (3/4 full, just before a doubling) and 43 (3/8 full, just
 * after). While it doubles, the old and the new table are both held (1.5 GB
 * at the last doubling); with the stack's cap of 256 MB (a frame is about
 * 150 bytes, the line is rarely deeper than a few hundred moves) a search
 * stays under 1.8 GB whatever the budget says. The key is a
 * Zobrist hash: two independent 64-bit tables Z[card][pile][depth] filled by
 * a fixed PRNG, XORed over the cards. Two distinct layouts differ in at least
 * one (card, pile, depth) feature, so for random tables their keys collide
 * with probability 2^-128 (minus one bit spent to mark used slots: 2^-127);
 * over a search storing N states the chance that any two ever merge is at
 * most N^2 / 2^128: 3e-24 for N = 40 million. A merge could only make the
 * search skip a layout (a solution would still be replayed by the engine,
 * but an UNSOLVABLE verdict would rest on it), so that is the bound on a
 * wrong UNSOLVABLE verdict per solve. */
typedef struct {
    uint64_t *slots; /* 2 per slot */
    uint64_t mask;
    uint64_t count;
} Table;

/* The table never exceeds 2^26 slots (1 GB, 50 million states). */
#define MAX_SLOTS ((uint64_t)1 << 26)
/* The explicit stack may take at most this many bytes (it grows by
 * doubling); deeper lines end the search as a states (memory) limit. */
#define MAX_STACK_BYTES ((size_t)256 << 20)

/* Sound reductions (prune=1; prune=0 keys the exact layout and searches
 * exactly the tree of the tests' reference search, PyCruelSearch):
 *
 * 1. Empty piles are keyed by their rank among the non-empty piles, not by
 *    their number. Two layouts whose non-empty piles are the same and in the
 *    same order (only the places of the empty piles differ) have the same
 *    reachable futures: a move depends only on the top cards (never on pile
 *    numbers), and maps the two layouts to two layouts again alike in this
 *    sense; an empty pile never receives a card; a redeal reads only the
 *    non-empty piles in order, so it gives the same exact layout from both.
 *    The one asymmetry: one of them may be grouped (4, 4, .., rest: redeal
 *    illegal) while the other is not; then the other's redeal gives exactly
 *    the grouped one, which is already the same class. So the classes
 *    reachable from either are the same, and the win is a property of the
 *    class (all cards home).
 * 2. Dead layouts are not searched (a dead root is UNSOLVABLE at once):
 *    the case of 3 where the first pile holds a card x at depth <= 2 under
 *    a higher card y of its suit that never leaves (a king, or its
 *    successor below it), for example 2S with KS on it. The code tests 3.
 * 3. Dead layouts, more generally: a frozen prefix. Let P be the first L
 *    cards of the sequence (positions 0..L-1; see PREFIX_MAX). Call a
 *    position of P "open" when its card is a top now (it ends its pile) or
 *    may be one later: after any redeal (position 3, 7, 11, ...), or when the
 *    cards above it leave (only position L-1 can be uncovered that way: the
 *    cards above any other position of P are cards of P). If every card y at
 *    an open position has (i) a lower card of its suit in P, (ii) no
 *    successor, or its successor in P at a position that is not open, and
 *    (iii) unless y is at L-1, its predecessor in P, then no card of P ever
 *    leaves, and the deal is lost. Why: suppose all of P still lies at
 *    positions 0..L-1, and look at the first event that changes that. Cards
 *    enter the sequence only onto a top, so one placed before position L-1
 *    lands on an open position p < L-1 and is y - 1 for the card y there,
 *    which lies in P (iii): that would be a card of P leaving. A card of P
 *    leaves only from a top (an open position): home needs every lower card
 *    of its suit home, but one is in P (i); onto its successor needs that
 *    card on top of another pile, but it is a king or its successor sits at
 *    a closed position of P (ii), covered by cards of P. A redeal keeps the
 *    order and removes nothing, and the cuts fall at the same positions.
 *    So no first event exists: P stays, and its cards never go home.
 *    Tested against the brute force.
 * No foundation move is forced: a card's presence shifts how every later
 * card is grouped at the next redeal, so sending it home is not provably
 * harmless (see _cruel.py).
 */

/* ---- table.c: keys and the transposition table ---- */

void init_zobrist(void);
void key_of(const State *st, int prune, uint64_t *a, uint64_t *b);
int table_insert(Table *t, uint64_t a, uint64_t b);
int table_grow(Table *t);

/* ---- position.c: the rules (a layout's moves, playing one) ---- */

/* A layout's moves as the rules give them, each with the search's score. */
typedef struct {
    int score[MAXMV], card[MAXMV], tgt[MAXMV], src[MAXMV], n;
} MoveList;

int grouped(const State *st); /* in groups of 4: a redeal would change nothing */
void list_moves(const State *st, MoveList *out);
void gen_moves(Frame *f, int greedy);
void apply_move(State *st, int c, int src, int tgt);

/* ---- stall.c: the stalled check on these rules (../shared_c/stall.h) ---- */

/* 1 stalled, 0 not (or won), -1 the states budget ran out, -4 out of
 * memory; *states: the layouts stored. */
int cruel_stalled(const State *root, long long max_states, long long *states);

/* ---- dead.c: reduction 3 ---- */

/* Prefixes of up to lmax cards are tried: all of them at the root, up to
 * PREFIX_MAX at the other nodes (longer ones rarely add a proof and cost a
 * third of the speed). */
#define PREFIX_MAX 16
int dead_prefix(const State *st, int lmax);

/* ---- search.c: the search ---- */

int run_search(const State *root, int greedy, int prune, long long max_nodes, double max_seconds,
               long long max_states, long long *nodes_out, long long *states_out, int8_t **path_card,
               int8_t **path_tgt, int *path_len);

#endif
