// Cards and move tokens as text (docs/notation.md), for display only.
// Nothing here knows a rule: which moves are legal always comes from the API.

export const RANKS = "A23456789TJQK";

export const SUITS = Object.freeze({
  C: Object.freeze({ symbol: "\u2663", colour: "black", name: "clubs" }),
  D: Object.freeze({ symbol: "\u2666", colour: "red", name: "diamonds" }),
  H: Object.freeze({ symbol: "\u2665", colour: "red", name: "hearts" }),
  S: Object.freeze({ symbol: "\u2660", colour: "black", name: "spades" }),
});

export const SUIT_ORDER = ["C", "D", "H", "S"];

const identity = (text) => text;

/** "TD" -> {code, rank, suit, rankLabel, symbol, colour}; throws on bad text. */
export function parseCard(code) {
  const text = String(code ?? "").trim().toUpperCase().replace(/^10/, "T");
  if (text.length !== 2 || !RANKS.includes(text[0]) || !(text[1] in SUITS)) {
    throw new Error(`not a card: ${JSON.stringify(code)}`);
  }
  const suit = SUITS[text[1]];
  return {
    code: text,
    rank: text[0],
    suit: text[1],
    rankLabel: rankLabel(text[0]),
    symbol: suit.symbol,
    colour: suit.colour,
  };
}

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** "TD" -> "10♦" */
export function cardText(code) {
  const card = parseCard(code);
  return card.rankLabel + card.symbol;
}

/** Rank value 1..13 (A..K). */
export function rankValue(rank) {
  return RANKS.indexOf(rank) + 1;
}

/** The spoken name of a card, e.g. "10 of diamonds" / "10 de ouros". `gettext` is Django's. */
export function cardName(code, gettext = identity) {
  const card = parseCard(code);
  const ranks = {
    A: gettext("ace"), J: gettext("jack"), Q: gettext("queen"), K: gettext("king"),
  };
  const suits = {
    C: gettext("clubs"), D: gettext("diamonds"), H: gettext("hearts"), S: gettext("spades"),
  };
  const rank = ranks[card.rank] ?? card.rankLabel;
  return gettext("%(rank)s of %(suit)s")
    .replace("%(rank)s", rank)
    .replace("%(suit)s", suits[card.suit]);
}

/** "4D>2" -> {card: "4D", target: "2"}; "R" -> {redeal: true}; throws on bad text. */
export function parseMove(token) {
  const text = String(token ?? "").trim().toUpperCase();
  if (text === "R") return { redeal: true };
  const match = /^([A2-9TJQK][CDHS])\s*>\s*(F|[1-9]\d?)$/.exec(text.replace(/^10/, "T"));
  if (!match) throw new Error(`not a move: ${JSON.stringify(token)}`);
  return { card: match[1], target: match[2] };
}

export function moveToken(card, target) {
  return `${parseCard(card).code}>${String(target).toUpperCase()}`;
}

/** A move as people read it: "4♦ → 2", "4♦ → F", "R". */
export function moveText(token, gettext = identity) {
  const move = parseMove(token);
  if (move.redeal) return gettext("redeal");
  const where = move.target === "F" ? gettext("foundation") : move.target;
  return `${cardText(move.card)} \u2192 ${where}`;
}

/** True when `text` contains something that looks like a card or a move token. */
export function mentionsCards(text) {
  return /(^|[^A-Z0-9])(10|[A2-9TJQK])[CDHS\u2663\u2666\u2665\u2660](?![a-z])/i.test(text)
    || /[\u2663\u2666\u2665\u2660]/.test(text);
}

/**
 * A position line (docs/notation.md) in the structured form the API returns, for
 * drawing only: piles or columns, bouquet, and the foundations the line
 * implies (every absent card is home). Throws on a line of the wrong shape.
 */
export function positionFromNotation(line) {
  const text = String(line ?? "").trim();
  const [game, layout, bouquetField] = text.split(/\s+/);
  if (!["cruel", "flower"].includes(game) || !layout) throw new Error(`not a position: ${JSON.stringify(line)}`);
  const stacks = layout.split("/").map((field) => (field === "-" ? [] : field.toUpperCase().match(/../g).map((c) => parseCard(c).code)));
  const expected = game === "cruel" ? 12 : 6;
  if (stacks.length !== expected) throw new Error(`${game} needs ${expected} stacks: ${JSON.stringify(line)}`);
  const bouquet = game === "flower"
    ? (!bouquetField || bouquetField === "-" ? [] : bouquetField.toUpperCase().match(/../g).map((c) => parseCard(c).code))
    : [];
  const present = new Set([...stacks.flat(), ...bouquet]);
  const foundations = SUIT_ORDER.map((suit) => {
    let count = 0;
    while (count < 13 && !present.has(RANKS[count] + suit)) count += 1;
    return { suit, count, top: count ? RANKS[count - 1] + suit : null };
  });
  const cardsHome = foundations.reduce((sum, f) => sum + f.count, 0);
  const position = { game, notation: text, foundations, cards_home: cardsHome };
  if (game === "cruel") position.piles = stacks;
  else Object.assign(position, { columns: stacks, bouquet });
  return position;
}
