import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatDuration, formatCountdown, secondsLeft, formatShare, shareText, formatLocalTime, fill,
} from "../../../frontend/static/frontend/js/format.js";
import { mentionsCards } from "../../../frontend/static/frontend/js/notation.js";

test("durations read as m:ss, or h:mm:ss past an hour", () => {
  assert.equal(formatDuration(0), "0:00");
  assert.equal(formatDuration(75.9), "1:15");
  assert.equal(formatDuration(3725), "1:02:05");
  assert.equal(formatDuration(-3), "0:00");
  assert.equal(formatDuration(null), "0:00");
});

test("the countdown runs down from the server's figure", () => {
  assert.equal(secondsLeft(100, 1000, 1000), 100);
  assert.equal(secondsLeft(100, 1000, 31_000), 70);
  assert.equal(secondsLeft(100, 1000, 500_000), 0);
  assert.equal(formatCountdown(3725.2), "01:02:06");
  assert.equal(formatCountdown(0), "00:00:00");
  assert.equal(formatCountdown(86399), "23:59:59");
});

test("the next day's start is shown in the player's own zone", () => {
  const iso = "2026-12-01T00:00:00+00:00";
  assert.match(formatLocalTime(iso, "en-GB", "Europe/Lisbon"), /00:00/);
  assert.match(formatLocalTime(iso, "en-GB", "America/New_York"), /19:00/);
  assert.equal(formatLocalTime("not a date", "en", "UTC"), "");
});

test("shares are whole percentages and never round up to 100", () => {
  assert.equal(formatShare(0.753), "75%");
  assert.equal(formatShare(0.999), "99%");
  assert.equal(formatShare(1), "100%");
  assert.equal(formatShare(undefined), "0%");
});

test("the share text gives the record and nothing of the deal", () => {
  const text = shareText({
    game: "cruel", date: "2026-11-30", status: "won",
    counters: { cards_home: 52, redeals: 3, undos: 1, moves: 80 },
    elapsedSeconds: 252, rank: 2, total: 40,
  });
  assert.match(text, /2026-11-30/);
  assert.match(text, /52\/52/);
  assert.match(text, /3 redeals/);
  assert.match(text, /1 undos/);
  assert.match(text, /4:12/);
  assert.match(text, /#2 of 40/);
  assert.match(text, /\u2713/);
  assert.match(text, /\u25A0{10}$/);
  assert.ok(!mentionsCards(text), text);
});

test("Flower Garden's share text has no redeals", () => {
  const text = shareText({
    game: "flower", date: "2026-11-30", status: "blocked",
    counters: { cards_home: 20, redeals: 0, undos: 0, moves: 10 }, elapsedSeconds: 61,
  });
  assert.doesNotMatch(text, /redeals/);
  assert.match(text, /Flower Garden/);
  assert.match(text, /20\/52/);
  assert.ok(!mentionsCards(text), text);
});

test("placeholders are filled by name", () => {
  assert.equal(fill("%(a)s and %(b)s", { a: 1, b: "x" }), "1 and x");
});
