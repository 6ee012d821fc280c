import { test } from "node:test";
import assert from "node:assert/strict";
import { homeMove, isDouble, isEcho, onlyMove, DOUBLE_MS } from "../../../frontend/static/frontend/js/gestures.js";
import { playInput } from "../../../frontend/static/frontend/js/input.js";
import { DEFAULTS, loadSettings, saveSettings, slideMs, SETTINGS_KEY } from "../../../frontend/static/frontend/js/settings.js";
import { boardMetrics, NARROW_PX, stackPlaces } from "../../../frontend/static/frontend/js/layout.js";

const attempt = { legal: [{ card: "AH", targets: ["F", "3"] }, { card: "4D", targets: ["2"] }, { card: "9S", targets: ["1", "5"] }] };

test("a card goes home by a gesture only when the API lists its move home", () => {
  assert.equal(homeMove(attempt, "AH"), "AH>F");
  assert.equal(homeMove(attempt, "4D"), null);
  assert.equal(homeMove(attempt, "KC"), null);
  assert.equal(homeMove(attempt, null), null);
});

test("two clicks on the same card close together make a double", () => {
  assert.equal(isDouble({ card: "AH", at: 1000 }, "AH", 1000 + DOUBLE_MS), true);
  assert.equal(isDouble({ card: "AH", at: 1000 }, "AH", 1001 + DOUBLE_MS), false);
  assert.equal(isDouble({ card: "AH", at: 1000 }, "4D", 1100), false);
  assert.equal(isDouble(null, "AH", 1100), false);
  assert.equal(isDouble({ card: null, at: 1000 }, null, 1100), false);
});

test("a single gesture plays only a card with exactly one listed target", () => {
  assert.equal(onlyMove(attempt, "4D"), "4D>2");
  assert.equal(onlyMove(attempt, "AH"), null);
  assert.equal(onlyMove(attempt, "9S"), null);
  assert.equal(onlyMove(attempt, "KC"), null);
});

function memory(initial = {}) {
  const data = { ...initial };
  return { getItem: (k) => data[k] ?? null, setItem: (k, v) => { data[k] = v; }, data };
}

test("settings round-trip through storage; broken or unknown values fall back to defaults", () => {
  const store = memory();
  assert.deepEqual(loadSettings(store), DEFAULTS);
  saveSettings({ ...DEFAULTS, autoSafe: true, speed: "fast" }, store);
  assert.deepEqual(loadSettings(store), { ...DEFAULTS, autoSafe: true, speed: "fast" });
  assert.deepEqual(loadSettings(memory({ [SETTINGS_KEY]: "{not json" })), DEFAULTS);
  assert.deepEqual(loadSettings(memory({ [SETTINGS_KEY]: '{"autoSafe": "yes", "speed": "warp", "cardSize": "large"}' })),
    { ...DEFAULTS, cardSize: "large" });
  const full = { getItem: () => null, setItem: () => { throw new Error("quota"); } };
  assert.doesNotThrow(() => saveSettings(DEFAULTS, full));
});

test("reduced motion or speed off means no slide; every slide is well under half a second", () => {
  assert.equal(slideMs({ speed: "normal" }, true), 0);
  assert.equal(slideMs({ speed: "off" }, false), 0);
  assert.ok(slideMs({ speed: "normal" }, false) > 0 && slideMs({ speed: "normal" }, false) * 1.5 < 500);
  assert.ok(slideMs({ speed: "fast" }, false) < slideMs({ speed: "normal" }, false));
});

test("cards grow with the width and the board fits the height on a wide screen", () => {
  for (const game of ["cruel", "flower"]) {
    const laptop = boardMetrics({ game, width: 1240, height: 560 });
    const big = boardMetrics({ game, width: 1880, height: 840 });
    assert.ok(big.cardW > laptop.cardW, game);
    assert.ok(laptop.cardW >= 84, `${game}: ${laptop.cardW}`);
    // A phone: the width bounds the cards, never below a finger's 44 px.
    const phone = boardMetrics({ game, width: 366, height: 600 });
    assert.ok(phone.narrow && 366 < NARROW_PX);
    assert.ok(phone.cardW >= 44 && phone.cardW <= 70, `${game}: ${phone.cardW}`);
    assert.equal(boardMetrics({ game, width: 366, height: 100 }).cardW, 44);
  }
});

test("each stack is spaced on its own length, never closer than a covered card's index", () => {
  for (const [width, height] of [[1240, 560], [366, 600]]) {
    const m = boardMetrics({ game: "flower", width, height });
    const short = stackPlaces("flower", 2, m);
    const long = stackPlaces("flower", 18, m);
    // A short column keeps its usual step while another grows long.
    assert.equal(short.places[1].y, m.fan + m.ring);
    const steps = long.places.slice(1, -1).map((p, i) => p.y - long.places[i].y);
    assert.ok(steps.every((step) => step >= m.indexH && step <= m.fan), `${width}: ${steps}`);
    // The top card stands a ring's width further; the column grows instead of squeezing.
    assert.equal(long.places.at(-1).y - long.places.at(-2).y, steps[0] + m.ring);
    assert.ok(long.height > m.columnRoom);
    assert.equal(long.height, long.places.at(-1).y + m.cardH);
  }
});

test("a Cruel pile fans sideways in its width and goes on in a row below its indexes", () => {
  for (const [width, height] of [[1240, 560], [366, 600]]) {
    const m = boardMetrics({ game: "cruel", width, height });
    const four = stackPlaces("cruel", 4, m);
    assert.deepEqual(four.places.map((p) => p.y), [0, 0, 0, 0], "a dealt pile is one row");
    assert.equal(four.height, m.cardH);
    assert.ok(four.width <= m.pileRoom + m.ring);
    const nine = stackPlaces("cruel", 9, m);
    for (let i = 1; i < 9; i++) {
      const [a, b] = [nine.places[i - 1], nine.places[i]];
      if (a.y === b.y) assert.ok(b.x - a.x >= m.indexW, `${width}: ${i}`);
      else assert.ok(b.y - a.y >= m.indexStackH, `${width}: ${i}`);
    }
    assert.ok(nine.width <= m.pileRoom + m.ring && nine.height > m.cardH);
  }
});

test("a click that sent a move starts no double; the second half of a double that sent its card is an echo", () => {
  const sent = { sent: true, onCard: true, at: 1000 };
  assert.equal(isDouble(sent, "AH", 1100), false);
  assert.equal(isDouble(sent, "AH", 1100, 2), false);
  // The browser's count makes a double however slowly its halves came.
  assert.equal(isDouble({ card: "AH", at: 1000 }, "AH", 1000 + 3 * DOUBLE_MS, 2), true);
  assert.equal(isDouble({ card: "AH", at: 1000 }, "AH", 1000 + 3 * DOUBLE_MS, 1), false);
  assert.equal(isEcho(sent, { at: 1100, detail: 2 }), true); // the browser counts a double click
  assert.equal(isEcho(sent, { at: 1100, detail: 1 }), false); // a click of its own, however quick
  assert.equal(isEcho(sent, { at: 1100, detail: 0 }), false); // a click of the page's own
  assert.equal(isEcho({ ...sent, onCard: false }, { at: 1100, detail: 2 }), false); // a target clicked
  assert.equal(isEcho({ card: "AH", at: 1000 }, { at: 1100, detail: 2 }), false);
});

/** The play page's input on a board of its own: what it sends, what it selects. */
function playedInput(attempt, settings = { oneGesture: true }) {
  globalThis.document ??= { getElementById: () => null }; // announce() finds no live region
  const view = { busy: false, attempt, settings, selected: null, lastClick: null, queue: [] };
  const sent = [];
  const ctx = { view, game: "cruel", render() {}, showMessage() {} };
  const input = playInput(ctx, { submitMove: (token) => sent.push(token), whenFree: (action) => action() });
  const click = (card, at, detail = 1) => input.onSlot({ kind: "stack", index: 0, card }, "click", { at, detail });
  return { view, sent, click };
}

test("one gesture: a card moved by one click and clicked again at its new place is not sent home", () => {
  const before = { status: "playing", legal: [{ card: "4D", targets: ["2"] }] };
  const { view, sent, click } = playedInput(before);
  click("4D", 1000);
  assert.deepEqual(sent, ["4D>2"]);
  // The answer: 4D lies on pile 2 now, where it may go home or to pile 5.
  view.attempt = { status: "playing", legal: [{ card: "4D", targets: ["F", "5"] }] };
  click("4D", 1150);
  assert.deepEqual(sent, ["4D>2"]);
  assert.equal(view.selected, "4D");
  click("4D", 1300, 2); // a double click of its own
  assert.deepEqual(sent, ["4D>2", "4D>F"]);
});

test("one gesture: the second click of a double click that sent its card does not touch the card beneath", () => {
  const { view, sent, click } = playedInput({ status: "playing", legal: [{ card: "AH", targets: ["F"] }] });
  click("AH", 1000);
  view.attempt = { status: "playing", legal: [{ card: "9S", targets: ["1"] }, { card: "4D", targets: ["2"] }] };
  click("9S", 1120, 2); // beneath AH, where the double click's second half lands
  assert.deepEqual(sent, ["AH>F"]);
  assert.equal(view.selected, null);
  click("4D", 1200); // quick, but a click of its own
  assert.deepEqual(sent, ["AH>F", "4D>2"]);
});

test("one gesture: quick single clicks down one pile each play their card", () => {
  const { view, sent, click } = playedInput({ status: "playing", legal: [{ card: "AH", targets: ["F"] }] });
  click("AH", 1000);
  view.attempt = { status: "playing", legal: [{ card: "9S", targets: ["1"] }] };
  click("9S", 1100); // the card beneath, at the same place, a new click
  assert.deepEqual(sent, ["AH>F", "9S>1"]);
});

test("a double click that sent a card home leaves the next click, even quick and in place, free", () => {
  const { view, sent, click } = playedInput({ status: "playing", legal: [{ card: "AH", targets: ["F", "3"] }] });
  click("AH", 1000);
  assert.equal(view.selected, "AH");
  click("AH", 1100, 2);
  assert.deepEqual(sent, ["AH>F"]);
  view.selected = null; // the answer's redraw
  view.attempt = { status: "playing", legal: [{ card: "2H", targets: ["F", "5"] }] };
  click("2H", 1200, 3); // the next double click, on the card that lay beneath
  click("2H", 1300, 4); // (the browser may go on counting)
  assert.deepEqual(sent, ["AH>F", "2H>F"]);
});

test("Flower Garden's cards are sized so that its longest column stays in the window", () => {
  for (const [width, height] of [[1248, 600], [374, 640]]) {
    const dealt = boardMetrics({ game: "flower", width, height });
    assert.deepEqual(boardMetrics({ game: "flower", width, height, longest: 6, bouquet: 10 }), dealt);
    let before = dealt;
    for (const longest of [8, 12, 17]) {
      const m = boardMetrics({ game: "flower", width, height, longest, bouquet: 10 });
      assert.ok(m.cardW <= before.cardW, `${width}: ${longest}`);
      const column = stackPlaces("flower", longest, m);
      // The board: the foundations' row, the column, on a phone the bouquet's two rows (labels and gaps: 80 px).
      const board = m.cardH + column.height + (m.narrow ? 2 * m.cardH : 0) + 80;
      assert.ok(board <= height, `${width}x${height}, ${longest} cards: ${board}`);
      before = m;
    }
  }
});
