import { test } from "node:test";
import assert from "node:assert/strict";
import {
  targetsFor, movableCards, isListedLegal, locateCard, previewMove, optimisticAttempt,
  runningSeconds, clickIntent, slotTarget, isActive,
} from "../../../frontend/static/frontend/js/state.js";

// The worked examples of docs/notation.md, in the API's structured form.
const cruelPiles = "5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H"
  .split("/").map((p) => p.match(/../g));
const foundations = (counts) => ["C", "D", "H", "S"].map((suit, i) => ({
  suit, count: counts[i], top: counts[i] ? `${"A23456789TJQK"[counts[i] - 1]}${suit}` : null,
}));
const cruel = () => ({
  id: 1, game: "cruel", status: "playing", finished: false, version: 0,
  position: { game: "cruel", notation: "cruel ...", piles: cruelPiles, foundations: foundations([1, 1, 1, 1]), cards_home: 4 },
  legal: [
    { card: "2C", targets: ["9", "F"] }, { card: "2H", targets: ["3", "F"] },
    { card: "3H", targets: ["12"] }, { card: "4D", targets: ["2"] }, { card: "4H", targets: ["4"] },
  ],
  can_redeal: false, can_undo: false,
  counters: { cards_home: 4, redeals: 0, undos: 0, moves: 0 },
  elapsed_seconds: 10, ended_at: null,
});
const flower = () => ({
  id: 2, game: "flower", status: "playing", finished: false, version: 0,
  position: {
    game: "flower",
    columns: "8D5C3H2DQS6C/AHQCTC4C8S5H/6DJSKDQH9C2S/TD2CTH7DAC4H/5S6H4S2HQD3D/7SKH3C7CJCJD".split("/").map((c) => c.match(/../g)),
    bouquet: "TS8C6S9H9SKC4DAD3SJHKS5D8HAS7H9D".match(/../g),
    foundations: foundations([0, 0, 0, 0]), cards_home: 0,
  },
  legal: [{ card: "5D", targets: ["1"] }, { card: "AD", targets: ["3", "F"] }],
  can_redeal: false, can_undo: false, counters: { cards_home: 0, redeals: 0, undos: 0, moves: 0 },
});

test("targets come from the API's legal list only", () => {
  const attempt = cruel();
  assert.deepEqual(targetsFor(attempt, "2C"), ["9", "F"]);
  assert.deepEqual(targetsFor(attempt, "5C"), []);
  assert.deepEqual(targetsFor(null, "2C"), []);
  assert.deepEqual([...movableCards(attempt)].sort(), ["2C", "2H", "3H", "4D", "4H"]);
  assert.ok(isListedLegal(attempt, "4D>2"));
  assert.ok(!isListedLegal(attempt, "4D>3"));
  assert.ok(!isListedLegal(attempt, "R"));
  assert.ok(isListedLegal({ ...attempt, can_redeal: true }, "R"));
});

test("an attempt is active only while playing and unfinished", () => {
  assert.ok(isActive(cruel()));
  assert.ok(!isActive({ ...cruel(), status: "won", finished: true }));
  assert.ok(!isActive({ ...cruel(), status: "blocked" }));
  assert.ok(!isActive(null));
});

test("cards are found on piles, in the bouquet and on foundations", () => {
  assert.deepEqual(locateCard(cruel().position, "4D"), { area: "stack", index: 0, depth: 3 });
  assert.deepEqual(locateCard(cruel().position, "AH"), { area: "foundation", index: 2, depth: 0 });
  assert.deepEqual(locateCard(flower().position, "5D"), { area: "bouquet", index: 11, depth: 0 });
  assert.deepEqual(locateCard(flower().position, "AC"), { area: "stack", index: 3, depth: 4 });
  const emptied = { ...cruel().position, piles: cruelPiles.map(() => []) };
  assert.equal(locateCard(emptied, "2C"), null);
});

test("a previewed move carries the card onto its pile (docs/notation.md's 4D>2)", () => {
  const next = previewMove(cruel().position, "4D>2");
  assert.deepEqual(next.piles[0], ["5C", "9H", "2D"]);
  assert.deepEqual(next.piles[1], ["KD", "3S", "8C", "5D", "4D"]);
  assert.deepEqual(next.piles.slice(2), cruelPiles.slice(2));
  assert.equal(next.cards_home, 4);
  assert.deepEqual(cruel().position.piles[0], ["5C", "9H", "2D", "4D"], "the input is not changed");
});

test("a previewed move to the foundation counts the card home", () => {
  const next = previewMove(cruel().position, "2C>F");
  assert.equal(next.cards_home, 5);
  assert.deepEqual(next.foundations[0], { suit: "C", count: 2, top: "2C" });
  assert.deepEqual(next.piles[4], ["QC", "6D", "KS"]);
});

test("a bouquet card leaves the middle of the bouquet (docs/notation.md's 5D>1)", () => {
  const next = previewMove(flower().position, "5D>1");
  assert.deepEqual(next.columns[0], ["8D", "5C", "3H", "2D", "QS", "6C", "5D"]);
  assert.equal(next.bouquet.length, 15);
  assert.ok(!next.bouquet.includes("5D"));
  assert.equal(next.bouquet[11], "8H");
});

test("a redeal is not predicted: the page waits for the server", () => {
  assert.equal(previewMove(cruel().position, "R"), null);
  assert.equal(optimisticAttempt(cruel(), "R"), null);
});

test("an optimistic attempt allows nothing more until the answer", () => {
  const shown = optimisticAttempt(cruel(), "2H>F");
  assert.deepEqual(shown.legal, []);
  assert.equal(shown.can_undo, false);
  assert.equal(shown.counters.cards_home, 5);
  assert.equal(shown.counters.moves, 1);
  assert.equal(shown.pending, "2H>F");
});

test("the running time continues from the server's figure", () => {
  assert.equal(runningSeconds(cruel(), 1000, 4000), 13);
  assert.equal(runningSeconds({ ...cruel(), finished: true, ended_at: "x" }, 1000, 4000), 10);
  assert.equal(runningSeconds(cruel(), 5000, 4000), 10);
});

test("a click selects, moves, reselects or deselects", () => {
  const attempt = cruel();
  const pile = (index) => ({ kind: "stack", index, card: cruelPiles[index].at(-1) });
  assert.deepEqual(clickIntent(attempt, null, pile(0)), { action: "select", card: "4D" });
  assert.deepEqual(clickIntent(attempt, null, pile(1)), { action: "none" });
  assert.deepEqual(clickIntent(attempt, "4D", pile(1)), { action: "move", token: "4D>2" });
  assert.deepEqual(clickIntent(attempt, "4D", pile(0)), { action: "deselect" });
  assert.deepEqual(clickIntent(attempt, "4D", pile(4)), { action: "select", card: "2C" });
  // Not listed: the server is asked, and its refusal says why.
  assert.deepEqual(clickIntent(attempt, "4D", pile(6)), { action: "move", token: "4D>7" });
  assert.deepEqual(clickIntent(attempt, "2C", { kind: "foundation", index: 0, card: null }), { action: "move", token: "2C>F" });
  assert.deepEqual(clickIntent(flower(), "5D", { kind: "bouquet", index: 0, card: "TS" }), { action: "deselect" });
});

test("slots name their move targets", () => {
  assert.equal(slotTarget({ kind: "stack", index: 11 }), "12");
  assert.equal(slotTarget({ kind: "foundation", index: 2 }), "F");
  assert.equal(slotTarget({ kind: "bouquet", index: 2 }), null);
  // "F" is the card's own foundation: another suit's stands for no move.
  assert.equal(slotTarget({ kind: "foundation", index: 0 }, "2C"), "F");
  assert.equal(slotTarget({ kind: "foundation", index: 2 }, "2C"), null);
  assert.equal(slotTarget({ kind: "stack", index: 3 }, "2C"), "4");
});

test("a click on another suit's foundation does not send the card home", () => {
  const attempt = cruel();
  assert.deepEqual(clickIntent(attempt, "2C", { kind: "foundation", index: 1, card: null }), { action: "deselect" });
  assert.deepEqual(clickIntent(attempt, "2C", { kind: "foundation", index: 0, card: null }), { action: "move", token: "2C>F" });
});
