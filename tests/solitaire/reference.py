"""An independent, deliberately naive statement of the rules, used only to
cross-check the engine's move generation (perft counts). It shares no code
with ``solitaire``: cards are strings, foundations a dict, every rule spelled
out the slow, obvious way from docs/rules/."""

from __future__ import annotations

RANKS = "A23456789TJQK"


def _cards(field: str) -> list[str]:
    return [] if field == "-" else [field[i : i + 2] for i in range(0, len(field), 2)]


def parse(text: str):
    game, rest = text.split(" ", 1)
    if game == "cruel":
        piles = [_cards(f) for f in rest.split("/")]
        return {"game": game, "piles": piles, "bouquet": []}
    cols, bouquet = rest.split(" ")
    return {"game": game, "piles": [_cards(f) for f in cols.split("/")], "bouquet": _cards(bouquet)}


def _home(state) -> dict[str, int]:
    """Cards on each foundation = 13 minus that suit's cards still in play."""
    in_play = [c for p in state["piles"] for c in p] + state["bouquet"]
    return {s: 13 - sum(1 for c in in_play if c[1] == s) for s in "CDHS"}


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _redealt(piles):
    seq = [c for p in piles for c in p]
    return [seq[4 * i : 4 * i + 4] for i in range(len(piles))]


def moves(state) -> list[tuple[str, str]]:
    """(card, target) pairs: target 'F', a 1-based pile number as text, or ('', 'R')."""
    home = _home(state)
    piles = state["piles"]
    out = []
    if state["game"] == "cruel":
        for i, p in enumerate(piles):
            if not p:
                continue
            card = p[-1]
            if home[card[1]] == _rank(card):
                out.append((card, "F"))
            for j, q in enumerate(piles):
                if j != i and q and q[-1][1] == card[1] and _rank(q[-1]) == _rank(card) + 1:
                    out.append((card, str(j + 1)))
        if _redealt(piles) != piles:
            out.append(("", "R"))
        return out
    sources = [(p[-1], i) for i, p in enumerate(piles) if p] + [(c, None) for c in state["bouquet"]]
    for card, src in sources:
        if home[card[1]] == _rank(card):
            out.append((card, "F"))
        for j, q in enumerate(piles):
            if j == src:
                continue
            if not q or _rank(q[-1]) == _rank(card) + 1:
                out.append((card, str(j + 1)))
    return out


def play(state, move):
    card, target = move
    piles = [list(p) for p in state["piles"]]
    bouquet = list(state["bouquet"])
    if target == "R":
        return {**state, "piles": _redealt(piles), "bouquet": bouquet}
    if card in bouquet:
        bouquet.remove(card)
    else:
        next(p for p in piles if p and p[-1] == card).pop()
    if target != "F":
        piles[int(target) - 1].append(card)
    return {**state, "piles": piles, "bouquet": bouquet}


def perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(state, m), depth - 1) for m in moves(state))


def token(move) -> str:
    card, target = move
    return "R" if target == "R" else f"{card}>{target}"
