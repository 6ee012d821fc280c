// Taps that the browser does not turn into a click. Right after a touch
// drag, Chromium can deliver a tap's pointerdown and pointerup and no click
// (on cards and on buttons alike). A touch that went down and up in place
// and was not followed by a click within TAP_WAIT_MS is clicked here; a
// late native click on the same spot is then dropped, so a tap never acts
// twice.

export const TAP_WAIT_MS = 90;
const TAP_SLOP_PX = 10;
const TAP_MAX_MS = 700;
const LATE_CLICK_MS = 800;

export function rescueTaps(root = document) {
  let down = null; // the touch in progress: {id, x, y, at, target, moved}
  let rescued = null; // {x, y, until}: a tap clicked here, whose own click may still come

  const near = (a, x, y) => Math.hypot(a.x - x, a.y - y) <= TAP_SLOP_PX * 2;

  root.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch" || !event.isPrimary) return;
    down = { id: event.pointerId, x: event.clientX, y: event.clientY, at: performance.now(), target: event.target, moved: false };
  }, true);
  root.addEventListener("pointermove", (event) => {
    if (down && event.pointerId === down.id && !near({ x: down.x, y: down.y }, event.clientX, event.clientY)) down.moved = true;
  }, true);
  root.addEventListener("pointercancel", () => { down = null; }, true);
  root.addEventListener("pointerup", (event) => {
    const tap = down;
    down = null;
    if (!tap || event.pointerId !== tap.id || tap.moved || performance.now() - tap.at > TAP_MAX_MS) return;
    tap.clicked = false;
    root.lastTap = tap;
    setTimeout(() => {
      if (tap.clicked) return;
      const target = tap.target.isConnected ? tap.target : document.elementFromPoint(tap.x, tap.y);
      if (!target) return;
      rescued = { x: tap.x, y: tap.y, until: performance.now() + LATE_CLICK_MS };
      target.click?.();
    }, TAP_WAIT_MS);
  }, true);
  root.addEventListener("click", (event) => {
    if (!event.isTrusted) return;
    if (rescued && performance.now() < rescued.until && near(rescued, event.clientX, event.clientY)) {
      // The browser's own click of a tap already clicked above.
      rescued = null;
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    if (root.lastTap) root.lastTap.clicked = true;
  }, true);
}
