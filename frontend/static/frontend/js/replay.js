// The replay of a past day's verified solution, step by step or playing by
// itself. Every position along the way comes from the server; the browser
// only draws them, sliding the cards between steps (not under reduced
// motion). The address names the step (#step=12), so a step can be linked to.

import { api, errorText } from "./api.js";
import { reducedMotion, slide, snapshot } from "./animate.js";
import { BoardView } from "./board.js";
import { announce, gettext, h, replace } from "./dom.js";
import { fill } from "./format.js";
import { fitBoard } from "./layout.js";
import { moveText } from "./notation.js";
import { replayAttempt, showPostMortem } from "./analysis.js";
import { stacksOf } from "./state.js";

const root = document.querySelector("[data-replay]");
const { game, date } = root.dataset;
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);
const board = new BoardView($("board"), { onSlot() {}, onDrop() {}, onKey() {} });
const state = { moves: [], positions: [], step: 0, timer: null };

/** The step the address names (#step=N), or 0. */
export function stepFromHash(hash, total) {
  const match = /^#step=(\d+)$/.exec(hash || "");
  return match ? Math.min(total, Number(match[1])) : 0;
}

function slideMs(stepMs) {
  return reducedMotion() ? 0 : Math.min(300, Math.round(stepMs * 0.6));
}

function draw(position, ms) {
  const longest = Math.max(0, ...stacksOf(position).map((stack) => stack.length));
  fitBoard($("board-scroll"), { game, longest, scale: 1 });
  const before = snapshot($("board"));
  board.render({ position, legal: [] }, { interactive: false });
  slide($("board"), before, { ms, redeal: false });
}

function show(step, { ms = slideMs(1000), say = true } = {}) {
  state.step = Math.max(0, Math.min(state.moves.length, step));
  const known = state.positions[state.step] ?? null;
  $("no-positions").hidden = state.positions.length > 1;
  if (known) draw(known, ms);
  root.dataset.step = String(state.step);
  const current = state.step ? moveText(state.moves[state.step - 1], gettext) : gettext("start");
  const text = fill(gettext("Step %(step)s of %(total)s: %(move)s"), { step: state.step, total: state.moves.length, move: current });
  $("step").textContent = text;
  if (say) announce(text);
  for (const [i, li] of [...$("moves").children].entries()) {
    if (i + 1 === state.step) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  $("first").disabled = $("back").disabled = state.step === 0;
  $("forward").disabled = $("last").disabled = state.step === state.moves.length;
  history.replaceState(null, "", state.step ? `#step=${state.step}` : window.location.pathname + window.location.search);
  if (state.step === state.moves.length) pause();
}

function stepMs() {
  return Number($("speed").value) || 1000;
}

function play() {
  if (state.step === state.moves.length) show(0, { ms: 0 });
  state.timer = setInterval(() => show(state.step + 1, { ms: slideMs(stepMs()), say: false }), stepMs());
  root.dataset.playing = "true";
  $("play").textContent = gettext("Pause");
  $("play").setAttribute("aria-pressed", "true");
}

function pause() {
  clearInterval(state.timer);
  state.timer = null;
  root.dataset.playing = "false";
  $("play").textContent = gettext("Play");
  $("play").setAttribute("aria-pressed", "false");
}

/** A button press stops the playing, then steps. */
function stepTo(step) {
  pause();
  show(step);
}

async function load() {
  try {
    const attemptId = new URLSearchParams(window.location.search).get("attempt");
    if (attemptId) return await replayAttempt(attemptId, { root, state, show, $ });
    // Both asked at once: positions[0] is the start, positions[i] the layout after move i.
    const solution = api(`/daily/${date}/${game}/solution`).catch((error) => error);
    const deal = await api(`/daily/${date}/${game}`);
    if (!deal.day_over || !deal.solution) {
      $("message").hidden = false;
      $("message").textContent = gettext("The solution is published once the day is over.");
      return;
    }
    state.moves = deal.solution.split(/\s+/).filter(Boolean);
    const steps = await solution;
    if (steps instanceof Error) {
      if (steps.status !== 404) throw steps;
      state.positions = [deal.position];
    } else {
      state.moves = steps.moves;
      state.positions = steps.positions;
    }
    replace($("moves"), state.moves.map((token, i) => h("li", {},
      h("button", { type: "button", class: "linklike", dataset: { step: String(i + 1) } }, moveText(token, gettext)))));
    $("player").hidden = false;
    show(stepFromHash(window.location.hash, state.moves.length), { ms: 0 });
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

$("first").addEventListener("click", () => stepTo(0));
$("back").addEventListener("click", () => stepTo(state.step - 1));
$("forward").addEventListener("click", () => stepTo(state.step + 1));
$("last").addEventListener("click", () => stepTo(state.moves.length));
$("play").addEventListener("click", () => (state.timer ? pause() : play()));
$("speed").addEventListener("change", () => {
  if (state.timer) {
    pause();
    play();
  }
});
$("moves").addEventListener("click", (event) => {
  const step = event.target.closest("button")?.dataset.step;
  if (step) stepTo(Number(step));
});
root.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowRight") stepTo(state.step + 1);
  else if (event.key === "ArrowLeft") stepTo(state.step - 1);
});
window.addEventListener("hashchange", () => stepTo(stepFromHash(window.location.hash, state.moves.length)));
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => show(state.step, { ms: 0, say: false }), 100);
});
load();
