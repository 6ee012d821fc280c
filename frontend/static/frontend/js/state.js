// The state of the play page, apart from the DOM. Pure functions over the
// attempt the API returned: which cards may be picked up, where the selected
// card may go, and what a move the API listed as legal looks like before the
// server answers. The browser never decides what is legal: it reads `legal`.

import { parseCard, parseMove, SUIT_ORDER } from "./notation.js";

/** The legal targets of `card` ("F" or a pile/column number as text). */
export function targetsFor(attempt, card) {
  if (!attempt || !card) return [];
  const entry = (attempt.legal ?? []).find((item) => item.card === card);
  return entry ? entry.targets.map(String) : [];
}

/** Cards the API lists with at least one legal target. */
export function movableCards(attempt) {
  return new Set((attempt?.legal ?? []).filter((e) => e.targets.length).map((e) => e.card));
}

export function isListedLegal(attempt, token) {
  const move = parseMove(token);
  if (move.redeal) return Boolean(attempt?.can_redeal);
  return targetsFor(attempt, move.card).includes(move.target);
}

export function isActive(attempt) {
  return Boolean(attempt) && !attempt.finished && attempt.status === "playing";
}

/** Piles (Cruel) or columns (Flower) of a structured position. */
export function stacksOf(position) {
  return position.game === "cruel" ? position.piles : position.columns;
}

/** Where a card lies: {area: "stack"|"bouquet"|"foundation", index, depth} or null. */
export function locateCard(position, card) {
  const stacks = stacksOf(position);
  for (let i = 0; i < stacks.length; i += 1) {
    const depth = stacks[i].indexOf(card);
    if (depth >= 0) return { area: "stack", index: i, depth };
  }
  const inBouquet = (position.bouquet ?? []).indexOf(card);
  if (inBouquet >= 0) return { area: "bouquet", index: inBouquet, depth: 0 };
  const { suit, rank } = parseCard(card);
  const foundation = position.foundations.find((f) => f.suit === suit);
  if (foundation && foundation.count >= "A23456789TJQK".indexOf(rank) + 1) {
    return { area: "foundation", index: SUIT_ORDER.indexOf(suit), depth: 0 };
  }
  return null;
}

/**
 * The position as it will look after a move the API listed as legal, for
 * showing it before the answer arrives. It only carries the card from where
 * it lies to where the move names (a display step, not a rule); a redeal is
 * not predicted: the page waits for the server's layout.
 */
export function previewMove(position, token) {
  const move = parseMove(token);
  if (move.redeal) return null;
  const where = locateCard(position, move.card);
  if (!where || where.area === "foundation") return null;
  const key = position.game === "cruel" ? "piles" : "columns";
  const stacks = position[key].map((stack) => stack.slice());
  const bouquet = (position.bouquet ?? []).slice();
  if (where.area === "stack") stacks[where.index].splice(where.depth, 1);
  else bouquet.splice(where.index, 1);
  let foundations = position.foundations;
  let cardsHome = position.cards_home;
  if (move.target === "F") {
    const { suit } = parseCard(move.card);
    foundations = position.foundations.map((f) => (
      f.suit === suit ? { ...f, count: f.count + 1, top: move.card } : f
    ));
    cardsHome += 1;
  } else {
    stacks[Number(move.target) - 1].push(move.card);
  }
  const next = { ...position, [key]: stacks, foundations, cards_home: cardsHome };
  if (position.game === "flower") next.bouquet = bouquet;
  return next;
}

/** An attempt shown optimistically: the previewed position, nothing selectable. */
export function optimisticAttempt(attempt, token) {
  const position = previewMove(attempt.position, token);
  if (!position) return null;
  return {
    ...attempt,
    position,
    legal: [],
    can_redeal: false,
    can_undo: false,
    counters: { ...attempt.counters, cards_home: position.cards_home, moves: (attempt.counters?.moves ?? 0) + 1 },
    pending: token,
  };
}

/** Seconds of play to show now, from the server's elapsed_seconds when it was received. */
export function runningSeconds(attempt, receivedAtMs, nowMs) {
  if (!attempt) return 0;
  const base = Number(attempt.elapsed_seconds) || 0;
  if (attempt.finished || attempt.ended_at) return base;
  return base + Math.max(0, nowMs - receivedAtMs) / 1000;
}

/**
 * What a click on a slot means, given the selection: {action: "select"|"move"|"deselect"|"none", ...}.
 * `slot` is {kind: "stack"|"bouquet"|"foundation", index, card} where `card` is the
 * available card there (the top of a stack, the bouquet card), if any.
 */
export function clickIntent(attempt, selected, slot) {
  const movable = movableCards(attempt);
  if (selected) {
    if (slot.card === selected) return { action: "deselect" };
    const target = slotTarget(slot, selected);
    if (target && targetsFor(attempt, selected).includes(target)) {
      return { action: "move", token: `${selected}>${target}` };
    }
    if (slot.card && movable.has(slot.card)) return { action: "select", card: slot.card };
    if (target) return { action: "move", token: `${selected}>${target}` };
    return { action: "deselect" };
  }
  if (slot.card && movable.has(slot.card)) return { action: "select", card: slot.card };
  return { action: "none" };
}

/**
 * The move target a slot stands for: "F", a 1-based number as text, or null
 * (the bouquet). "F" names the card's own foundation (docs/notation.md), so with a
 * `card` given, the foundation of another suit stands for no target.
 */
export function slotTarget(slot, card = null) {
  if (slot.kind === "foundation") {
    if (card && SUIT_ORDER[slot.index] !== parseCard(card).suit) return null;
    return "F";
  }
  if (slot.kind === "stack") return String(slot.index + 1);
  return null;
}
