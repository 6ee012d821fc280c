// Motion for the board (FLIP: First, Last, Invert, Play). Before a redraw the
// page notes where every card is drawn; after it, each card that changed
// place starts where it was and slides to where it is now. The DOM already
// holds the new state, so input is never held up: an animation is only a
// transform on top of it, and a redraw during one starts from mid-flight.

import { cardElement } from "./board.js";
import { h } from "./dom.js";
import { RANKS } from "./notation.js";

const MIN_SHIFT_PX = 6;
// Card element -> its slides not yet ended. A redraw mid-flight starts a
// second slide beside the first: the card takes no pointer until the last
// ends, or a card in flight would catch a click meant for the pile under it.
const flights = new WeakMap();

/** Where each drawn card is now: Map(card code -> DOMRect). */
export function snapshot(root) {
  const places = new Map();
  for (const el of root.querySelectorAll(".card[data-card]")) {
    places.set(el.dataset.card, el.getBoundingClientRect());
  }
  return places;
}

/**
 * Slide every card from its place in `before` to where it is drawn now.
 * `ms` 0 does nothing. `redeal`: the cards gather at the first pile and are
 * dealt out again, one after the other. `order`: cards that start one after
 * the other (an auto-finish), in that order.
 */
export function slide(root, before, { ms, redeal = false, order = [] } = {}) {
  if (!ms || !before?.size || typeof Element.prototype.animate !== "function") return 0;
  const rank = new Map(order.map((card, i) => [card, i]));
  const gather = redeal ? root.querySelector(".slot--stack .stack")?.getBoundingClientRect() : null;
  let longest = 0;
  let dealt = 0;
  for (const el of root.querySelectorAll(".card[data-card]")) {
    const was = before.get(el.dataset.card);
    if (!was) continue;
    const now = el.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    // A redeal gathers every card in play, even one dealt back to its place.
    if (!gather && Math.abs(dx) < MIN_SHIFT_PX && Math.abs(dy) < MIN_SHIFT_PX) continue;
    if (gather && el.closest(".slot--foundation")) continue;
    const from = `translate(${dx}px, ${dy}px)`;
    let frames;
    let delay = 0;
    let duration = ms;
    if (gather) {
      const gx = gather.left - now.left;
      const gy = gather.top - now.top;
      frames = [
        { transform: from, offset: 0 },
        { transform: `translate(${gx}px, ${gy}px)`, offset: 0.45 },
        { transform: "none", offset: 1 },
      ];
      duration = Math.round(ms * 1.5);
      delay = Math.min(dealt, 40) * 2;
      dealt += 1;
    } else {
      frames = [{ transform: from }, { transform: "none" }];
      if (rank.has(el.dataset.card)) delay = Math.min(rank.get(el.dataset.card), 30) * Math.round(ms / 8);
    }
    el.classList.add("card--moving");
    const animation = el.animate(frames, { duration, delay, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "backwards" });
    if (!flights.has(el)) flights.set(el, new Set());
    const flying = flights.get(el);
    flying.add(animation);
    animation.onfinish = () => {
      flying.delete(animation);
      if (!flying.size) el.classList.remove("card--moving");
    };
    animation.oncancel = animation.onfinish;
    longest = Math.max(longest, delay + duration);
  }
  return longest;
}

/** How long a win's cascade plays, its last card's flight included (ms). */
export const CELEBRATION_MS = 2000;
const CASCADE_FLIGHT_MS = 1400;

/**
 * A win: the cards leave the foundations one after the other, king first,
 * and bounce off the foot of the table and out of it, over a felt that
 * glows once, for CELEBRATION_MS. A click, tap or key anywhere ends it at
 * once. `ms` 0 (reduced motion, or animation off) shows nothing. Returns a
 * promise settled when it is over, played out or cut short. Drawn in a
 * layer over the board that takes no input and is removed at the end.
 */
export function celebrate(root, ms) {
  if (!ms) return Promise.resolve();
  root.classList.add("board--won");
  setTimeout(() => root.classList.remove("board--won"), 1200);
  const table = root.closest(".board-scroll") ?? root.parentElement;
  const foundations = [...root.querySelectorAll(".slot--foundation .card[data-card]")];
  if (!table || !foundations.length || typeof Element.prototype.animate !== "function") return Promise.resolve();
  const box = table.getBoundingClientRect();
  const layer = h("div", { class: "cascade", "aria-hidden": "true" });
  table.append(layer);
  const each = CASCADE_FLIGHT_MS;
  const gapMs = (CELEBRATION_MS - CASCADE_FLIGHT_MS) / (RANKS.length * foundations.length - 1);
  let last = 0;
  let n = 0;
  for (let rank = RANKS.length - 1; rank >= 0; rank--) {
    for (const el of foundations) {
      const suit = el.dataset.card[1];
      const from = el.getBoundingClientRect();
      const card = cardElement(RANKS[rank] + suit);
      card.style.zIndex = String(60 - n); // the next card to leave lies on top
      layer.append(card);
      const frames = bounce({
        x: from.left - box.left, y: from.top - box.top, floor: box.height - from.height,
        vx: (n % 2 ? -1 : 1) * (2.2 + (n % 5) * 0.5), right: box.width, width: from.width,
      });
      const delay = n * gapMs;
      const animation = card.animate(frames, { duration: each, delay, fill: "both", easing: "linear" });
      animation.onfinish = () => card.remove();
      last = delay + each;
      n += 1;
    }
  }
  return new Promise((resolve) => {
    const skips = ["pointerdown", "keydown"];
    const end = () => {
      clearTimeout(timer);
      for (const type of skips) document.removeEventListener(type, end, true);
      layer.remove();
      root.classList.remove("board--won");
      resolve();
    };
    const timer = setTimeout(end, last + 100);
    for (const type of skips) document.addEventListener(type, end, true);
  });
}

/** Keyframes of a card thrown sideways that falls and bounces, damped, until it leaves the table. */
function bounce({ x, y, floor, vx, right, width, steps = 48 }) {
  const frames = [];
  let vy = -3;
  let px = x;
  let py = y;
  for (let i = 0; i <= steps; i++) {
    frames.push({ transform: `translate(${px.toFixed(1)}px, ${py.toFixed(1)}px)`, opacity: px < -width || px > right ? 0 : 1 });
    vy += 1.1;
    px += vx * 4;
    py += vy * 4;
    if (py > floor) {
      py = floor;
      vy = -vy * 0.7;
    }
  }
  return frames;
}

export function reducedMotion() {
  return Boolean(globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}
