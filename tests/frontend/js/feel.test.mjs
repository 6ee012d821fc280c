import { test } from "node:test";
import assert from "node:assert/strict";
import { homeMove, isDouble, onlyMove, DOUBLE_MS } from "../../../frontend/static/frontend/js/gestures.js";
import { DEFAULTS, loadSettings, saveSettings, slideMs, SETTINGS_KEY } from "../../../frontend/static/frontend/js/settings.js";
import { boardMetrics, NARROW_PX } from "../../../frontend/static/frontend/js/layout.js";

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
  // Longer Flower columns fan closer instead of growing past six cards' height.
  const six = boardMetrics({ game: "flower", width: 1240, height: 560, longest: 6 });
  const twelve = boardMetrics({ game: "flower", width: 1240, height: 560, longest: 12 });
  assert.equal(six.cardW, twelve.cardW);
  assert.ok(twelve.fan * 11 <= 5 * 0.3 * 1.4 * six.cardW);
  assert.ok(twelve.fan < six.fan);
});
