// What a gesture on a card means, from the API's list of legal moves only:
// a second click or tap on the same card soon after the first sends it home
// when "F" is one of its listed targets; with one-gesture moves on, a card
// with exactly one listed target plays there on the first click or tap.

import { targetsFor } from "./state.js";

export const DOUBLE_MS = 400;

/** The move token that sends `card` home, when the API lists that move. */
export function homeMove(attempt, card) {
  return card && targetsFor(attempt, card).includes("F") ? `${card}>F` : null;
}

/** True when this click on `card` at `now` (ms) completes a double click or tap. */
export function isDouble(last, card, now) {
  return Boolean(last && card && last.card === card && now - last.at <= DOUBLE_MS);
}

/** The only move of `card`, when the API lists exactly one. */
export function onlyMove(attempt, card) {
  const targets = targetsFor(attempt, card);
  return targets.length === 1 ? `${card}>${targets[0]}` : null;
}
