import { test } from "node:test";
import assert from "node:assert/strict";
import { analysisText, attemptLines, fetchAnalysis } from "../../../frontend/static/frontend/js/analysis.js";

const par = { moves: 40, redeals: 2 };

test("a lost win names the move and the move that kept it", () => {
  const text = analysisText({
    status: "done", verdict: "lost", par, mine: { moves: 12, redeals: 0 },
    lost_at: { move_number: 37, move: "7C>8", keeping_move: "4D>F", keeping_line: ["4D>F"] },
  });
  assert.equal(text, "The win was lost at move 37 (7♣ → 8); 4♦ → foundation kept it.");
});

test("while the day lasts the keeping move is given and the line is promised for the day's end", () => {
  const text = analysisText({
    status: "done", verdict: "lost", par, mine: { moves: 12, redeals: 0 }, sealed: true,
    lost_at: { move_number: 37, move: "7C>8", keeping_move: "4D>F" },
  });
  assert.equal(text, "The win was lost at move 37 (7♣ → 8); 4♦ → foundation kept it. "
    + "The whole line that kept it comes when the day ends.");
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

test("a heavy answer refused while another is built is asked for again", async (t) => {
  const answers = [
    { status: 429, body: { error: { code: "heavy_busy", message: "busy" } } },
    { status: 200, body: { status: "done", verdict: "still_winnable", positions: [] } },
  ];
  const asked = [];
  t.mock.method(globalThis, "fetch", async (url) => {
    asked.push(url);
    const { status, body } = answers.shift();
    return { status, ok: status < 400, statusText: "", json: async () => body };
  });
  const analysis = await fetchAnalysis(7, { steps: true, waits: [1] });
  assert.equal(analysis.verdict, "still_winnable");
  assert.equal(asked.length, 2);
  assert.match(asked[1], /\/attempts\/7\/analysis\?steps=true$/);
});

test("other refusals of the analysis show nothing, asked once", async (t) => {
  let asked = 0;
  t.mock.method(globalThis, "fetch", async () => {
    asked += 1;
    return { status: 409, ok: false, statusText: "", json: async () => ({ error: { code: "attempt_not_over" } }) };
  });
  assert.equal(await fetchAnalysis(7, { waits: [1] }), null);
  assert.equal(asked, 1);
});

test("a win of Flower Garden, which has no redeals, names none", () => {
  const text = analysisText({
    status: "done", verdict: "won", game: "flower", par: { moves: 95, redeals: 0 }, mine: { moves: 95, redeals: 0 },
  });
  assert.equal(text, "95 moves; par is 95 moves.");
  assert.doesNotMatch(text, /redeal/);
});

test("an attempt's lines wait for the verdict, then ask for the positions once, in notation", async (t) => {
  const start = "flower 4D5CJH3S4H/KS6D4S7H9D2C/KDJSTC2H7C4C/7S2STS9S3CQHJDTH/2D8D6SAC9C8C/6H3D3H8HAHKH 6C7D5H9H5SQSKCTDJC5D8SQDQCAD";
  const answers = [
    { status: 200, body: { status: "pending", verdict: null, lost_at: null } },
    { status: 200, body: { status: "done", verdict: "still_winnable", lost_at: null } },
    { status: 200, body: { status: "done", verdict: "still_winnable", lost_at: null, moves: [], positions: [start] } },
  ];
  const asked = [];
  t.mock.method(globalThis, "fetch", async (url) => {
    asked.push(url);
    const { status, body } = answers.shift();
    return { status, ok: status < 400, statusText: "", json: async () => body };
  });
  t.mock.method(globalThis, "setTimeout", (resolve) => { resolve(); return 0; });
  const found = await attemptLines(7);
  assert.deepEqual(asked.map((url) => url.endsWith("?steps=true")), [false, false, true]);
  const [first] = found.lines.mine.positions;
  assert.equal(first.game, "flower");
  assert.deepEqual(first.columns[0], ["4D", "5C", "JH", "3S", "4H"]);
  assert.equal(first.bouquet.length, 14);
});
