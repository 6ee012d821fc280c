import { test } from "node:test";
import assert from "node:assert/strict";
import { positionFromNotation } from "../../../frontend/static/frontend/js/notation.js";
import { chartPoints, labelledDays } from "../../../frontend/static/frontend/js/chart.js";
import { api, ApiError, errorText, readCookie } from "../../../frontend/static/frontend/js/api.js";

test("a position line is drawn as piles and implied foundations", () => {
  const pos = positionFromNotation("cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H");
  assert.equal(pos.piles.length, 12);
  assert.deepEqual(pos.piles[0], ["5C", "9H", "2D", "4D"]);
  assert.equal(pos.cards_home, 4);
  assert.deepEqual(pos.foundations[0], { suit: "C", count: 1, top: "AC" });
  const later = positionFromNotation("cruel -/KD/-/-/-/-/-/-/-/-/-/-");
  assert.equal(later.cards_home, 51);
  assert.deepEqual(later.piles[0], []);
  const flower = positionFromNotation("flower 8D5C3H2DQS6C/AHQCTC4C8S5H/6DJSKDQH9C2S/TD2CTH7DAC4H/5S6H4S2HQD3D/7SKH3C7CJCJD TS8C6S9H9SKC4DAD3SJHKS5D8HAS7H9D");
  assert.equal(flower.bouquet.length, 16);
  assert.equal(flower.cards_home, 0);
  assert.throws(() => positionFromNotation("cruel 5C/9H"), /12 stacks/);
  assert.throws(() => positionFromNotation("poker AC"), /not a position/);
});

test("the chart puts 52 at the top and 0 at the bottom, days left to right", () => {
  const days = [
    { date: "2026-11-28", cruel: { cards_home: 52 }, flower: null },
    { date: "2026-11-29", cruel: { cards_home: 0 }, flower: { cards_home: 26 } },
  ];
  const pad = { left: 10, right: 10, top: 10, bottom: 10 };
  const cruel = chartPoints(days, "cruel", { width: 120, height: 120, pad });
  assert.deepEqual(cruel.map((p) => [p.x, p.y]), [[10, 10], [110, 110]]);
  const flower = chartPoints(days, "flower", { width: 120, height: 120, pad });
  assert.deepEqual(flower.map((p) => [p.x, p.y]), [[110, 60]]);
});

test("the CSRF cookie is read by name", () => {
  assert.equal(readCookie("csrftoken", "a=1; csrftoken=abc%3D; b=2"), "abc=");
  assert.equal(readCookie("csrftoken", "a=1"), null);
});

test("API errors keep their code, message and state", async () => {
  const fetchImpl = async () => ({
    ok: false, status: 409, statusText: "Conflict",
    json: async () => ({ error: { code: "stale_version", message: "moved in another tab", fields: {}, state: { version: 9 } } }),
  });
  await assert.rejects(api("/attempts/1/moves", { method: "POST", body: {}, fetchImpl }), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "stale_version");
    assert.deepEqual(error.state, { version: 9 });
    return true;
  });
  const down = async () => { throw new TypeError("Failed to fetch"); };
  await assert.rejects(api("/daily", { fetchImpl: down }), (error) => error.code === "network_error");
});

test("error codes are translated, with the server's words after", () => {
  const pt = { "That move is not allowed.": "Essa jogada não é permitida." };
  const t = (s) => pt[s] ?? s;
  assert.equal(errorText(new ApiError({ status: 422, code: "illegal_move", message: "4D>3: not one rank higher" }), t),
    "Essa jogada não é permitida. 4D>3: not one rank higher");
  assert.equal(errorText(new ApiError({ status: 0, code: "network_error", message: "x" })), "The server could not be reached. Check your connection.");
  assert.equal(errorText(new ApiError({ status: 500, code: "http_500", message: "http_500" })),
    "Something went wrong on our side. Try again in a moment.");
  // No server error text, no raw id or game code reaches the player.
  assert.equal(errorText(new ApiError({ status: 500, code: "server_error", message: "Internal Server Error" })),
    "Something went wrong on our side. Try again in a moment.");
  assert.equal(errorText(new ApiError({ status: 404, code: "not_found", message: "No attempt 123 of yours." })), "Not found.");
  assert.equal(errorText(new ApiError({ status: 404, code: "deal_not_ready", message: "There is no verified cruel deal" })),
    "There is no deal for that day.");
});

test("the chart reads with one day and with a year of days", () => {
  const pad = { left: 10, right: 10, top: 10, bottom: 10 };
  const one = chartPoints([{ date: "2026-12-01", cruel: { cards_home: 52 } }], "cruel", { width: 120, height: 120, pad });
  assert.deepEqual(one.map((p) => [p.x, p.y]), [[60, 10]], "a single day stands in the middle, not on the axis");
  assert.deepEqual(labelledDays(1), [0]);
  assert.deepEqual(labelledDays(3), [0, 2]);
  assert.deepEqual(labelledDays(365), [0, 182, 364]);
  const year = Array.from({ length: 365 }, (_, i) => ({ date: `d${i}`, flower: { cards_home: i % 53 } }));
  const xs = chartPoints(year, "flower", { width: 640, height: 240, pad }).map((p) => p.x);
  assert.equal(xs[0], 10);
  assert.equal(xs.at(-1), 630);
});

test("a database outage reads as a short wait, not as a failure", () => {
  const text = errorText(new ApiError({ status: 503, code: "unavailable", message: "" }));
  assert.equal(text, "The service is briefly unavailable: try again in a moment.");
});
