// What a gesture on a card means, from the API's list of legal moves only:
// a second click or tap on the same card soon after the first sends it home
// when "F" is one of its listed targets; with one-gesture moves on, a card
// with exactly one listed target plays there on the first click or tap.
// A click that sent a move starts no double: the card it moved is elsewhere,
// and the next click on it is a gesture of its own. One exception: a single
// click that sent its card by one gesture may be the first half of a double
// click, and the second half, landing on the card beneath, is dropped.

import { targetsFor } from "./state.js";

export const DOUBLE_MS = 400;

/** The move token that sends `card` home, when the API lists that move. */
export function homeMove(attempt, card) {
  return card && targetsFor(attempt, card).includes("F") ? `${card}>F` : null;
}

/**
 * True when this click on `card` at `now` (ms) completes a double click or
 * tap. `last`: the click before, {card, at}, or {sent: true, onCard, at} when
 * it sent a move (onCard: by one gesture on its card).
 */
export function isDouble(last, card, now, detail = 0) {
  // The browser's own count (detail 2 and up) wins over the clock: on a busy
  // machine the two halves of one double click can come more than DOUBLE_MS apart.
  return Boolean(last && !last.sent && card && last.card === card && (detail >= 2 || now - last.at <= DOUBLE_MS));
}

/**
 * True when `click` ({at, detail}) is the second half of a double click
 * whose first half sent its card away by one gesture: it lands on the card
 * that lay beneath, and must neither move nor select that one. The browser
 * counts the clicks (`detail`: 2 for a double click's second, by the
 * system's own time and distance); a click of the page's own counts 0.
 */
export function isEcho(last, click) {
  return Boolean(last?.sent && last.onCard && click.detail >= 2);
}

/** The only move of `card`, when the API lists exactly one. */
export function onlyMove(attempt, card) {
  const targets = targetsFor(attempt, card);
  return targets.length === 1 ? `${card}>${targets[0]}` : null;
}
