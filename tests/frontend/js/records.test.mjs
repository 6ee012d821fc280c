import { test } from "node:test";
import assert from "node:assert/strict";
import { cardsHomeBins, streakWeeks, winRate } from "../../../frontend/static/frontend/js/records.js";

const rec = (cards_home, { won = cards_home === 52, ranked = true } = {}) => ({ cards_home, won, ranked });
const days = [
  { date: "2026-12-01", cruel: rec(52), flower: rec(30) },
  { date: "2026-11-30", cruel: rec(12), flower: null },
  { date: "2026-11-20", cruel: rec(52, { ranked: false }), flower: rec(45) },
];

test("the win rate counts ranked days only", () => {
  assert.deepEqual(winRate(days, "cruel"), { played: 2, won: 1 });
  assert.deepEqual(winRate(days, "flower"), { played: 2, won: 0 });
  assert.deepEqual(winRate([], "flower"), { played: 0, won: 0 });
});

test("cards home fall in five bins, 52 on its own", () => {
  const bins = cardsHomeBins(days, "cruel");
  assert.deepEqual(bins.map((b) => [b.label, b.count]),
    [["52", 1], ["40\u201351", 0], ["26\u201339", 0], ["13\u201325", 0], ["0\u201312", 1]]);
  assert.equal(cardsHomeBins(days, "flower").reduce((n, b) => n + b.count, 0), 2);
});

test("the streak calendar ends with today's week, Monday first", () => {
  const weeks = streakWeeks(days, "2026-12-01", 12); // a Tuesday
  assert.equal(weeks.length, 12);
  const last = weeks.at(-1);
  assert.deepEqual(last.slice(0, 2), [{ date: "2026-11-30", kind: "played" }, { date: "2026-12-01", kind: "won" }]);
  assert.deepEqual(last.slice(2), [null, null, null, null, null]);
  assert.equal(weeks[0][0].date, "2026-09-14");
  const practiceOnly = weeks.flat().find((d) => d?.date === "2026-11-20");
  assert.equal(practiceOnly.kind, "played", "its Flower Garden record is ranked");
  assert.equal(streakWeeks([], "2026-12-01", 1)[0][0].kind, "none");
});

test("the days before the service's first deal are not drawn as missed", () => {
  const weeks = streakWeeks(days, "2026-12-01", 12, new Set(), "2026-11-18"); // a Wednesday
  assert.equal(weeks.length, 3, "the weeks wholly before it are left out");
  assert.deepEqual(weeks[0].slice(0, 2), [null, null]);
  assert.deepEqual(weeks[0][2], { date: "2026-11-18", kind: "none" });
});

test("a day a freeze kept is drawn as frozen; a day played stays played", () => {
  const frozen = new Set(["2026-11-29", "2026-11-30"]);
  const last = streakWeeks(days, "2026-12-01", 2, frozen);
  const kinds = Object.fromEntries(last.flat().filter(Boolean).map((d) => [d.date, d.kind]));
  assert.equal(kinds["2026-11-29"], "frozen");
  assert.equal(kinds["2026-11-30"], "played");
  assert.equal(kinds["2026-11-28"], "none");
});
