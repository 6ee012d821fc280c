// Motion for the board (FLIP: First, Last, Invert, Play). Before a redraw the
// page notes where every card is drawn; after it, each card that changed
// place starts where it was and slides to where it is now. The DOM already
// holds the new state, so input is never held up: an animation is only a
// transform on top of it, and a redraw during one starts from mid-flight.

const MIN_SHIFT_PX = 6;

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
    animation.onfinish = () => el.classList.remove("card--moving");
    animation.oncancel = animation.onfinish;
    longest = Math.max(longest, delay + duration);
  }
  return longest;
}

/** A short celebration on the board (CSS), removed when it is over. */
export function celebrate(root, ms) {
  if (!ms) return;
  root.classList.add("board--won");
  setTimeout(() => root.classList.remove("board--won"), 1200);
}

export function reducedMotion() {
  return Boolean(globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}
