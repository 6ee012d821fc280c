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

export const NARROW_PX = 1000;
export const MIN_CARD_PX = 44;

/**
 * {cardW, fan, fanX}: the card width, the vertical overlap step of a Flower
 * Garden column and the horizontal step of a Cruel pile, in px.
 * `width`/`height`: the room for the board; `longest`: the longest stack now.
 */
export function boardMetrics({ game, width, height, longest = 0, scale = 1 }) {
  const narrow = width < NARROW_PX;
  let cardW;
  if (game === "cruel") {
    // Wide: 4 piles x 3 rows, the foundations 2 x 2 beside them.
    // Narrow: the foundations in a row above 3 piles x 4 rows.
    const byWidth = narrow ? (width - 2 * 6 - 3 * 4 - 4) / 3 / 2 : (width - 250) / 10;
    const byHeight = narrow ? (height - 50) / 7 : (height - 80) / 4.2;
    cardW = Math.min(byWidth, byHeight);
  } else {
    // The foundations and the bouquet above 6 columns of six cards (or more).
    const byWidth = narrow ? (width - 5 * 3 - 4) / 6 - 4 : (width - 110) / 12.5;
    const byHeight = narrow ? (height - 80) / 9.3 : (height - 110) / 4.9;
    cardW = Math.min(byWidth, byHeight);
  }
  cardW = Math.floor(Math.min(170, cardW * scale));
  if (narrow) cardW = Math.max(MIN_CARD_PX, cardW);
  const cardH = cardW * 1.4;
  // A Flower column keeps the height of six cards fanned; more cards fan closer.
  const column = cardH + 5 * 0.3 * cardH;
  const fan = longest > 6 ? Math.max(12, (column - cardH) / (longest - 1)) : 0.3 * cardH;
  // A Cruel pile keeps the width of 2 cards; more cards than four fan closer.
  const pileW = 2 * cardW;
  const stepX = 0.33 * cardW;
  const fanX = longest > 1 ? Math.min(stepX, (pileW - cardW) / (longest - 1)) : stepX;
  return { cardW, fan: Math.floor(fan), fanX: Math.floor(fanX), narrow };
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

/** Set the board's card size for the room there is now. */
export function fitBoard(scroller, { game, longest, scale }) {
  const style = getComputedStyle(scroller);
  const width = scroller.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const top = scroller.getBoundingClientRect().top + globalThis.scrollY - transientHeight(scroller);
  const height = globalThis.innerHeight - top - 8;
  const m = boardMetrics({ game, width, height, longest, scale });
  scroller.style.setProperty("--card-w", `${m.cardW}px`);
  scroller.style.setProperty("--fan", `${m.fan}px`);
  scroller.style.setProperty("--fan-x", `${m.fanX}px`);
  scroller.classList.toggle("board-scroll--narrow", m.narrow);
  return m;
}
