import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatDuration, formatCountdown, secondsLeft, formatShare, shareText, formatLocalTime, fill,
  formatDate, formatMonth, formatTimeLeft, dayUrl, weekdayNames, ordinal, placeText,
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
  assert.match(text, /· 1 undo ·/);
  assert.match(text, /· 4:12\.0$/m);
  assert.match(text, /#2 of 40/);
  assert.match(text, /\u2713/);
  assert.match(text, /^\u25A0{10}$/m);
  // Short lines that fit a phone: the day, the record, the standing, the squares.
  assert.ok(text.split("\n").every((line) => line.length <= 48), text);
  assert.ok(!mentionsCards(text), text);
});

test("the share text gives the record's time in the tenths of the leaderboard", () => {
  const text = shareText({
    game: "flower", date: "2026-11-30", status: "won", lang: "pt-pt",
    counters: { cards_home: 52, redeals: 0, undos: 0, moves: 60 }, elapsedSeconds: 0.1,
  });
  assert.match(text, /· 0:00,1$/m);
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

test("the share text ends with the day's link and counts in plural forms", () => {
  const url = dayUrl("https://example.org", "cruel", "2026-12-01");
  const base = { game: "cruel", date: "2026-12-01", status: "playing", elapsedSeconds: 61, url, lang: "en" };
  const one = shareText({ ...base, counters: { cards_home: 9, redeals: 1, undos: 1, moves: 3 } });
  assert.equal(one.split("\n")[0], "Daily solitaire, 1 December 2026");
  assert.match(one, /^Cruel \u2717 9\/52 · 1 redeal · 1 undo · /m);
  assert.equal(one.split("\n").at(-1), "https://example.org/play/cruel/2026-12-01/");
  const two = shareText({ ...base, counters: { cards_home: 9, redeals: 2, undos: 2, moves: 3 } });
  assert.match(two, /· 2 redeals · 2 undos ·/);
  // The catalog's ngettext picks the form; here a stand-in shows it is asked with n.
  const asked = [];
  shareText({ ...base, counters: { cards_home: 9, redeals: 0, undos: 5, moves: 3 } },
    (s) => s, (one_, other, n) => { asked.push(n); return n === 1 ? one_ : other; });
  assert.deepEqual(asked, [0, 5]);
  assert.ok(!mentionsCards(one), one);
});

test("dates read in the page's language, never ISO", () => {
  assert.equal(formatDate("2026-12-01", "en"), "1 December 2026");
  assert.equal(formatDate("2026-12-01", "pt-pt"), "1 de dezembro de 2026");
  assert.equal(formatMonth("2026-12", "pt-pt"), "dezembro de 2026");
  assert.equal(formatMonth("2026-02", "en"), "February 2026");
  assert.equal(formatDate("not a date", "en"), "not a date");
});

test("the time left reads in hours and minutes, then minutes and seconds", () => {
  assert.equal(formatTimeLeft(7 * 3600 + 49 * 60), "7\u00A0h 49\u00A0min");
  assert.equal(formatTimeLeft(49 * 60 + 2.2), "49\u00A0min 3\u00A0s");
  assert.equal(formatTimeLeft(0.2), "1\u00A0s");
  assert.equal(formatTimeLeft(0), "0\u00A0s");
});

test("weeks start on Monday, in the page's language", () => {
  assert.deepEqual(weekdayNames("pt-pt")[0], { short: "segunda", long: "segunda-feira" });
  assert.deepEqual(weekdayNames("en")[6], { short: "Sun", long: "Sunday" });
});

test("leaderboard times read in the tenths that rank them", async () => {
  const { formatTenths } = await import("../../../frontend/static/frontend/js/format.js");
  assert.equal(formatTenths(7, "en"), "0:07.0");
  assert.equal(formatTenths(67.3, "en"), "1:07.3");
  assert.equal(formatTenths(67.3, "pt-pt"), "1:07,3");
  assert.equal(formatTenths(0.7, "en"), "0:00.7");
  assert.equal(formatTenths(3725.1, "en"), "1:02:05.1");
  // Cut, never rounded, as the API cuts (api.play.attempts.domain.record_seconds).
  assert.equal(formatTenths(7.09, "en"), "0:07.0");
  assert.equal(formatTenths(0.15, "en"), "0:00.1");
  for (let tenths = 0; tenths < 10000; tenths += 1) {
    const seconds = tenths / 10; // the API's elapsed_seconds: (ms // 100) / 10
    const shown = formatTenths(seconds, "en");
    assert.equal(shown.slice(-1), String(tenths % 10), `${seconds} -> ${shown}`);
  }
});

test("a rank reads right alone, tied and ahead of others", async () => {
  const { rankText } = await import("../../../frontend/static/frontend/js/format.js");
  assert.equal(rankText({ rank: 1, total: 1, beaten: 0 }), "Rank 1 of 1: the only ranked player so far.");
  assert.equal(rankText({ rank: 1, total: 9, beaten: 0 }), "Rank 1 of 9, shared with 8 other players.");
  assert.equal(rankText({ rank: 1, total: 2, beaten: 0 }), "Rank 1 of 2, shared with 1 other player.");
  assert.equal(rankText({ rank: 2, total: 6, beaten: 3 }),
    "Rank 2 of 6, shared with 1 other player. You did better than 60% of the other players.");
  assert.equal(rankText({ rank: 1, total: 3, beaten: 2 }), "Rank 1 of 3. You did better than 100% of the other players.");
  assert.equal(rankText({ rank: 3, total: 3, beaten: 0 }), "Rank 3 of 3.");
});

test("English times of day are on a 24-hour clock, as the dates are UK-style", async () => {
  const { formatLocalTime } = await import("../../../frontend/static/frontend/js/format.js");
  const text = formatLocalTime("2026-12-02T00:00:00+00:00", "en", "UTC");
  assert.match(text, /00:00/);
  assert.doesNotMatch(text, /AM|PM/);
});

test("a league place reads as an ordinal of the members who played", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map((n) => ordinal(n, "en")),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]);
  assert.equal(ordinal(3, "pt-pt"), "3.\u00ba");
  const league = { id: 1, name: "Os da Sé" };
  assert.equal(placeText({ league, rank: 3, players: 7, members: 9 }, undefined, "en"), "3rd of 7 in Os da Sé");
  assert.equal(placeText({ league, rank: null, players: 2, members: 9 }, undefined, "en"), "Os da Sé: 2 of 9 have played");
});
