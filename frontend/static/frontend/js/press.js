// Late content and the player's press: a click is the press and the release
// on one control, so content that moves the controls between the two loses
// the click (the release lands on whatever moved in). A part of the page that
// fills after it is shown writes its late content between presses.

/**
 * For `container`: a function whose promise resolves at once when no press is
 * held in the container, else once the press is over (its click handled, or
 * the press cancelled or released elsewhere). Await it before a late write
 * that can move the container's controls.
 */
export function steadyWhilePressed(container) {
  let held = false;
  let waiting = [];
  const release = () => {
    held = false;
    const ready = waiting;
    waiting = [];
    for (const resolve of ready) resolve();
  };
  container.addEventListener("pointerdown", () => { held = true; }, true);
  // After the click's own handlers have run.
  container.addEventListener("click", () => setTimeout(release), true);
  container.addEventListener("pointercancel", release, true);
  container.addEventListener("contextmenu", release, true);
  // A mouse released elsewhere (no click in here): its click, if any, is in
  // the same task as the release. A touch's release comes to the pressed
  // element (implicit capture), then its click or its cancel.
  window.addEventListener("pointerup", (event) => {
    if (held && event.pointerType === "mouse") setTimeout(release);
  }, true);
  return () => (held ? new Promise((resolve) => { waiting.push(resolve); }) : Promise.resolve());
}
