// The play page's sentences: what a move did, how an attempt stands, a past
// day's record. Each takes the game and the translation functions (Django's
// catalog on the page, identity in node), so the words have one home.

import { fill, formatTenths, redealsText, undosText } from "./format.js";
import { cardName, cardText, parseMove } from "./notation.js";

const identity = (text) => text;
const identityN = (singular, plural, n) => (n === 1 ? singular : plural);

function placeWords(game, target, gettext) {
  const where = game === "cruel" ? gettext("pile %(n)s") : gettext("column %(n)s");
  return fill(where, { n: target });
}

/** How an attempt stands, in one sentence ("" while it is played). */
export function statusSentence(attempt, gettext = identity) {
  return {
    won: gettext("All 52 cards are home: you won!"),
    blocked: gettext("No move is left: the game is blocked."),
    stalled: gettext("No card can reach a foundation any more: the game is stalled."),
    abandoned: gettext("You ended this attempt."),
  }[attempt.status] ?? "";
}

/** What the screen reader hears after a move: the move, the cards home, how it stands. */
export function describeAfterMove(game, token, attempt, gettext = identity) {
  const move = parseMove(token);
  const parts = [];
  if (move.redeal) parts.push(gettext("Redealt."));
  else if (move.target === "F") parts.push(fill(gettext("%(card)s to its foundation."), { card: cardName(move.card, gettext) }));
  else {
    parts.push(fill(gettext("%(card)s onto %(where)s."), {
      card: cardName(move.card, gettext), where: placeWords(game, move.target, gettext),
    }));
  }
  parts.push(fill(gettext("%(n)s of 52 cards home."), { n: attempt.counters.cards_home }));
  parts.push(statusSentence(attempt, gettext));
  return parts.filter(Boolean).join(" ");
}

/** After a batch of moves home. */
export function describeBatch(tokens, attempt, gettext = identity, ngettext = identityN) {
  return [
    fill(ngettext("%(n)s card sent home.", "%(n)s cards sent home.", tokens.length), { n: tokens.length }),
    fill(gettext("%(n)s of 52 cards home."), { n: attempt.counters.cards_home }),
    statusSentence(attempt, gettext),
  ].filter(Boolean).join(" ");
}

/** A move in words, its card as the cards show it: "7♦ onto pile 11.", "5♣ to its foundation.", "redeal". */
export function moveWords(game, token, gettext = identity) {
  const move = parseMove(token);
  if (move.redeal) return gettext("redeal");
  const card = cardText(move.card);
  if (move.target === "F") return fill(gettext("%(card)s to its foundation."), { card });
  return fill(gettext("%(card)s onto %(where)s."), { card, where: placeWords(game, move.target, gettext) });
}

/** The player's record on a past day: its ranked attempt, else the best practice one. */
export function archiveRecordText(game, attempts, gettext = identity, ngettext = identityN, lang = "") {
  if (!attempts.length) return gettext("You did not play this deal.");
  const better = (a, b) => b.counters.cards_home - a.counters.cards_home || a.counters.undos - b.counters.undos
    || a.counters.redeals - b.counters.redeals || a.elapsed_seconds - b.elapsed_seconds;
  const record = attempts.find((a) => a.ranked) ?? [...attempts].sort(better)[0];
  const c = record.counters;
  const parts = [fill(gettext("%(n)s of 52 cards home"), { n: c.cards_home })];
  if (game === "cruel") parts.push(redealsText(c.redeals, ngettext));
  parts.push(undosText(c.undos, ngettext));
  parts.push(formatTenths(record.elapsed_seconds, lang));
  const kind = record.ranked ? gettext("ranked attempt") : gettext("practice");
  const head = record.status === "won" ? gettext("Your record: won") : gettext("Your record");
  return `${head} (${kind}): ${parts.join(", ")}.`;
}
