// The deck's faces, drawn here as SVG (docs/cards.md): the four suit signs
// and the three court figures are symbols of one sprite put in the page
// once; a face is the pips of its rank (standard layouts) or its court
// figure, twice, head to foot. Suit parts are drawn in currentColor, so the
// suits' colours (two or four colours, high contrast) are the stylesheet's.

import { s } from "./dom.js";

const SPRITE_ID = "card-sprite";
// The face's own units: a card is 100 x 140.
export const FACE_W = 100;
export const FACE_H = 140;

const INK = "#2b2118";
const GOLD = "#d9a21b";
const SKIN = "#f4d3b4";
const HAIR = "#6e4424";

const SUIT_PATHS = {
  H: "M50 92C22 71 5 55 5 33 5 17 16 7 29 7c10 0 17 6 21 14 4-8 11-14 21-14 13 0 24 10 24 26 0 22-17 38-45 59z",
  D: "M50 3Q67 29 88 50 67 71 50 97 33 71 12 50 33 29 50 3z",
  S: "M50 4C33 24 6 39 6 61c0 14 10 23 22 23 8 0 14-4 18-9-1 10-5 16-13 21h34c-8-5-12-11-13-21 4 5 10 9 18 9 12 0 22-9 22-23C94 39 67 24 50 4z",
  C: "M46 62c-1 14-5 22-13 30h34c-8-8-12-16-13-30z",
};
// The club's three leaves, over its stem.
const CLUB_LEAVES = [[50, 27, 19], [28, 60, 19], [72, 60, 19], [50, 52, 10]];

const LEAF = "#2f7d32";

// Each court over the same bust (a robe in the suit's colour): what it
// wears and holds. A king: crown, beard, sceptre; a queen: tiara, long
// hair, a flower; a jack: feathered cap and a halberd.
const COURT = {
  K: {
    back: [],
    front: [
      ["path", { d: "M40.5 53q2 12 9.5 12.5 7.5-.5 9.5-12.5-3 4-9.5 4t-9.5-4z", fill: HAIR, stroke: INK, "stroke-width": 0.5 }],
      ["path", { d: "M39 42V29.5l5.5 5.5L50 27l5.5 8 5.5-5.5V42z", fill: GOLD, stroke: INK, "stroke-width": 0.7 }],
      ["circle", { cx: 50, cy: 38, r: 1.6, fill: "currentColor" }],
      ["path", { d: "M70 81V39", stroke: GOLD, "stroke-width": 2.2 }],
      ["circle", { cx: 70, cy: 36, r: 3.2, fill: GOLD, stroke: INK, "stroke-width": 0.6 }],
    ],
  },
  Q: {
    back: [["path", { d: "M38 67q-4-28 12-29 16 1 12 29-4-7-4-17-8-6-16 0 0 10-4 17z", fill: HAIR }]],
    front: [
      ["path", { d: "M41 42q9-7 18 0l-2 2q-7-4.5-14 0z", fill: GOLD, stroke: INK, "stroke-width": 0.6 }],
      ["circle", { cx: 43.5, cy: 39.2, r: 1.4, fill: GOLD, stroke: INK, "stroke-width": 0.5 }],
      ["circle", { cx: 50, cy: 35.6, r: 2, fill: "currentColor", stroke: INK, "stroke-width": 0.5 }],
      ["circle", { cx: 56.5, cy: 39.2, r: 1.4, fill: GOLD, stroke: INK, "stroke-width": 0.5 }],
      ["path", { d: "M30 81q-2.5-18 1-34", fill: "none", stroke: LEAF, "stroke-width": 1.5 }],
      ...[[31, 40.5], [34.4, 43], [33.1, 47], [28.9, 47], [27.6, 43]].map(([cx, cy]) =>
        ["circle", { cx, cy, r: 2.6, fill: "currentColor", stroke: INK, "stroke-width": 0.4 }]),
      ["circle", { cx: 31, cy: 44.2, r: 1.6, fill: GOLD }],
    ],
  },
  J: {
    back: [],
    front: [
      ["path", { d: "M58 41q10-6 14-17-3 11-12 19z", fill: GOLD, stroke: INK, "stroke-width": 0.5 }],
      ["path", { d: "M39 48q0-12 11-12t11 12q-11-4-22 0z", fill: "currentColor", stroke: INK, "stroke-width": 0.6 }],
      ["path", { d: "M39 48q11-4 22 0", fill: "none", stroke: GOLD, "stroke-width": 1.4 }],
      ["path", { d: "M30 81V35", stroke: INK, "stroke-width": 1.4 }],
      ["path", { d: "M30 27l3.6 8.5h-7.2z", fill: GOLD, stroke: INK, "stroke-width": 0.5 }],
      ["path", { d: "M30 37.5q-7 1.5-7.5 8 4-2.5 7.5-2.5z", fill: GOLD, stroke: INK, "stroke-width": 0.5 }],
    ],
  },
};

function shape([tag, attrs]) {
  return s(tag, attrs);
}

/** One half of a court: the figure down to the panel's middle (y 83). */
function courtHalf(rank) {
  const { back, front } = COURT[rank];
  return [
    ...back.map(shape),
    shape(["path", { d: "M19 83v-7c0-8 12-13 31-13s31 5 31 13v7z", fill: "currentColor", stroke: INK, "stroke-width": 0.7 }]),
    shape(["path", { d: "M38 64.5L50 78l12-13.5", fill: "none", stroke: GOLD, "stroke-width": 2.2 }]),
    shape(["path", { d: "M48 78h4v5h-4z", fill: GOLD }]),
    shape(["circle", { cx: 50, cy: 50, r: 10.5, fill: SKIN, stroke: INK, "stroke-width": 0.7 }]),
    shape(["circle", { cx: 46.3, cy: 49.5, r: 0.9, fill: INK }]),
    shape(["circle", { cx: 53.7, cy: 49.5, r: 0.9, fill: INK }]),
    shape(["path", { d: "M47.5 55q2.5 1.5 5 0", fill: "none", stroke: INK, "stroke-width": 0.6 }]),
    ...front.map(shape),
  ];
}

/** Put the sprite in the page once (suit signs and court figures). */
export function ensureSprite(doc = document) {
  if (doc.getElementById(SPRITE_ID)) return;
  const symbols = [
    ...Object.entries(SUIT_PATHS).map(([suit, d]) => s("symbol", { id: `card-suit-${suit}`, viewBox: "0 0 100 100" },
      s("path", { d, fill: "currentColor" }),
      suit === "C" ? CLUB_LEAVES.map(([cx, cy, r]) => s("circle", { cx, cy, r, fill: "currentColor" })) : null)),
    ...Object.keys(COURT).map((rank) => s("symbol", { id: `card-court-${rank}`, viewBox: `0 0 ${FACE_W} ${FACE_H}` },
      s("rect", { x: 18, y: 29, width: 64, height: 108, rx: 3, fill: "#fbf3df" }),
      s("g", {}, courtHalf(rank)),
      s("g", { transform: "rotate(180 50 83)" }, courtHalf(rank)),
      s("path", { d: "M18 83h64", stroke: INK, "stroke-width": 0.8 }),
      s("rect", { x: 18, y: 29, width: 64, height: 108, rx: 3, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
      s("rect", { x: 20.5, y: 31.5, width: 59, height: 103, rx: 1.5, fill: "none", stroke: GOLD, "stroke-width": 0.7 }))),
  ];
  const sprite = s("svg", { id: SPRITE_ID, class: "card-sprite", "aria-hidden": "true", focusable: "false" },
    s("defs", {}, symbols));
  doc.body.append(sprite);
}

// Pips of A..10 as [x, y] centres in face units; the lower half upside down.
const L = 33;
const C = 50;
const R = 67;
const PIPS = {
  A: [[C, 84]],
  2: [[C, 42], [C, 124]],
  3: [[C, 42], [C, 83], [C, 124]],
  4: [[L, 42], [R, 42], [L, 124], [R, 124]],
  5: [[L, 42], [R, 42], [C, 83], [L, 124], [R, 124]],
  6: [[L, 42], [R, 42], [L, 83], [R, 83], [L, 124], [R, 124]],
  7: [[L, 42], [R, 42], [C, 62.5], [L, 83], [R, 83], [L, 124], [R, 124]],
  8: [[L, 42], [R, 42], [C, 62.5], [L, 83], [R, 83], [C, 103.5], [L, 124], [R, 124]],
  9: [[L, 42], [R, 42], [L, 69.3], [R, 69.3], [C, 83], [L, 96.7], [R, 96.7], [L, 124], [R, 124]],
  T: [[L, 42], [R, 42], [C, 55.7], [L, 69.3], [R, 69.3], [L, 96.7], [R, 96.7], [C, 110.3], [L, 124], [R, 124]],
};
const PIP_SIZE = 17;
const ACE_SIZE = 46;

/** A suit sign centred at (x, y); below the middle it stands upside down, as printed. */
function pip(suit, [x, y], size, color = null) {
  const half = size / 2;
  return s("use", {
    href: `#card-suit-${suit}`, x: x - half, y: y - half, width: size, height: size, color,
    transform: y > 84 && size !== ACE_SIZE ? `rotate(180 ${x} ${y})` : null,
  });
}

const faces = new Map();

/** The picture of a card (rank "A".."K", suit "C".."S"): a fresh SVG element. */
export function cardFace(rank, suit) {
  const key = rank + suit;
  if (!faces.has(key)) {
    const art = rank in COURT
      ? [s("use", {
        href: `#card-court-${rank}`, x: 0, y: 0, width: FACE_W, height: FACE_H,
        transform: "translate(50 86) scale(.95) translate(-50 -83)", // clear of the corner index
      }), pip(suit, [33, 77], 7, GOLD), pip(suit, [67, 95], 7, GOLD)]
      : PIPS[rank].map((at) => pip(suit, at, rank === "A" ? ACE_SIZE : PIP_SIZE));
    faces.set(key, s("svg", {
      class: "card__face", viewBox: `0 0 ${FACE_W} ${FACE_H}`, "aria-hidden": "true", focusable: "false",
    }, art));
  }
  return faces.get(key).cloneNode(true);
}

/** A suit sign as a small inline SVG (for an index). */
export function suitSign(suit) {
  return s("svg", { class: "suit-sign", viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    s("use", { href: `#card-suit-${suit}` }));
}
