/* The abstract game (rule 6 in docs/solver.md): its key, and the complete
 * search's way of storing an expanded position's children at once. */
#include "table.h"

/* The abstract game's key: high cards of one rank are alike, so a column
 * is hashed as a sequence of codes (the (card, parent) pairs of the real
 * key would mix up two columns that cross at alike cards), the columns and
 * the bouquet as multisets (sums), and the foundations, no longer implied
 * by the cards left, are hashed in. ``step`` keeps it up to date (ak_* in
 * flower.h): column_key holds each column's prefix hashes, so a card put
 * on or taken off a column changes the sum by one term. */

/* The key from scratch (the starting layout). */
void ak_init(Search *s) {
    s->abstract.key.a = s->abstract.key.b = 0;
    for (int j = 0; j < NCOL; j++) {
        s->abstract.column_key[j][0].a = 0x243F6A8885A308D3ULL;
        s->abstract.column_key[j][0].b = 0x13198A2E03707344ULL;
        int n = s->pos.len[j];
        s->pos.len[j] = 0;
        ak_add(s, s->abstract.column_key[j][0]);
        for (int i = 0; i < n; i++) {
            ak_push(s, j, s->pos.col[j][i]);
            s->pos.len[j]++;
        }
    }
    for (uint64_t bq = s->pos.bouquet; bq; bq &= bq - 1) ak_bouquet(s, __builtin_ctzll(bq), 1);
    for (int su = 0; su < 4; su++) ak_found(s, su, 0, s->pos.found[su]);
}

/* Play the abstract game with these bounds (each suit's cards below its
 * bound are low, the others high) from the layout set up in ``s``. */
void abstract_setup(Search *s, const int low[4]) {
    s->abstract.on = 1;
    for (int su = 0; su < 4; su++) s->abstract.low[su] = low[su];
    for (int c = 0; c < 52; c++) {
        int high = c % 13 >= low[c / 13];
        s->abstract.code[c] = (uint8_t)(high ? 52 + c % 13 : c);
        if (high) s->abstract.high |= 1ULL << c;
    }
    ak_init(s);
}

/* The abstract game's search, the moves at [mstart, mlen) of the position
 * just expanded: each child is played once here and its key computed, its
 * slot in the table fetched ahead (probes made one by one as children are
 * entered are cache misses, a third of the search's time when waited for);
 * then the children already in the table are dropped and the new ones
 * stored at once. Each stored child is still entered from this frame
 * (``enter`` with ``stored``), so a complete search still expands every
 * position it stores. A won child is kept, unstored, for ``enter`` to see,
 * and with ``keep_first`` the first child is kept even when stored (the
 * guide's, see guide_pick). Returns the moves kept, or -1. */
int store_children(Search *s, int64_t mstart, int keep_first) {
    int64_t n = s->moves_len - mstart, p0 = s->path_len;
    if (n > s->abstract.child_keys_cap) {
        Key *k = realloc(s->abstract.child_keys, (size_t)n * sizeof(Key));
        if (!k) return -1;
        s->abstract.child_keys = k;
        s->abstract.child_keys_cap = n;
    }
    for (int64_t i = 0; i < n; i++) {
        if (apply_move(s, &s->moves[mstart + i])) return -1;
        if (s->prune && auto_moves(s)) return -1;
        if (won(s)) {
            s->abstract.child_keys[i].a = s->abstract.child_keys[i].b = 0; /* no key: kept as it is */
        } else {
            s->abstract.child_keys[i] = s->abstract.key;
            tt_prefetch(s, s->abstract.child_keys[i]);
        }
        undo_to(s, p0);
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
        Key k = s->abstract.child_keys[i];
        if (k.a || k.b) {
            int ins = tt_insert(s, k);
            if (ins < 0) return -1;
            if (!ins && !(i == 0 && keep_first)) continue;
        }
        s->moves[mstart + kept++] = s->moves[mstart + i];
    }
    s->moves_len = mstart + kept;
    return (int)kept;
}
