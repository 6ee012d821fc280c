// The play page of one game: loads the deal (today's, or a past day's),
// starts or resumes the player's attempt, draws it, and wires the rooms
// together: actions (actions.js), gestures (input.js), words
// (words.js), the results sheet (results.js) and sharing (share.js).

import { api, errorText } from "./api.js";
import { celebrate, reducedMotion, slide, snapshot } from "./animate.js";
import { BoardView } from "./board.js";
import { announce, gettext, ngettext, update } from "./dom.js";
import {
  fill, formatDate, formatDuration, formatPercent, formatTimeLeft, levelText, secondsLeft,
} from "./format.js";
import { fitBoard } from "./layout.js";
import { watchMidnight } from "./midnight.js";
import { playActions } from "./actions.js";
import { playInput } from "./input.js";
import { archiveRecordText } from "./words.js";
import { resultsSheet } from "./results.js";
import { CARD_SCALE, loadSettings, saveSettings, slideMs } from "./settings.js";
import { wireShare } from "./share.js";
import { isActive, runningSeconds, stacksOf } from "./state.js";
import { retryLesson } from "./lesson.js";
import { howTo, seen } from "./howto.js";

const page = document.querySelector("[data-play]");
const game = page.dataset.game;
// A past day of the archive (YYYY-MM-DD), or "" for today's deal.
const archiveDate = page.dataset.date || "";
const lang = document.documentElement.lang || "pt-pt";
const $ = (name) => page.querySelector(`[data-ref="${name}"]`);

const view = {
  daily: null,
  dailyAt: 0,
  deal: null,
  attempt: null,
  attemptAt: 0,
  selected: null,
  busy: false,
  settings: loadSettings(),
  lastClick: null, // the click or tap before: {card, at}, or {sent, onCard, at} when it sent a move (gestures.js)
  queue: [], // input that came while an answer was awaited, replayed in order
  motion: {}, // how the next redraw slides: {redeal, order}
  noHintFor: null, // the attempt the API refused hints (its ranked one on the deal is open)
  lostAnswer: null, // the attempt whose last action's answer never came
  resume: null, // an open attempt not shown (another was asked for): Start resumes it
};

/** A message over the felt once there is a board; before it, above the page's Start. */
function showMessage(text, kind = "info") {
  const box = $("game-area").hidden ? $("page-message") : $("message");
  box.className = `message message--${kind}${box === $("message") ? " board-message" : ""}`;
  box.textContent = text;
  box.hidden = !text;
  if (box === $("message")) $("page-message").hidden = true;
}

/**
 * Turn a control off or on. One that has the focus is marked aria-disabled
 * instead of disabled, so the focus stays on it (a disabled button drops it
 * to the page's body); its click is then ignored (offWhileMarked).
 */
function setDisabled(button, off) {
  if (off && document.activeElement === button) {
    button.setAttribute("aria-disabled", "true");
    return;
  }
  button.removeAttribute("aria-disabled");
  button.disabled = off;
}

/** A click handler that does nothing while its button is marked off. */
function offWhileMarked(handler) {
  return (event) => {
    if (event.currentTarget.getAttribute("aria-disabled") === "true") return;
    handler(event);
  };
}

const lesson = retryLesson({ showMessage });
const ctx = { view, page, $, game, render, setAttempt, showMessage, board: null, lesson, refreshArchive };
const actions = playActions(ctx);
const input = playInput(ctx, actions);
const board = new BoardView($("board"), {
  onSlot: (slot, how, click) => input.onSlot(slot, how, click),
  onDrop: (card, slot) => input.onDrop(card, slot),
  onKey: (event) => input.onKey(event),
});
ctx.board = board;
const results = resultsSheet({
  $, game, lang, view,
  onAgain: () => actions.startAttempt(),
  onRetry: (from) => actions.startAttempt({ from }),
});

function render() {
  const attempt = view.attempt;
  const active = isActive(attempt) && !view.busy;
  $("game-area").hidden = !attempt;
  page.dataset.busy = String(view.busy);
  if (!attempt) return;
  // For tests and styles: which answer of the server is on screen.
  page.dataset.version = attempt.pending ? `${attempt.version}+` : String(attempt.version);
  page.dataset.status = attempt.status;
  page.dataset.frozen = String(Boolean(attempt.frozen));
  if (page.dataset.attempt !== String(attempt.id)) page.dataset.attempt = String(attempt.id);
  drawBoard(attempt);
  const autofinish = $("autofinish");
  autofinish.hidden = !(active && attempt.forced?.length);
  setDisabled(autofinish, view.busy);
  const c = attempt.counters;
  update($("cards-home"), { text: `${c.cards_home}/52` });
  update($("redeals"), { text: String(c.redeals) });
  update($("undos"), { text: String(c.undos) });
  $("redeals-counter").hidden = game !== "cruel";
  setDisabled($("undo"), !(attempt.can_undo && !attempt.finished) || view.busy);
  const redeal = $("redeal");
  redeal.hidden = game !== "cruel";
  update(redeal, { dataset: { mark: lesson.marks(attempt)?.R ?? "" } });
  setDisabled(redeal, !(attempt.can_redeal && active));
  setDisabled($("finish"), attempt.finished || view.busy);
  // Hints are for practice on a deal whose day is over: the API refuses them
  // on a ranked attempt, and on any attempt while the deal's day lasts.
  $("hint").hidden = attempt.ranked || attempt.finished || !view.deal?.day_over
    || view.noHintFor === attempt.id;
  setDisabled($("hint"), !active);
  update($("attempt-kind"), { text: attempt.ranked ? gettext("Ranked attempt") : gettext("Practice attempt") });
  $("ranked-note").hidden = true; // said before Start; the label below names the attempt
  if (attempt.frozen && !attempt.finished) {
    showMessage(gettext("The day of this ranked attempt is over: its record stays as it stood at midnight. Finish it to see your result."));
  }
  tick();
  renderStatus();
  lesson.update(attempt);
}

function renderStatus() {
  const attempt = view.attempt;
  const stuck = $("stuck");
  const blocked = !attempt.finished && (attempt.status === "blocked" || attempt.status === "stalled");
  stuck.hidden = !blocked;
  if (blocked) {
    $("stuck-text").textContent = attempt.status === "blocked"
      ? gettext("No move is left: the game is blocked. Undo a move, or finish to keep this record.")
      : gettext("No card can reach a foundation any more: the game is stalled. Undo a move, or finish to keep this record.");
  }
  if (isOver(attempt)) results.over(attempt, { show: false });
  else results.reset();
}

/**
 * Redraw the board when what it shows changed (not for a mere busy flag, so
 * that a slide in progress goes on), sliding the cards from where they were.
 */
function drawBoard(attempt) {
  const longest = Math.max(0, ...stacksOf(attempt.position).map((stack) => stack.length));
  const metrics = fitBoard($("board-scroll"), {
    game, longest, bouquet: attempt.position.bouquet?.length, scale: CARD_SCALE[view.settings.cardSize],
  });
  // A hint lights its card and target until the position changes.
  const hint = view.hint && view.hint.id === attempt.id && view.hint.version === attempt.version
    && !attempt.pending ? view.hint : null;
  const marks = lesson.marks(attempt);
  const drawn = [attempt, view.selected, isActive(attempt), metrics.cardW, metrics.fan, metrics.fanX, hint,
    JSON.stringify(marks)];
  if (view.drawn && drawn.every((value, i) => value === view.drawn[i])) return;
  view.drawn = drawn;
  const before = snapshot($("board"));
  board.render(attempt, {
    selected: view.selected, interactive: isActive(attempt), hint, marks,
    rings: attempt.pending ? view.ringsWhilePending : null,
  });
  slide($("board"), before, { ms: motionMs(), ...view.motion });
  view.motion = {};
}

function motionMs() {
  return slideMs(view.settings, reducedMotion());
}

function tick() {
  if (view.attempt) {
    const seconds = runningSeconds(view.attempt, view.attemptAt, performance.now());
    update($("time"), { text: formatDuration(seconds) });
  }
  if (view.daily) {
    const left = secondsLeft(view.daily.seconds_to_next_day, view.dailyAt, performance.now());
    for (const el of page.querySelectorAll('[data-ref="countdown"]')) el.textContent = formatTimeLeft(left);
    midnight.check(left);
  }
}

function setAttempt(attempt) {
  const was = view.attempt;
  view.attempt = attempt;
  view.attemptAt = performance.now();
  if (!attempt || !isActive(attempt)) view.selected = null;
  render();
  if (was && attempt && was.id === attempt.id && !isOver(was) && isOver(attempt)) ended(attempt);
}

/** Over: finished, or won (a win ends the attempt at once). */
function isOver(attempt) {
  return attempt.finished || attempt.status === "won";
}

// The board's help is shown in full until a game has been played on this
// device; after that it folds behind the Help button, over the felt.
const PLAYED_KEY = "solitaire.played";

function playedHere() {
  try {
    return localStorage.getItem(PLAYED_KEY) === "1";
  } catch {
    return false; // storage refused: the help stays in full
  }
}

function foldHelp() {
  const help = $("board-help");
  const toggle = $("help-toggle");
  help.classList.add("hint--folded");
  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    help.classList.toggle("hint--open", open);
  });
}

/** The attempt ended here and now: celebrate a win (a tap skips it), then bring the results sheet. */
async function ended(attempt) {
  try {
    localStorage.setItem(PLAYED_KEY, "1");
  } catch {
    // Storage refused: the help is shown in full next time too.
  }
  refreshArchive();
  if (attempt.status === "won") await celebrate($("board"), motionMs());
  results.over(attempt, { show: true });
}

function setDaily(daily) {
  view.daily = daily;
  view.dailyAt = performance.now();
  tick();
}

// At the start of a new day: a notice with one click to the new deal, and the
// countdown goes on to the next midnight (midnight.js).
const midnight = watchMidnight({
  fetchDaily: () => api("/daily"),
  currentDate: () => view.daily?.date,
  onDaily: (daily) => setDaily(daily),
  onNewDay: (daily) => {
    const notice = $("new-day");
    const link = $("new-day-link");
    link.href = `/play/${game}/`;
    $("new-day-text").textContent = fill(gettext("A new day has begun: the deal of %(date)s is ready."), {
      date: formatDate(daily.date, lang),
    });
    notice.hidden = false;
    announce($("new-day-text").textContent);
    // Yesterday's ranked attempt is frozen now: show it so (finish still works).
    const open = view.attempt;
    if (open && !open.finished) api(`/attempts/${open.id}`).then(setAttempt, () => {});
  },
});

/** A past day's panel says the player's record on it, as it stands now. */
async function refreshArchive() {
  if (!archiveDate || !view.deal) return;
  try {
    const deal = await api(`/daily/${archiveDate}/${game}`);
    $("archive-record").textContent = archiveRecordText(game, deal.my_attempts ?? [], gettext, ngettext, lang);
  } catch {
    // The panel keeps what it said: the game goes on without it.
  }
}

async function loadArchiveDeal() {
  try {
    return await api(`/daily/${archiveDate}/${game}`);
  } catch (error) {
    if (error.code !== "deal_not_ready") throw error;
    // A day with no verified deal: an ordinary case, said plainly.
    $("no-deal").hidden = false;
    return null;
  }
}

async function load() {
  try {
    setDaily(await api("/daily"));
    view.deal = archiveDate ? await loadArchiveDeal() : view.daily.deals.find((d) => d.game === game);
    if (!view.deal) {
      $("loading").hidden = true;
      return;
    }
    $("deal-date").textContent = formatDate(view.deal.date, lang);
    $("deal-date").dateTime = view.deal.date;
    if (archiveDate) {
      $("archive").hidden = false;
      $("archive-record").textContent = archiveRecordText(game, view.deal.my_attempts ?? [], gettext, ngettext, lang);
    }
    $("difficulty").textContent = levelText(view.deal.difficulty_level, gettext);
    if (view.deal.difficulty_level) {
      $("difficulty").title = fill(gettext("Harder than %(share)s of a large sample of deals"), {
        share: formatPercent(view.deal.difficulty_level.percentile / 100, lang),
      });
    }
    if (archiveDate && view.deal.won_share != null) {
      $("archive-won").textContent = fill(gettext("%(share)s of the players who played it ranked won this deal."), {
        share: formatPercent(view.deal.won_share, lang),
      });
    }
    const attempts = view.deal.my_attempts ?? [];
    const open = attempts.find((a) => !a.finished && a.status === "playing")
      ?? attempts.find((a) => !a.finished);
    // ?attempt=<id> (the home page's "See your game") shows that attempt, even
    // while another is open; the open one is then a click away.
    const asked = Number(new URLSearchParams(location.search).get("attempt"));
    const shown = attempts.find((a) => a.id === asked) ?? open ?? attempts.at(-1);
    if (shown) {
      const attempt = await api(`/attempts/${shown.id}`);
      lesson.resume(attempt);
      setAttempt(attempt);
    }
    view.resume = open && open !== shown ? open : null;
    const startButton = $("start");
    startButton.hidden = Boolean(open) && !view.resume;
    // Before the first attempt of the day: the next one started is the ranked one.
    if (!attempts.length && !archiveDate) $("ranked-note").hidden = false;
    startButton.textContent = view.resume ? gettext("Continue practice")
      : archiveDate ? gettext("Play this deal as practice")
        : attempts.length ? gettext("Practise again") : gettext("Start today's deal");
    $("loading").hidden = true;
  } catch (error) {
    $("loading").hidden = true;
    showMessage(errorText(error, gettext), "error");
  } finally {
    page.dataset.loaded = "true";
  }
}

$("start").addEventListener("click", () => (view.resume ? resume() : actions.startAttempt()));
// The game's how-to, by itself the first time this game is opened here.
if (!seen(game)) howTo($("howto")).open(game);

/** Back to the attempt left open while another was shown. */
async function resume() {
  const open = view.resume;
  view.resume = null;
  $("start").hidden = true;
  try {
    setAttempt(await api(`/attempts/${open.id}`));
  } catch (error) {
    showMessage(errorText(error, gettext), "error");
  }
}
$("undo").addEventListener("click", offWhileMarked(() => actions.undo()));
$("redeal").addEventListener("click", offWhileMarked(() => actions.submitMove("R")));
$("finish").addEventListener("click", offWhileMarked(() => actions.finish()));
$("autofinish").addEventListener("click", offWhileMarked(() => {
  const forced = view.attempt?.forced ?? [];
  actions.submitMoves(forced, { motion: { order: forced.map((t) => t.split(">")[0]) } });
}));
for (const field of page.querySelectorAll("[data-setting]")) {
  const key = field.dataset.setting;
  if (field.type === "checkbox") field.checked = view.settings[key];
  else field.value = view.settings[key];
  field.addEventListener("change", () => {
    view.settings = { ...view.settings, [key]: field.type === "checkbox" ? field.checked : field.value };
    saveSettings(view.settings);
    if (view.attempt) render();
    if (key === "autoSafe") actions.autoSafe();
  });
}
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (view.attempt) render(); }, 100);
});
$("hint").addEventListener("click", offWhileMarked(() => actions.showHint()));
$("stuck-undo").addEventListener("click", () => actions.undo());
$("stuck-finish").addEventListener("click", () => actions.finish());
wireShare({ box: $("share-text"), share: $("share"), copy: $("copy"), status: $("copy-status") });
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.(".board")) return; // the board forwards its own keys
  if (event.target.closest?.("input, select, textarea, button, a, summary, dialog")) return;
  input.onKey(event);
});
// Back to this tab: another tab (or device) may have played meanwhile.
async function refreshOnReturn() {
  const shown = view.attempt;
  if (document.visibilityState === "hidden" || !shown || view.busy || view.queue.length) return;
  try {
    const now = await api(`/attempts/${shown.id}`);
    if (view.attempt === shown && !view.busy
      && (now.version !== shown.version || now.finished !== shown.finished || now.frozen !== shown.frozen)) {
      setAttempt(now);
    }
  } catch {
    // Offline for now: the next action finds out.
  }
}
window.addEventListener("focus", () => refreshOnReturn());
document.addEventListener("visibilitychange", () => refreshOnReturn());
if (playedHere()) foldHelp();
setInterval(tick, 1000);
load();
