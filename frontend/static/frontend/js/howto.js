// How to play, in a few drawn frames per game (small boards in inline SVG):
// the layout, a move, and for Cruel its one idea, the redeal. Each game's is
// shown by itself when that game is first opened (remembered per game in
// this browser) and again from "How to play". Its box keeps one height from
// frame to frame, so Next stays under the finger.

import { gettext, h, replace, s } from "./dom.js";
import { fill, gameName } from "./format.js";

// "1" under SEEN_KEY: every game's was seen; SEEN_KEY.<game>: that game's.
export const SEEN_KEY = "solitaire.howto.seen";

// The width and height of a drawn card, in units of the SVG.
const W = 30;
const H = 42;
const RED = new Set(["♦", "♥"]);

/** One card face up at (x, y); `mark`: "ring" (it can move) or "target" (where it goes). */
function card(x, y, text, mark = null) {
  const suit = text.slice(-1);
  const colour = RED.has(suit) ? "#b3001b" : "#111";
  // The corner index (rank over suit) stays readable where the next card covers the rest.
  return s("g", { class: `howto-card${mark ? ` howto-card--${mark}` : ""}` },
    s("rect", { x, y, width: W, height: H, rx: 3, fill: "#fff", stroke: mark === "target" ? "#c79a00" : "#555", "stroke-width": mark ? 2.5 : 1 }),
    s("text", { x: x + 2, y: y + 12, "font-size": 11, "font-weight": 700, fill: colour }, text.slice(0, -1)),
    s("text", { x: x + 2, y: y + 24, "font-size": 11, fill: colour }, suit),
    s("text", { x: x + W - 4, y: y + 36, "font-size": 15, "text-anchor": "end", fill: colour }, suit));
}

/** A Cruel pile fanned sideways, base to top; the top card may carry a mark. */
function pile(x, y, cards, { number, top = null } = {}) {
  return [
    number ? s("text", { x, y: y - 4, "font-size": 10, fill: "#fff" }, fill(gettext("pile %(n)s"), { n: number })) : null,
    cards.map((text, i) => card(x + i * 14, y, text, i === cards.length - 1 ? top : null)),
  ];
}

/** A Flower Garden column fanned downwards. */
function column(x, y, cards, { top = null } = {}) {
  return cards.map((text, i) => card(x, y + i * 16, text, i === cards.length - 1 ? top : null));
}

function arrow(x1, y1, x2, y2) {
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const head = (a) => `${x2 - 9 * Math.cos(angle + a)},${y2 - 9 * Math.sin(angle + a)}`;
  return s("g", { class: "howto-arrow" },
    s("line", { x1, y1, x2, y2, stroke: "#ffd23f", "stroke-width": 3 }),
    s("polygon", { points: `${x2},${y2} ${head(0.5)} ${head(-0.5)}`, fill: "#ffd23f" }));
}

function label(x, y, text, anchor = "start") {
  return s("text", { x, y, "font-size": 11, fill: "#fff", "text-anchor": anchor }, text);
}

function board(height, ...children) {
  return s("svg", { viewBox: `0 0 300 ${height}`, class: "howto__board", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 0, y: 0, width: 300, height, rx: 8, fill: "#1f5f3f" }), children);
}

const foundations = (x, y, cards) => cards.map((text, i) => card(x + i * (W + 6), y, text));

function cruelFrames() {
  return [
    {
      caption: gettext("Twelve piles of four cards, the four aces already home. Only the top card of each pile moves."),
      draw: () => board(140,
        label(8, 16, gettext("Foundations")), foundations(8, 22, ["A♣", "A♦", "A♥", "A♠"]),
        pile(8, 88, ["5♣", "9♥", "2♦", "4♦"], { number: 1, top: "ring" }),
        pile(104, 88, ["K♦", "3♠", "8♣", "5♦"], { number: 2, top: "ring" }),
        pile(200, 88, ["Q♠", "7♥", "J♣", "2♣"], { number: 3, top: "ring" }),
        label(292, 132, "…", "end")),
    },
    {
      caption: gettext("A move: a top card goes onto the card of its own suit one rank higher (4♦ onto 5♦), or home when it is next on its foundation (2♣)."),
      draw: () => board(140,
        foundations(8, 8, ["A♣", "A♦", "A♥", "A♠"]),
        pile(8, 84, ["5♣", "9♥", "2♦", "4♦"], { number: 1, top: "ring" }),
        pile(104, 84, ["K♦", "3♠", "8♣", "5♦"], { number: 2, top: "target" }),
        pile(200, 84, ["Q♠", "7♥", "J♣", "2♣"], { number: 3, top: "ring" }),
        arrow(62, 104, 140, 104),
        arrow(254, 84, 30, 52)),
    },
    {
      caption: gettext("Cruel's one idea, the redeal: at any time, the cards are picked up in order, pile 1 to pile 12, and dealt again four to a pile. Nothing is shuffled; only the borders between piles move, so a buried card can come to the top."),
      draw: () => board(176,
        label(292, 14, gettext("Before"), "end"),
        pile(8, 30, ["5♣", "9♥", "2♦"], { number: 1 }),
        pile(104, 30, ["K♦", "3♠", "8♣", "5♦", "4♦"], { number: 2 }),
        pile(220, 30, ["J♣", "7♥"], { number: 3 }),
        arrow(150, 80, 150, 106),
        label(160, 98, gettext("Redeal")),
        label(292, 110, gettext("After"), "end"),
        pile(8, 126, ["5♣", "9♥", "2♦", "K♦"], { number: 1, top: "ring" }),
        pile(104, 126, ["3♠", "8♣", "5♦", "4♦"], { number: 2, top: "ring" }),
        pile(220, 126, ["J♣", "7♥"], { number: 3, top: "ring" })),
    },
    {
      caption: gettext("Bring all 52 cards home to win. Redeal as often as you like; undo is there too, counted."),
      draw: () => board(110,
        label(8, 16, gettext("Foundations")), foundations(8, 24, ["K♣", "K♦", "K♥", "K♠"]),
        label(292, 52, "52/52", "end")),
    },
  ];
}

function flowerFrames() {
  const bouquet = (y, cards, marks = {}) => cards.map((text, i) => card(8 + i * 20, y, text, marks[text] ?? null));
  return [
    {
      caption: gettext("Six columns of six cards and a bouquet of sixteen. Every bouquet card can be played, and the top card of each column."),
      draw: () => board(170,
        column(8, 10, ["7♠", "2♥", "6♣"], { top: "ring" }),
        column(48, 10, ["J♦", "10♣", "8♥"], { top: "ring" }),
        column(88, 10, ["K♠", "Q♥", "3♦"], { top: "ring" }),
        label(292, 40, "…", "end"),
        label(8, 112, gettext("Bouquet")),
        bouquet(120, ["4♦", "5♦", "9♦", "A♣", "J♠", "2♠"], { "4♦": "ring", "5♦": "ring", "9♦": "ring", "A♣": "ring", "J♠": "ring", "2♠": "ring" })),
    },
    {
      caption: gettext("Build a column down by rank, whatever the suit: 5♦ leaves the middle of the bouquet for 6♣. An empty column takes any card."),
      draw: () => board(170,
        column(8, 10, ["7♠", "2♥", "6♣"], { top: "target" }),
        column(48, 10, ["J♦", "10♣", "8♥"]),
        column(88, 10, ["K♠", "Q♥", "3♦"]),
        label(8, 112, gettext("Bouquet")),
        bouquet(120, ["4♦", "5♦", "9♦", "A♣", "J♠", "2♠"], { "5♦": "ring" }),
        arrow(42, 120, 24, 86)),
    },
    {
      caption: gettext("Cards go home by suit, from the ace up; a card at home stays there. No card ever goes back into the bouquet."),
      draw: () => board(170,
        label(180, 16, gettext("Foundations")), foundations(180, 22, ["A♣"]),
        column(8, 10, ["7♠", "2♥", "6♣", "5♦"]),
        column(48, 10, ["J♦", "10♣", "8♥"]),
        label(8, 112, gettext("Bouquet")),
        bouquet(120, ["4♦", "9♦", "A♣", "J♠", "2♠"], { "A♣": "ring" }),
        arrow(64, 120, 190, 66)),
    },
    {
      caption: gettext("Bring all 52 cards home to win: every column and the whole bouquet emptied."),
      draw: () => board(110,
        label(8, 16, gettext("Foundations")), foundations(8, 24, ["K♣", "K♦", "K♥", "K♠"]),
        label(292, 52, "52/52", "end")),
    },
  ];
}

const FRAMES = { cruel: cruelFrames, flower: flowerFrames };

/** Has this browser seen how `game` is played? */
export function seen(game, storage = globalThis.localStorage) {
  try {
    return storage.getItem(SEEN_KEY) === "1" || storage.getItem(`${SEEN_KEY}.${game}`) === "1";
  } catch {
    return false; // storage refused: show it, as to anyone new
  }
}

function remember(games, storage = globalThis.localStorage) {
  try {
    for (const game of games) storage.setItem(`${SEEN_KEY}.${game}`, "1");
  } catch {
    // Storage refused: it is shown again next time, which does no harm.
  }
}

/**
 * The how-to dialog of the page. open(game, {tour}) shows that game's frames;
 * with `tour` the other game's follow. Skip, Escape and the last frame all
 * close it and remember that it was seen.
 */
export function howTo(dialog) {
  const $ = (name) => dialog.querySelector(`[data-ref="${name}"]`);
  let games = [];
  let frames = [];
  let index = 0;

  function show() {
    const { game, frame, step, of } = frames[index];
    dialog.dataset.game = game;
    dialog.dataset.frame = String(index);
    $("howto-title").textContent = fill(gettext("How to play %(game)s"), { game: gameName(game, gettext) });
    $("howto-step").textContent = fill(gettext("Step %(step)s of %(of)s"), { step, of });
    replace($("howto-picture"), frame.draw());
    // Every caption of the game in one cell, the others invisible: the box is
    // as tall as the longest, on every frame.
    replace($("howto-caption"), ...frames.filter((f) => f.game === game).map((f) => h("span", {
      "aria-hidden": f === frames[index] ? null : "true",
    }, f.frame.caption)));
    $("howto-rules").href = `/rules/${game}/`;
    $("howto-back").disabled = index === 0;
    const last = index === frames.length - 1;
    const nextGame = !last && frames[index + 1].game !== game ? frames[index + 1].game : null;
    $("howto-next").textContent = last ? gettext("Done")
      : nextGame ? fill(gettext("Next: %(game)s"), { game: gameName(nextGame, gettext) }) : gettext("Next");
  }

  function close() {
    remember(games);
    if (dialog.open) dialog.close();
  }

  $("howto-skip").addEventListener("click", close);
  $("howto-back").addEventListener("click", () => {
    index = Math.max(0, index - 1);
    show();
  });
  $("howto-next").addEventListener("click", () => {
    if (index === frames.length - 1) {
      close();
      return;
    }
    index += 1;
    show();
  });
  dialog.addEventListener("close", () => remember(games));

  return {
    open(game, { tour = false } = {}) {
      games = tour ? [game, game === "cruel" ? "flower" : "cruel"] : [game];
      frames = games.flatMap((g) => {
        const list = FRAMES[g]();
        return list.map((frame, i) => ({ game: g, frame, step: i + 1, of: list.length }));
      });
      index = 0;
      show();
      if (!dialog.open) dialog.showModal();
      $("howto-next").focus();
    },
  };
}
