/* The position: moves played and undone, safe foundation moves (rule 1),
 * move generation (rules 2-4), and the best-first runs' evaluation. */
#include "table.h"

/* ---- state changes ---------------------------------------------------- */

/* Move card c from src (column or BQ) to target (column or FOUND). */
int step(Search *s, int c, int src, int target) {
    RESERVE(s->path, s->path_len, s->path_cap, 1);
    Step *st = &s->path[s->path_len++];
    st->card = c;
    st->src = src;
    st->target = target;
    if (src == BQ) {
        s->pos.bouquet &= ~(1ULL << c);
        hb(s, c);
        st->parent_from = BASE;
        if (s->abstract.on) ak_bouquet(s, c, -1);
    } else {
        s->pos.len[src]--;
        int p = parent_of(s, src);
        st->parent_from = p;
        hx(s, c, p);
        if (s->abstract.on) ak_pop(s, src);
    }
    if (target == FOUND) {
        if (s->abstract.on) ak_found(s, c / 13, s->pos.found[c / 13], s->pos.found[c / 13] + 1);
        s->pos.found[c / 13]++;
        s->pos.home++;
    } else {
        hx(s, c, parent_of(s, target));
        if (s->abstract.on) ak_push(s, target, c);
        s->pos.col[target][s->pos.len[target]++] = c;
    }
    return 0;
}

static void unstep(Search *s) {
    Step *st = &s->path[--s->path_len];
    int c = st->card;
    if (st->target == FOUND) {
        if (s->abstract.on) ak_found(s, c / 13, s->pos.found[c / 13], s->pos.found[c / 13] - 1);
        s->pos.found[c / 13]--;
        s->pos.home--;
    } else {
        s->pos.len[st->target]--;
        hx(s, c, parent_of(s, st->target));
        if (s->abstract.on) ak_pop(s, st->target);
    }
    if (st->src == BQ) {
        s->pos.bouquet |= 1ULL << c;
        hb(s, c);
        if (s->abstract.on) ak_bouquet(s, c, 1);
    } else {
        hx(s, c, st->parent_from);
        if (s->abstract.on) ak_push(s, st->src, c);
        s->pos.col[st->src][s->pos.len[st->src]++] = c;
    }
}

void undo_to(Search *s, int64_t plen) {
    while (s->path_len > plen) unstep(s);
}

/* Rule 1: a card of rank r goes home when its foundation needs it and every
 * card of rank r - 1 is home (r <= the lowest foundation height). */
int auto_moves(Search *s) {
    int progress = 1;
    while (progress) {
        progress = 0;
        int low = s->pos.found[0];
        for (int i = 1; i < 4; i++)
            if (s->pos.found[i] < low) low = s->pos.found[i];
        for (int j = 0; j < NCOL; j++) {
            if (!s->pos.len[j]) continue;
            int c = s->pos.col[j][s->pos.len[j] - 1], su = c / 13, r = c % 13;
            if (s->pos.found[su] == r && r <= low) {
                if (step(s, c, j, FOUND)) return -1;
                progress = 1;
            }
        }
        for (int su = 0; su < 4; su++) {
            int r = s->pos.found[su];
            if (r < 13 && r <= low && (s->pos.bouquet >> (su * 13 + r) & 1)) {
                if (step(s, su * 13 + r, BQ, FOUND)) return -1;
                progress = 1;
            }
        }
    }
    return 0;
}

/* ---- move generation -------------------------------------------------- */

typedef struct {
    uint64_t bq_by_rank[13]; /* bouquet cards of each rank */
    int tops_by_rank[14][NCOL + 1];
    int ntops[14];
    int empty;
    int buried[NCOL];
} Ctx;

static int push_move(Search *s, int score, int card, int src, int target, int n, const uint8_t *chain) {
    RESERVE(s->moves, s->moves_len, s->moves_cap, 1);
    FMove *m = &s->moves[s->moves_len++];
    m->score = (int16_t)score;
    m->card = card;
    m->src = src;
    m->target = target;
    m->n = n;
    if (n) memcpy(m->chain, chain, n);
    return 0;
}

static int chains(Search *s, Ctx *x, int card, int src, uint8_t *chain, int n, int rank, int score) {
    if (rank > 12) return 0;
    uint64_t bs = x->bq_by_rank[rank];
    while (bs) {
        int b = __builtin_ctzll(bs);
        bs &= bs - 1;
        chain[n] = b;
        if (rank + 1 <= 12) {
            for (int i = 0; i < x->ntops[rank + 1]; i++) {
                int j = x->tops_by_rank[rank + 1][i];
                if (push_move(s, score + n + 2 + (x->buried[j] ? 2 : 0), card, src, j, n + 1, chain)) return -1;
            }
        }
        if (x->empty >= 0)
            if (push_move(s, score + n + 2 + 3, card, src, x->empty, n + 1, chain)) return -1;
        if (chains(s, x, card, src, chain, n + 1, rank + 1, score)) return -1;
    }
    return 0;
}

int gen_moves(Search *s) {
    Ctx x;
    memset(&x, 0, sizeof x);
    x.empty = -1;
    for (int j = 0; j < NCOL; j++) {
        if (s->pos.len[j]) {
            int r = s->pos.col[j][s->pos.len[j] - 1] % 13;
            x.tops_by_rank[r][x.ntops[r]++] = j;
        } else if (x.empty < 0) {
            x.empty = j;
        }
    }
    /* next card each foundation needs: burying it is bad, uncovering it good
     * (scores order only the greedy mode's moves: the complete search skips this) */
    if (s->greedy) {
        uint64_t needed = 0;
        for (int su = 0; su < 4; su++)
            if (s->pos.found[su] < 13) needed |= 1ULL << (su * 13 + s->pos.found[su]);
        for (int j = 0; j < NCOL; j++)
            for (int i = 0; i + 1 < s->pos.len[j]; i++)
                if (needed >> s->pos.col[j][i] & 1) { x.buried[j] = 1; break; }
    }
    int any_bq = 0;
    for (uint64_t m = s->pos.bouquet; m; m &= m - 1) {
        int c = __builtin_ctzll(m), su = c / 13, r = c % 13;
        if (s->pos.found[su] == r)
            if (push_move(s, 0, c, BQ, FOUND, 0, NULL)) return -1;
        x.bq_by_rank[r] |= 1ULL << c;
        any_bq = 1;
    }
    if (s->abstract.on) {
        /* alike bouquet cards make alike chains: keep one of each rank */
        for (int r = 0; r < 13; r++) {
            uint64_t h = x.bq_by_rank[r] & s->abstract.high;
            if (h) x.bq_by_rank[r] = (x.bq_by_rank[r] & ~s->abstract.high) | (h & (~h + 1));
        }
    }
    uint8_t chain[MAXCH];
    for (int src = 0; src < NCOL; src++) {
        int n = s->pos.len[src];
        if (!n) continue;
        int c = s->pos.col[src][n - 1], su = c / 13, r = c % 13;
        if (s->pos.found[su] == r)
            if (push_move(s, 0, c, src, FOUND, 0, NULL)) return -1;
        int base = 10;
        if (n == 1) {
            base -= 3;
        } else {
            int t = s->pos.col[src][n - 2];
            if (s->pos.found[t / 13] == t % 13) base -= 6;
            else if (x.buried[src]) base -= 2;
        }
        if (r + 1 <= 12) {
            for (int i = 0; i < x.ntops[r + 1]; i++) {
                int j = x.tops_by_rank[r + 1][i];
                if (push_move(s, base + (x.buried[j] ? 2 : 0), c, src, j, 0, NULL)) return -1;
            }
        }
        if (x.empty >= 0 && n > 1)
            if (push_move(s, base + 3, c, src, x.empty, 0, NULL)) return -1;
        if (any_bq)
            if (chains(s, &x, c, src, chain, 0, r + 1, base + 1)) return -1;
    }
    return 0;
}


/* Heuristic weights (the best-first order only): cards lying on the next
 * card of a suit, on the one after, cards not built on a rank one higher,
 * empty columns. The weight of a card lying on a lower card of its own
 * suit is the run's ``blocked`` (the solver's settings). */
enum { W_NEXT = 10, W_NEXT2 = 3, W_UNSORTED = 2, W_EMPTY = 6 };

/* How far the position is from won (lower is better), for the best-first
 * order only: cards not home, cards lying on the next card each suit needs,
 * column cards not built on a card one rank higher, and with ``blocked``
 * cards lying on a lower card of their suit (each must leave its column
 * before that card can go home). */
int evaluate(const Search *s, int blocked) {
    int h = 64 * (52 - s->pos.home);
    uint8_t next[52] = {0}; /* each card's weight per card above it */
    for (int su = 0; su < 4; su++) {
        int f = s->pos.found[su];
        if (f < 13) next[su * 13 + f] = W_NEXT;
        if (f < 12) next[su * 13 + f + 1] = W_NEXT2;
    }
    for (int j = 0; j < NCOL; j++) {
        int n = s->pos.len[j];
        if (!n) {
            h -= W_EMPTY;
            continue;
        }
        const uint8_t *col = s->pos.col[j];
        int lowest[4] = {13, 13, 13, 13}; /* the lowest rank of each suit so far */
        for (int i = 0; i < n; i++) {
            int c = col[i], su = SUIT[c], r = RANK[c];
            h += next[c] * (n - 1 - i);
            if (i && RANK[col[i - 1]] != r + 1) h += W_UNSORTED;
            if (blocked) {
                if (r > lowest[su]) h += blocked;
                else lowest[su] = r;
            }
        }
    }
    return h;
}

/* Order the moves generated at [mstart, mlen) by the evaluation of the
 * position each one leads to (after its safe foundation moves). */
int score_moves(Search *s, int64_t mstart) {
    int64_t p0 = s->path_len;
    for (int64_t i = mstart; i < s->moves_len; i++) {
        FMove *m = &s->moves[i];
        if (apply_move(s, m)) return -1;
        if (s->prune && auto_moves(s)) return -1;
        int h = evaluate(s, 0);
        undo_to(s, p0);
        m->score = (int16_t)(h * 2 + (m->score > 1 ? 1 : 0));
    }
    return 0;
}

void sort_moves(FMove *m, int n) {
    /* stable insertion sort by score; move lists are short */
    for (int i = 1; i < n; i++) {
        FMove t = m[i];
        int j = i - 1;
        while (j >= 0 && m[j].score > t.score) {
            m[j + 1] = m[j];
            j--;
        }
        m[j + 1] = t;
    }
}

int apply_move(Search *s, const FMove *m) {
    for (int i = m->n - 1; i >= 0; i--)
        if (step(s, m->chain[i], BQ, m->target)) return -1;
    return step(s, m->card, m->src, m->target);
}

/* Put back a starting layout and empty the line. */
void set_layout(Search *s, const Layout *start) {
    s->pos = *start;
    s->path_len = 0;
}
