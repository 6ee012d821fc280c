// The replay of a past day's verified solution, step by step or playing by
// itself. Every position along the way comes from the server; the browser
// only draws them, sliding the cards between steps (not under reduced
// motion). The address names the step (#step=12), so a step can be linked to.
// With ?attempt=id it replays the player's own attempt: their line, the line
// that kept the win and the day's solution, chosen by a segmented control;
// the heading, the tab's title and the scrubber's mark follow the choice.

import { api, errorText } from "./api.js";
import { reducedMotion, slide, snapshot } from "./animate.js";
import { BoardView } from "./board.js";
import { announce, gettext, h, replace } from "./dom.js";
import { fill } from "./format.js";
import { fitBoard } from "./layout.js";
import { moveText, positionFromNotation } from "./notation.js";
import { analysisText, attemptLines, showPostMortem } from "./analysis.js";
import { stacksOf } from "./state.js";

const root = document.querySelector("[data-replay]");
const { game, date } = root.dataset;
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);
const board = new BoardView($("board"), { onSlot() {}, onDrop() {}, onKey() {} });
// marks: the board's marks (board.js) at step marksAt, the position before the losing move.
const state = { moves: [], positions: [], step: 0, timer: null, marks: null, marksAt: -1 };
const siteName = document.title.split(" \u00b7 ").pop();

/** The step the address names (#step=N), or 0. */
export function stepFromHash(hash, total) {
  const match = /^#step=(\d+)$/.exec(hash || "");
  return match ? Math.min(total, Number(match[1])) : 0;
}

function slideMs(stepMs) {
  return reducedMotion() ? 0 : Math.min(300, Math.round(stepMs * 0.6));
}

/** On the board, the card whose move lost the win and the one whose move kept it (a redeal has no card). */
export function lossMarks(lost) {
  if (!lost) return null;
  const marks = {};
  if (lost.keeping_move && lost.keeping_move !== "R") marks[lost.keeping_move.split(">")[0]] = "kept";
  if (lost.move && lost.move !== "R") marks[lost.move.split(">")[0]] = "lost";
  return Object.keys(marks).length ? marks : null;
}

function draw(position, ms, marks = null) {
  const longest = Math.max(0, ...stacksOf(position).map((stack) => stack.length));
  fitBoard($("board-scroll"), { game, longest, bouquet: position.bouquet?.length, scale: 1 });
  const before = snapshot($("board"));
  board.render({ position, legal: [] }, { interactive: false, marks });
  slide($("board"), before, { ms, redeal: false });
}

function show(step, { ms = slideMs(1000), say = true } = {}) {
  state.step = Math.max(0, Math.min(state.moves.length, step));
  const known = state.positions[state.step] ?? null;
  $("no-positions").hidden = state.positions.length > 1;
  if (known) draw(known, ms, state.step === state.marksAt ? state.marks : null);
  root.dataset.step = String(state.step);
  const current = state.step ? moveText(state.moves[state.step - 1], gettext) : gettext("start");
  const text = fill(gettext("Step %(step)s of %(total)s: %(move)s"), { step: state.step, total: state.moves.length, move: current });
  $("step").textContent = text;
  const scrubber = $("scrubber");
  scrubber.max = String(state.moves.length);
  scrubber.value = String(state.step);
  scrubber.setAttribute("aria-valuetext", text);
  scrubber.style.setProperty("--progress", String(state.moves.length ? state.step / state.moves.length : 0));
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

/** The day's solution as a line, or null before the day is over. */
async function solutionLine() {
  // Both asked at once: positions[0] is the start, positions[i] the layout after move i.
  const solution = api(`/daily/${date}/${game}/solution`).catch((error) => error);
  const deal = await api(`/daily/${date}/${game}`);
  if (!deal.day_over || !deal.solution) return null;
  const steps = await solution;
  if (steps instanceof Error) {
    if (steps.status !== 404) throw steps;
    return { moves: deal.solution.split(/\s+/).filter(Boolean), positions: [deal.position] };
  }
  return { moves: steps.moves, positions: steps.positions.map(positionFromNotation) };
}

/** Heading and tab title for the line shown: what it is, of which game and day. */
const HEADINGS = {
  mine: () => gettext("Your line: %(game)s, %(date)s"),
  kept: () => gettext("The line that kept the win: %(game)s, %(date)s"),
  solution: () => gettext("Solution of %(game)s, %(date)s"),
};

function headline(name) {
  const text = fill(HEADINGS[name](), { game: root.dataset.gameName, date: root.dataset.dateText });
  $("heading").textContent = text;
  document.title = `${text} \u00b7 ${siteName}`;
}

/**
 * The mark on the scrubber and its legend: on the player's line the move
 * that lost the win, on the line that kept it the move that kept it.
 */
function markMove(mark) {
  $("mark").hidden = $("legend").hidden = !mark;
  if (!mark) return;
  $("mark").dataset.kind = $("legend").dataset.kind = mark.kind;
  $("mark").style.setProperty("--at", String(mark.step / Math.max(1, state.moves.length)));
  const template = mark.kind === "lost"
    ? gettext("Move %(number)s, %(move)s: the move that lost the win")
    : gettext("Move %(number)s, %(move)s: the move that kept the win");
  $("legend-text").textContent = fill(template, { number: mark.step, move: moveText(mark.move, gettext) });
}

function showLine(line, { name, lost = null, step = 0 }) {
  state.moves = line.moves;
  state.positions = line.positions;
  root.dataset.line = name;
  const marked = lost && name !== "solution" ? lost.move_number : 0;
  state.marks = marked ? lossMarks(lost) : null;
  state.marksAt = marked - 1;
  replace($("moves"), state.moves.map((token, i) => h("li", {
    dataset: marked && i + 1 === marked ? { lost: name === "mine" ? "lost" : "kept" } : {},
  }, h("button", { type: "button", class: "linklike", dataset: { step: String(i + 1) } }, moveText(token, gettext)))));
  markMove(marked ? { kind: name === "mine" ? "lost" : "kept", step: marked, move: state.moves[marked - 1] } : null);
  for (const button of $("lines").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.line === name));
  }
  headline(name);
  $("player").hidden = false;
  show(step, { ms: 0, say: false });
}

async function loadAttempt(attemptId) {
  const [found, solution] = await Promise.all([attemptLines(attemptId), solutionLine().catch(() => null)]);
  if (!found) {
    $("message").hidden = false;
    $("message").textContent = gettext("This attempt's analysis is not available.");
    return;
  }
  const { analysis, lost, lines, keptLater } = found;
  if (solution) lines.solution = solution;
  root.dataset.attempt = String(attemptId);
  $("intro").textContent = analysisText(analysis) ?? "";
  $("kept-later").hidden = !keptLater;
  const group = $("lines");
  for (const button of group.querySelectorAll("button")) button.hidden = !lines[button.dataset.line];
  group.hidden = Object.keys(lines).length < 2;
  const choose = (name) => showLine(lines[name], {
    name, lost, step: lost && name !== "solution" ? lost.move_number - 1 : 0,
  });
  group.addEventListener("click", (event) => {
    const name = event.target.closest("button")?.dataset.line;
    if (name && lines[name]) {
      pause();
      choose(name);
    }
  });
  choose("mine");
  if (solution) showPostMortem($("player"), game, date);
}

async function load() {
  try {
    const attemptId = new URLSearchParams(window.location.search).get("attempt");
    if (attemptId) return await loadAttempt(attemptId);
    const solution = await solutionLine();
    if (!solution) {
      $("message").hidden = false;
      $("message").textContent = gettext("The solution is published once the day is over.");
      return;
    }
    showLine(solution, { name: "solution", step: stepFromHash(window.location.hash, solution.moves.length) });
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
$("scrubber").addEventListener("input", () => {
  pause();
  show(Number($("scrubber").value), { ms: 0, say: false });
});
$("scrubber").addEventListener("change", () => announce($("step").textContent));
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
