// The replay of a past day's verified solution, step by step. Every position
// along the way comes from the server; the browser only draws them.

import { api, errorText } from "./api.js";
import { BoardView } from "./board.js";
import { announce, gettext, h, replace } from "./dom.js";
import { fill } from "./format.js";
import { moveText } from "./notation.js";
import { replayAttempt, showPostMortem } from "./analysis.js";

const root = document.querySelector("[data-replay]");
const { game, date } = root.dataset;
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);
const board = new BoardView($("board"), { onSlot() {}, onDrop() {}, onKey() {} });
const state = { moves: [], positions: [], step: 0 };

function show(step) {
  state.step = Math.max(0, Math.min(state.moves.length, step));
  const known = state.positions[state.step] ?? null;
  $("no-positions").hidden = state.positions.length > 1;
  if (known) board.render({ position: known, legal: [] }, { interactive: false });
  root.dataset.step = String(state.step);
  const current = state.step ? moveText(state.moves[state.step - 1], gettext) : gettext("start");
  const text = fill(gettext("Step %(step)s of %(total)s: %(move)s"), { step: state.step, total: state.moves.length, move: current });
  $("step").textContent = text;
  announce(text);
  for (const [i, li] of [...$("moves").children].entries()) {
    if (i + 1 === state.step) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  $("first").disabled = $("back").disabled = state.step === 0;
  $("forward").disabled = $("last").disabled = state.step === state.moves.length;
}

async function load() {
  try {
    const attemptId = new URLSearchParams(window.location.search).get("attempt");
    if (attemptId) return await replayAttempt(attemptId, { root, state, show, $ });
    const deal = await api(`/daily/${date}/${game}`);
    if (!deal.day_over || !deal.solution) {
      $("message").hidden = false;
      $("message").textContent = gettext("The solution is published once the day is over.");
      return;
    }
    state.moves = deal.solution.split(/\s+/).filter(Boolean);
    try {
      // positions[0] is the start, positions[i] the layout after move i.
      const steps = await api(`/daily/${date}/${game}/solution`);
      state.moves = steps.moves;
      state.positions = steps.positions;
    } catch (error) {
      if (error.status !== 404) throw error;
      state.positions = [deal.position];
    }
    replace($("moves"), state.moves.map((token, i) => h("li", {},
      h("button", { type: "button", class: "linklike", dataset: { step: String(i + 1) } }, moveText(token, gettext)))));
    $("player").hidden = false;
    show(0);
    showPostMortem($("player"), game, date);
  } catch (error) {
    if (error.code === "deal_not_ready") {
      $("no-deal").hidden = false; // an ordinary day without a deal, said plainly
      $("intro").hidden = true;
      return;
    }
    $("message").hidden = false;
    $("message").textContent = errorText(error, gettext);
  }
}

$("first").addEventListener("click", () => show(0));
$("back").addEventListener("click", () => show(state.step - 1));
$("forward").addEventListener("click", () => show(state.step + 1));
$("last").addEventListener("click", () => show(state.moves.length));
$("moves").addEventListener("click", (event) => {
  const step = event.target.closest("button")?.dataset.step;
  if (step) show(Number(step));
});
root.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowRight") show(state.step + 1);
  else if (event.key === "ArrowLeft") show(state.step - 1);
});
load();
