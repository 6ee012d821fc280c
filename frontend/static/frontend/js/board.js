// Draws a position and turns clicks, drags and keys into intents for the
// page. It knows the layout of each game (12 piles in a 3 x 4 grid; 6
// columns, a bouquet), never its rules: highlights come from the API's list.

import { h, keepChildren, replace, gettext, ngettext, setVar, update } from "./dom.js";
import { cardName, parseCard, SUIT_ORDER, SUITS } from "./notation.js";
import { fill } from "./format.js";
import { movableCards, slotTarget, stacksOf, targetsFor } from "./state.js";
import { cardFace, ensureSprite, suitSign } from "./cards.js";
import { boardMetrics, metricsOf, stackPlaces } from "./layout.js";

const DRAG_THRESHOLD_PX = 6;

/** A card as drawn: its face (pips or court figure) and its corner index, rank and suit. */
export function cardElement(code, { movable = false } = {}) {
  const card = parseCard(code);
  return h(
    "div",
    {
      class: `card card--${card.suit} card--${card.colour}${"JQK".includes(card.rank) ? " card--court" : ""}${movable ? " card--movable" : ""}`,
      dataset: { card: card.code },
      "aria-hidden": "true",
    },
    cardFace(card.rank, card.suit),
    h("span", { class: "card__index" },
      h("span", { class: "card__rank" }, card.rankLabel), h("span", { class: "card__suit" }, suitSign(card.suit))),
    // The same index in the foot corner, upside down, as on a printed card.
    h("span", { class: "card__foot" }, h("span", {}, card.rankLabel), h("span", { class: "card__foot-suit" }, suitSign(card.suit))),
  );
}

/** A slot: the board's one kind of button (a tab stop only when current, setCurrent). */
function newSlot(...children) {
  return h("div", { role: "button", tabindex: "-1" }, children);
}

/** Put a stack's cards where stackPlaces says, and give the stack its size. */
function placeStack(stack, game, metrics) {
  const cards = stack.children;
  const { places, width, height } = stackPlaces(game, cards.length, metrics);
  for (let i = 0; i < cards.length; i++) {
    setVar(cards[i], "--x", `${places[i].x}px`);
    setVar(cards[i], "--y", `${places[i].y}px`);
  }
  setVar(stack, "--stack-w", `${width}px`);
  setVar(stack, "--stack-h", `${height}px`);
}

function stackLabel(game, index, cards) {
  const name = game === "cruel" ? gettext("Pile %(n)s") : gettext("Column %(n)s");
  const head = fill(name, { n: index + 1 });
  if (!cards.length) return fill(gettext("%(name)s: empty"), { name: head });
  const list = cards.map((c) => cardName(c, gettext)).join(", ");
  return fill(ngettext("%(name)s: %(count)s card, %(top)s", "%(name)s: %(count)s cards, top %(top)s; from the base: %(list)s", cards.length), {
    name: head, count: cards.length, top: cardName(cards.at(-1), gettext), list,
  });
}

function foundationLabel(f) {
  const suit = gettext(SUITS[f.suit].name);
  if (!f.count) return fill(gettext("Foundation of %(suit)s: empty"), { suit });
  return fill(gettext("Foundation of %(suit)s: up to %(top)s"), { suit, top: cardName(f.top, gettext) });
}

export class BoardView {
  /** `onSlot(slot, how, click)` is called for a click (click: {at, detail}) or key on a slot; `onDrop(card, slot|null)` after a drag. */
  constructor(root, { onSlot, onDrop, onKey }) {
    this.root = root;
    this.onSlot = onSlot;
    this.onDrop = onDrop;
    this.onKey = onKey;
    this.drag = null;
    this.suppressClick = false;
    this.current = null; // the slot that holds the board's one tab stop ("kind:index")
    this.pointerUpAt = 0;
    this.cards = new Map(); // card code -> its element, kept from one drawing to the next
    ensureSprite(root.ownerDocument);
    root.closest?.(".board-scroll")?.addEventListener("boardfit", () => this.respace());
    root.addEventListener("click", (event) => this.handleClick(event));
    root.addEventListener("pointerup", () => { this.pointerUpAt = performance.now(); }, true);
    root.addEventListener("focusin", (event) => {
      const el = event.target.closest?.(".slot");
      if (el) this.setCurrent(el);
    });
    root.addEventListener("keydown", (event) => this.handleKey(event));
    root.addEventListener("pointerdown", (event) => this.handlePointerDown(event));
  }

  /**
   * `hint`: {card, target} to light up (the card's slot and where it goes), or null.
   * `marks`: {card: "lost"|"kept"}, the cards that lost and kept a win, or null.
   * `rings`: cards drawn with the movable ring while an answer is awaited
   * (drawn only: they take no input until the server lists them again).
   */
  render(attempt, { selected = null, interactive = true, hint = null, marks = null, rings = null } = {}) {
    this.attempt = attempt;
    const { position } = attempt;
    const movable = interactive ? movableCards(attempt) : new Set();
    const targets = new Set(selected ? targetsFor(attempt, selected) : []);
    const slotAttrs = (slot, label, card) => {
      // "F" is a target on the selected card's own foundation only.
      const target = selected ? slotTarget(slot, selected) : slot.target;
      const isTarget = target !== null && targets.has(target);
      const hinted = hint && ((card && card === hint.card)
        || (slotTarget(slot, hint.card) === hint.target && hint.target !== null));
      const mark = card ? marks?.[card] : null;
      return {
        class: [
          "slot", `slot--${slot.kind}`,
          mark ? `slot--mark-${mark}` : "",
          isTarget ? "slot--target" : "",
          card && card === selected ? "slot--selected" : "",
          card && movable.has(card) ? "slot--movable" : "",
          hinted ? "slot--hint" : "",
          card && rings?.has(card) ? "slot--ring" : "",
        ].join(" ").trim(),
        "aria-disabled": interactive ? null : "true",
        "aria-pressed": card ? String(card === selected) : null,
        "aria-label": [label, isTarget ? gettext("Legal target") : "", hinted ? gettext("Hint") : "",
          mark === "lost" ? gettext("This card lost the win") : mark === "kept" ? gettext("This card kept the win") : ""]
          .filter(Boolean).join(". "),
        dataset: { kind: slot.kind, index: String(slot.index), target: slot.target ?? "", card: card ?? "" },
      };
    };
    const focusedKey = this.focusedKey();
    const stacks = stacksOf(position);
    const frame = this.frame(position.game, stacks.length);
    const metrics = metricsOf(this.root)
      ?? boardMetrics({ game: position.game, width: this.root.clientWidth || 1000, height: globalThis.innerHeight || 800 });

    stacks.forEach((cards, index) => {
      const { slot, stack } = frame.stacks[index];
      const attrs = slotAttrs({ kind: "stack", index, target: String(index + 1) },
        stackLabel(position.game, index, cards), cards.at(-1) ?? null);
      if (!cards.length) attrs.class += " slot--empty";
      update(slot, attrs);
      keepChildren(stack, cards.map((code, depth) => this.card(code, depth === cards.length - 1 && movable.has(code))));
      placeStack(stack, position.game, metrics);
    });

    SUIT_ORDER.forEach((suit, index) => {
      const f = position.foundations.find((x) => x.suit === suit) ?? { suit, count: 0, top: null };
      const { slot, empty, count } = frame.foundations[index];
      update(slot, slotAttrs({ kind: "foundation", index, target: "F" }, foundationLabel(f), null));
      update(count, { text: `${f.count}/13` });
      keepChildren(slot, [f.top ? this.card(f.top) : empty, count]);
    });

    if (frame.bouquet) {
      const codes = position.bouquet ?? [];
      const slots = codes.map((code, index) => {
        let slot = frame.bouquet.slots.get(code);
        if (!slot) {
          slot = newSlot();
          frame.bouquet.slots.set(code, slot);
        }
        update(slot, slotAttrs({ kind: "bouquet", index, target: null },
          fill(gettext("Bouquet: %(card)s"), { card: cardName(code, gettext) }), code));
        keepChildren(slot, [this.card(code, movable.has(code))]);
        return slot;
      });
      const label = fill(ngettext("Bouquet, %(n)s card", "Bouquet, %(n)s cards", codes.length), { n: codes.length });
      update(frame.bouquet.section, { "aria-label": label });
      update(frame.bouquet.label, { text: label });
      keepChildren(frame.bouquet.section, [frame.bouquet.label, ...(slots.length ? slots : [frame.bouquet.empty])]);
    }

    const keep = focusedKey ?? this.current;
    const el = (keep && this.slotElement(keep))
      ?? this.root.querySelector(".slot--movable") ?? this.root.querySelector(".slot");
    if (el) this.setCurrent(el);
    if (focusedKey && !this.root.contains(document.activeElement)) el?.focus({ preventScroll: true });
  }

  /**
   * The board's slots for `game` and its `stackCount` piles or columns,
   * built once and kept from one drawing to the next (as its cards are): a
   * move then changes the few elements it concerns, and the page lays out
   * only those again.
   */
  frame(game, stackCount) {
    if (this.frames?.game === game && this.frames.stacks.length === stackCount) return this.frames;
    const stacks = Array.from({ length: stackCount }, (_, index) => {
      const stack = h("div", { class: "stack" });
      return { slot: newSlot(h("span", { class: "slot__number", "aria-hidden": "true" }, String(index + 1)), stack), stack };
    });
    const foundations = SUIT_ORDER.map((suit) => ({
      slot: newSlot(),
      empty: h("div", { class: `card card--empty card--${suit}`, "aria-hidden": "true" },
        h("span", { class: "card__pip" }, suitSign(suit))),
      count: h("span", { class: "slot__count", "aria-hidden": "true" }),
    }));
    const parts = [
      h("section", { class: "board__foundations", "aria-label": gettext("Foundations") }, foundations.map((f) => f.slot)),
      game === "cruel"
        ? h("section", { class: "board__piles", "aria-label": gettext("Piles") }, stacks.map((s) => s.slot))
        : h("section", { class: "board__columns", "aria-label": gettext("Columns") }, stacks.map((s) => s.slot)),
    ];
    let bouquet = null;
    if (game === "flower") {
      bouquet = {
        section: h("section", { class: "board__bouquet" }),
        label: h("h2", { class: "board__label", "aria-hidden": "true" }),
        empty: h("p", { class: "board__empty" }, gettext("The bouquet is empty.")),
        slots: new Map(), // card code -> its slot (a card leaves the bouquet for good)
      };
      parts.push(bouquet.section);
    }
    this.root.className = `board board--${game}`;
    replace(this.root, parts);
    this.frames = { game, stacks, foundations, bouquet };
    return this.frames;
  }

  /**
   * A card's element, built once and moved from one drawing to the next: a
   * face is many SVG nodes, and a move changes the places of few cards.
   */
  card(code, movable = false) {
    let el = this.cards.get(code);
    if (!el) {
      el = cardElement(code);
      this.cards.set(code, el);
    }
    el.classList.toggle("card--movable", movable);
    return el;
  }

  /** Place the drawn stacks' cards again for the board's metrics now (the window changed). */
  respace() {
    const metrics = metricsOf(this.root);
    if (!metrics || !this.attempt) return;
    for (const stack of this.root.querySelectorAll(".stack")) placeStack(stack, this.attempt.position.game, metrics);
  }

  /** The board is one tab stop: the current slot (a roving tabindex). */
  setCurrent(el) {
    for (const other of this.root.querySelectorAll('.slot[tabindex="0"]')) {
      if (other !== el) other.setAttribute("tabindex", "-1");
    }
    // Only when it moves: a changed tabindex costs the page a style pass.
    if (el.getAttribute("tabindex") !== "0") el.setAttribute("tabindex", "0");
    this.current = `${el.dataset.kind}:${el.dataset.index}`;
  }

  slotElement(key) {
    const [kind, index] = key.split(":");
    return this.root.querySelector(`.slot[data-kind="${kind}"][data-index="${index}"]`)
      ?? (kind === "bouquet" ? [...this.root.querySelectorAll('.slot[data-kind="bouquet"]')].at(-1) : null);
  }

  /** Put the keyboard on the board (its current slot). */
  focus() {
    (this.root.querySelector('.slot[tabindex="0"]') ?? this.root.querySelector(".slot"))?.focus();
  }

  slots() {
    return [...this.root.querySelectorAll(".slot")];
  }

  focusedKey() {
    const el = document.activeElement?.closest?.(".slot");
    if (!el || !this.root.contains(el)) return null;
    return `${el.dataset.kind}:${el.dataset.index}`;
  }

  slotOf(el) {
    const slot = el?.closest?.(".slot");
    if (!slot || !this.root.contains(slot)) return null;
    return {
      kind: slot.dataset.kind,
      index: Number(slot.dataset.index),
      card: slot.dataset.card || null,
    };
  }

  handleClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const slot = this.slotOf(event.target);
    if (!slot) return;
    // When the click happened, not when a busy page got to it: a quick
    // double click stays one even if the first click's redraw was slow.
    this.onSlot(slot, "click", { at: event.timeStamp, detail: event.detail });
  }

  handleKey(event) {
    const slotEl = event.target.closest?.(".slot");
    if (slotEl && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      this.onSlot(this.slotOf(slotEl), "key");
      return;
    }
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (slotEl && arrows[event.key]) {
      event.preventDefault();
      this.moveFocus(slotEl, ...arrows[event.key]);
      return;
    }
    this.onKey?.(event);
  }

  /** Focus the nearest slot in a direction, by where slots are drawn. */
  moveFocus(from, dx, dy) {
    const centre = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + Math.min(r.height, 60) / 2 };
    };
    const a = centre(from);
    let best = null;
    for (const el of this.slots()) {
      if (el === from) continue;
      const b = centre(el);
      const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
      if (along <= 4) continue;
      const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
      const score = along + across * 3;
      if (!best || score < best.score) best = { el, score };
    }
    best?.el.focus();
  }

  handlePointerDown(event) {
    if (event.button !== 0) return;
    const cardEl = event.target.closest?.(".card--movable");
    if (!cardEl || !this.root.contains(cardEl)) return;
    this.drag = {
      card: cardEl.dataset.card, el: cardEl, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId,
    };
    const move = (e) => this.handlePointerMove(e);
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      this.handlePointerUp(e);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  handlePointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.el.classList.add("card--dragging");
      this.root.classList.add("board--dragging");
      // The render this causes keeps the card's element (this.cards).
      this.onSlot({ ...this.slotOf(drag.el), card: drag.card }, "drag");
    }
    drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
    const over = this.slotElementAt(event.clientX, event.clientY);
    for (const el of this.root.querySelectorAll(".slot--hover")) el.classList.remove("slot--hover");
    over?.classList.add("slot--hover");
  }

  slotElementAt(x, y) {
    const hit = document.elementsFromPoint(x, y).find((el) => el.closest?.(".slot") && !el.closest(".card--dragging"));
    const slot = hit?.closest(".slot");
    return slot && this.root.contains(slot) ? slot : null;
  }

  handlePointerUp(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.moved) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    this.root.classList.remove("board--dragging");
    drag.el.classList.remove("card--dragging");
    drag.el.style.transform = "";
    const over = event.type === "pointerup" ? this.slotElementAt(event.clientX, event.clientY) : null;
    this.onDrop(drag.card, over ? this.slotOf(over) : null);
  }
}
