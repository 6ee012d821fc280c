import { test } from "node:test";
import assert from "node:assert/strict";
import { analysisText } from "../../../frontend/static/frontend/js/analysis.js";

const par = { moves: 40, redeals: 2 };

test("a lost win names the move and the move that kept it", () => {
  const text = analysisText({
    status: "done", verdict: "lost", par, mine: { moves: 12, redeals: 0 },
    lost_at: { move_number: 37, move: "7C>8", keeping_move: "4D>F", keeping_line: ["4D>F"] },
  });
  assert.equal(text, "The win was lost at move 37 (7♣ → 8); 4♦ → foundation kept it.");
});

test("an undecided analysis is said as such, never as a verdict", () => {
  const text = analysisText({ status: "done", verdict: "undecided", lost_at: null, par });
  assert.match(text, /could not decide/);
  assert.doesNotMatch(text, /move \d/);
});

test("pending, still winnable and won each have their own words", () => {
  assert.match(analysisText({ status: "pending", par }), /still looking/);
  assert.match(analysisText({ status: "done", verdict: "still_winnable", par }), /never lost/);
  assert.equal(analysisText({ status: "done", verdict: "won", game: "cruel", par, mine: { moves: 44, redeals: 3 } }),
    "44 moves and 3 redeals; par is 40 moves and 2 redeals.");
  assert.equal(analysisText(null), null);
});

test("a win of Flower Garden, which has no redeals, names none", () => {
  const text = analysisText({
    status: "done", verdict: "won", game: "flower", par: { moves: 95, redeals: 0 }, mine: { moves: 95, redeals: 0 },
  });
  assert.equal(text, "95 moves; par is 95 moves.");
  assert.doesNotMatch(text, /redeal/);
});
