// The size of the cards: as large as the window's width allows, while the
// whole board of the game fits in the height left under the controls (the
// board, its foundations and the counters without scrolling). Below
// NARROW_PX of width the board stacks its parts (foundations, then piles or
// columns, then the bouquet) and the cards never go under MIN_CARD_PX (a
// finger's 44 px), so on a phone the page may scroll down but never
// sideways. The numbers mirror the grid of site.css. What comes and goes
// above the board (a past day's panel, a message, a hint, the Start button:
// elements marked data-transient) takes no room from the cards: the board
// is as large as on today's page at the same window, and the page scrolls.

import { setVar } from "./dom.js";

export const NARROW_PX = 1000;
export const MIN_CARD_PX = 44;

// Each pile and column is spaced on its own (stackPlaces): its cards fan
// as far apart as the room for it allows, and never closer than a covered
// card's corner index (rank and suit) needs. In Flower Garden the cards are
// sized for the longest column on the table (and a phone's rows of the
// bouquet), so that its last card stays in the window; only at a finger's
// MIN_CARD_PX does a longer column make the page scroll instead.

/** The movable or selected ring round a card: a top card stands this far from the card it covers. */
export const RING_PX = 5;
// The corner index, as parts of the card's width: a row (rank, suit) over
// a column's covered cards, a column (rank over suit) in a pile fanned sideways.
const INDEX = { font: 0.27, stackedFont: 0.22, inset: 0.05, stackedInset: 0.03, suit: 0.78 };

/**
 * The sizes of the board in px: {cardW, cardH, fan, fanX, ring, index sizes,
 * columnRoom, pileRoom, narrow}. `fan`/`fanX`: the usual step of a Flower
 * column (down) and of a Cruel pile (sideways); `columnRoom`/`pileRoom`: the
 * length a column or pile fans within before it grows.
 * `width`/`height`: the room for the board. `longest`: the most cards in a
 * Flower column, `bouquet`: the cards in its bouquet; up to six and sixteen
 * (as dealt) the cards' size does not depend on them.
 */
export function boardMetrics({ game, width, height, scale = 1, longest = 6, bouquet = 16 }) {
  const narrow = width < NARROW_PX;
  let cardW;
  if (game === "cruel") {
    // Wide: 4 piles x 3 rows, the foundations 2 x 2 beside them.
    // Narrow: the foundations in a row above 3 piles x 4 rows.
    const byWidth = narrow ? (width - 2 * 6 - 3 * 4 - 4) / 3 / 2 : (width - 250) / 10;
    const byHeight = narrow ? (height - 50) / 7 : (height - 80) / 4.2;
    cardW = Math.min(byWidth, byHeight);
  } else {
    // The foundations and the bouquet above 6 columns of six cards (in
    // card widths: a card 1.4, a column's six-card fan 2.1); a longer column
    // steps by a covered card's index (about 0.32 and 4 px); a phone's
    // bouquet below the columns, in rows of six whole cards.
    const steps = Math.max(0, longest - 1);
    const column = longest > 6 ? 1.4 + 0.32 * steps : 3.5;
    const columnPx = longest > 6 ? 4 * steps + RING_PX : 0;
    const rows = longest > 6 ? Math.min(3, Math.ceil(Math.max(bouquet, 1) / 6)) : 3;
    const byWidth = narrow ? (width - 5 * 3 - 4) / 6 - 4 : (width - 110) / 12.5;
    const byHeight = narrow
      ? (height - 80 - columnPx) / (1.4 + column + 1.4 * rows + 0.2)
      : (height - 110 - columnPx) / (1.4 + column);
    cardW = Math.min(byWidth, byHeight);
  }
  cardW = Math.floor(Math.min(170, cardW * scale));
  if (narrow) cardW = Math.max(MIN_CARD_PX, cardW);
  const cardH = Math.round(cardW * 1.4);
  const inset = Math.round(cardW * INDEX.inset);
  const indexFont = Math.round(cardW * INDEX.font);
  const stackedFont = Math.round(cardW * INDEX.stackedFont);
  // What a covered card must show: its index and a pixel or two of margin.
  const indexH = inset + indexFont + 3;
  // A stacked index is as wide as "10" (letters drawn close: 0.9 of the font size).
  const stackedInset = Math.round(cardW * INDEX.stackedInset);
  const indexW = stackedInset + Math.ceil(stackedFont * 0.9) + 2;
  const indexStackH = stackedInset + stackedFont + Math.ceil(stackedFont * INDEX.suit) + 4;
  const fan = Math.max(indexH, Math.floor(0.3 * cardH));
  const fanX = Math.max(indexW, Math.floor(0.33 * cardW));
  const sixCards = cardH + 5 * fan + RING_PX;
  // A wide screen's columns may use the height under the foundations row.
  const columnRoom = narrow ? sixCards : Math.max(sixCards, Math.floor(height - cardH - 100));
  return {
    cardW, cardH, fan, fanX, ring: RING_PX, inset, stackedInset, indexFont, stackedFont, indexH, indexW, indexStackH,
    columnRoom, pileRoom: 2 * cardW, narrow,
  };
}

const clamp = (value, low, high) => Math.max(low, Math.min(high, value));

/**
 * Where each of a stack's `count` cards is drawn ({x, y} in px from the
 * stack's corner) and the stack's {width, height}, from metrics `m`.
 * A Flower column fans down; a Cruel pile fans sideways and, when even its
 * narrowest step outgrows its width, goes on in a row below the first
 * row's indexes. The top card stands a ring's width further, so that its
 * ring never covers the card beneath.
 */
export function stackPlaces(game, count, m) {
  const places = [];
  if (count <= 1) {
    if (count) places.push({ x: 0, y: 0 });
    return { places, width: m.cardW + (game === "cruel" ? m.ring : 0), height: m.cardH + (game === "flower" ? m.ring : 0) };
  }
  const gap = m.ring;
  if (game === "flower") {
    const step = Math.floor(clamp((m.columnRoom - m.cardH - gap) / (count - 1), m.indexH, m.fan));
    for (let i = 0; i < count; i++) places.push({ x: 0, y: i * step + (i === count - 1 ? gap : 0) });
    return { places, width: m.cardW, height: m.cardH + (count - 1) * step + gap };
  }
  const room = m.pileRoom - m.cardW - gap;
  const perRow = Math.max(2, Math.floor(room / m.indexW) + 1);
  const rows = Math.ceil(count / perRow);
  const inRow = Math.min(count, perRow);
  const step = Math.floor(clamp(room / (inRow - 1), m.indexW, m.fanX));
  const rowStep = m.indexStackH + gap;
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / perRow);
    const top = i === count - 1;
    places.push({
      x: (i % perRow) * step + (top && i % perRow ? gap : 0),
      y: row * rowStep + (top && row ? gap : 0),
    });
  }
  return { places, width: m.cardW + (inRow - 1) * step + gap, height: m.cardH + (rows - 1) * rowStep + (rows > 1 ? gap : 0) };
}

/**
 * The height of the visible data-transient elements before `el` in the page,
 * margins included (their containers are flex columns: margins add up).
 */
export function transientHeight(el) {
  let sum = 0;
  for (const other of document.querySelectorAll("[data-transient]")) {
    if (other.hidden || !(other.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    const box = other.getBoundingClientRect();
    if (!box.height) continue;
    const style = getComputedStyle(other);
    sum += box.height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  }
  return sum;
}

const fitted = new WeakMap();

/** The metrics fitBoard last set for the board-scroll holding `el`, or null. */
export function metricsOf(el) {
  const scroller = el?.closest?.(".board-scroll");
  return (scroller && fitted.get(scroller)) ?? null;
}

/** Set the board's card size for the room there is now. */
export function fitBoard(scroller, { game, scale = 1, longest, bouquet }) {
  const style = getComputedStyle(scroller);
  const width = scroller.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const top = scroller.getBoundingClientRect().top + globalThis.scrollY - transientHeight(scroller);
  const height = globalThis.innerHeight - top - 8;
  const m = boardMetrics({ game, width, height, scale, longest, bouquet });
  const before = fitted.get(scroller);
  fitted.set(scroller, m);
  // Same card size, other room for a column: the board re-spaces its stacks.
  if (before && before.cardW === m.cardW && before.columnRoom !== m.columnRoom) {
    scroller.dispatchEvent(new CustomEvent("boardfit"));
  }
  // Set only when changed: each is inherited by every card on the board.
  setVar(scroller, "--card-w", `${m.cardW}px`);
  setVar(scroller, "--card-h", `${m.cardH}px`);
  setVar(scroller, "--ring", `${m.ring}px`);
  setVar(scroller, "--index-inset", `${m.inset}px`);
  setVar(scroller, "--index-font", `${m.indexFont}px`);
  setVar(scroller, "--index-font-stacked", `${m.stackedFont}px`);
  setVar(scroller, "--index-inset-stacked", `${m.stackedInset}px`);
  scroller.classList.toggle("board-scroll--narrow", m.narrow);
  return m;
}
