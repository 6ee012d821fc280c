// The player's gestures on the board, made into the page's actions: a click
// or tap selects and places, a second one on the same card sends it home, a
// drop places, and the keys (U, R, F, Escape) do what the help says.

import { announce, gettext } from "./dom.js";
import { fill } from "./format.js";
import { homeMove, isDouble, isEcho, onlyMove } from "./gestures.js";
import { cardName } from "./notation.js";
import { clickIntent, isActive, slotTarget } from "./state.js";

/** `ctx`: {view, board, game, render(), showMessage()}; `actions`: playActions(ctx). */
export function playInput(ctx, actions) {
  const { view, game } = ctx;

  /** `click`: {at, detail}, the click's time (a busy page gets to it later) and count (isEcho). */
  function onSlot(slot, how, click = { at: performance.now(), detail: 1 }) {
    if (view.busy) {
      if (how !== "drag") actions.whenFree(() => onSlot(slot, how, click));
      return;
    }
    const attempt = view.attempt;
    if (!isActive(attempt)) return;
    if (how === "click") {
      const last = view.lastClick;
      if (isEcho(last, click)) {
        view.lastClick = null;
        return;
      }
      // A second click or tap on the same card: home, when the API lists it.
      const double = isDouble(last, slot.card, click.at, click.detail);
      view.lastClick = double ? null : { card: slot.card, at: click.at };
      const home = homeMove(attempt, slot.card);
      if (double && home) {
        actions.submitMove(home);
        return;
      }
      const only = view.settings.oneGesture && !view.selected && onlyMove(attempt, slot.card);
      if (only) {
        // A first click that sent its card: a second one may follow as the
        // other half of a double click (isEcho).
        view.lastClick = { sent: true, onCard: true, ...click };
        actions.submitMove(only);
        return;
      }
    }
    if (how === "drag") {
      view.selected = slot.card;
      ctx.render();
      return;
    }
    const intent = clickIntent(attempt, view.selected, slot);
    if (intent.action === "select") {
      view.selected = intent.card;
      ctx.render();
      announce(fill(gettext("%(card)s selected. Choose where it goes."), { card: cardName(intent.card, gettext) }));
    } else if (intent.action === "deselect") {
      view.selected = null;
      ctx.render();
      announce(gettext("Selection cleared."));
    } else if (intent.action === "move") {
      if (how === "click") view.lastClick = { sent: true, ...click };
      actions.submitMove(intent.token);
    } else if (how === "key") {
      announce(gettext("No card here can move. Choose a highlighted card."));
    }
  }

  function onDrop(card, slot) {
    const target = slot ? slotTarget(slot, card) : null;
    view.selected = null;
    if (target === null) {
      ctx.render();
      if (slot) {
        const text = slot.kind === "bouquet"
          ? gettext("No card may go back into the bouquet.")
          : fill(gettext("%(card)s goes only to the foundation of its own suit."), { card: cardName(card, gettext) });
        ctx.showMessage(text, "error");
        announce(text, { assertive: true });
      }
      return;
    }
    actions.submitMove(`${card}>${target}`);
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, select, textarea, dialog")) return;
    const key = event.key.toLowerCase();
    if (key === "u") {
      event.preventDefault();
      actions.undo();
    } else if (key === "r" && game === "cruel") {
      event.preventDefault();
      if (view.attempt?.can_redeal) actions.submitMove("R");
    } else if (key === "f") {
      const slot = ctx.board.slotOf(event.target);
      const home = slot && homeMove(view.attempt, slot.card);
      if (home) {
        event.preventDefault();
        actions.whenFree(() => actions.submitMove(home));
      }
    } else if (key === "escape" && view.selected) {
      view.selected = null;
      ctx.render();
      announce(gettext("Selection cleared."));
    }
  }

  return { onSlot, onDrop, onKey };
}
