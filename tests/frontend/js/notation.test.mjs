import { test } from "node:test";
import assert from "node:assert/strict";
import {
  parseCard, cardText, cardName, parseMove, moveToken, moveText, mentionsCards, rankValue,
} from "../../../frontend/static/frontend/js/notation.js";

test("a card's text gives its rank, suit symbol and colour", () => {
  assert.deepEqual(parseCard("TD"), {
    code: "TD", rank: "T", suit: "D", rankLabel: "10", symbol: "\u2666", colour: "red",
  });
  assert.equal(parseCard("ks").code, "KS");
  assert.equal(parseCard("10h").code, "TH");
  assert.equal(parseCard("AC").colour, "black");
});

test("a bad card is refused", () => {
  for (const bad of ["", "1D", "KX", "KDD", null]) {
    assert.throws(() => parseCard(bad), /not a card/);
  }
});

test("cards print as people read them", () => {
  assert.equal(cardText("TD"), "10\u2666");
  assert.equal(cardText("QS"), "Q\u2660");
  assert.equal(rankValue("A"), 1);
  assert.equal(rankValue("K"), 13);
});

test("a card's spoken name goes through gettext", () => {
  assert.equal(cardName("QH"), "queen of hearts");
  assert.equal(cardName("7C"), "7 of clubs");
  const pt = { queen: "dama", hearts: "copas", "%(rank)s of %(suit)s": "%(rank)s de %(suit)s" };
  assert.equal(cardName("QH", (s) => pt[s] ?? s), "dama de copas");
});

test("move tokens parse and print", () => {
  assert.deepEqual(parseMove("4D>2"), { card: "4D", target: "2" });
  assert.deepEqual(parseMove(" 10h > f "), { card: "TH", target: "F" });
  assert.deepEqual(parseMove("r"), { redeal: true });
  assert.deepEqual(parseMove("5C>12"), { card: "5C", target: "12" });
  assert.throws(() => parseMove("4D>0"), /not a move/);
  assert.throws(() => parseMove("4D2"), /not a move/);
  assert.equal(moveToken("td", "f"), "TD>F");
  assert.equal(moveText("4D>2"), "4\u2666 \u2192 2");
  assert.equal(moveText("4D>F"), "4\u2666 \u2192 foundation");
  assert.equal(moveText("R"), "redeal");
});

test("texts that mention a card are recognised", () => {
  assert.ok(mentionsCards("I moved 4D to the top"));
  assert.ok(mentionsCards("10\u2666"));
  assert.ok(!mentionsCards("Daily solitaire 2026-11-30 \u00B7 Cruel 52/52 \u00B7 3 redeals"));
});
