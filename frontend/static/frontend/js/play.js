// The daily puzzle page: loads today's deal of one game, starts or resumes
// the player's attempt, and sends every move to the API.

import { api, errorText } from "./api.js";
import { celebrate, reducedMotion, slide, snapshot } from "./animate.js";
import { BoardView } from "./board.js";
import { confirmDialog, finishNeedsConfirmation } from "./confirm.js";
import { announce, gettext, h, ngettext, replace } from "./dom.js";
import {
  dayUrl, fill, formatDate, formatDuration, formatLocalTime, formatTenths, formatPercent, formatTimeLeft, gameName, levelText,
  rankText, redealsText,
  secondsLeft, shareText, undosText,
} from "./format.js";
import { watchMidnight } from "./midnight.js";
import { showAnalysis } from "./analysis.js";
import { cardName, cardText, moveText, parseMove } from "./notation.js";
import { homeMove, isDouble, onlyMove } from "./gestures.js";
import { fitBoard } from "./layout.js";
import { CARD_SCALE, loadSettings, saveSettings, slideMs } from "./settings.js";
import {
  clickIntent, isActive, isListedLegal, movableCards, optimisticAttempt, runningSeconds, slotTarget, stacksOf,
} from "./state.js";

const PENDING_AFTER_MS = 300;
// Waits before an unanswered action is sent again (same version).
const RETRIES_MS = [250, 1000];

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
  lastClick: null, // {card, at}: the click or tap a second one makes a double
  queue: [], // input that came while an answer was awaited, replayed in order
  motion: {}, // how the next redraw slides: {redeal, order}
  timings: [], // per move: ms from pointer-up (or the key) to the board redrawn and to the answer
  noHintFor: null, // the attempt the API refused hints (its ranked one on the deal is open)
  lostAnswer: null, // the attempt whose last action's answer never came
};
globalThis.playTimings = view.timings;

const board = new BoardView($("board"), {
  onSlot: (slot, how, at) => onSlot(slot, how, at),
  onDrop: (card, slot) => onDrop(card, slot),
  onKey: (event) => onKey(event),
});

function showMessage(text, kind = "info") {
  const box = $("message");
  box.className = `message message--${kind}`;
  box.textContent = text;
  box.hidden = !text;
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
  drawBoard(attempt);
  const autofinish = $("autofinish");
  autofinish.hidden = !(active && attempt.forced?.length);
  setDisabled(autofinish, view.busy);
  const c = attempt.counters;
  $("cards-home").textContent = `${c.cards_home}/52`;
  $("redeals").textContent = String(c.redeals);
  $("undos").textContent = String(c.undos);
  $("redeals-counter").hidden = game !== "cruel";
  setDisabled($("undo"), !(attempt.can_undo && !attempt.finished) || view.busy);
  const redeal = $("redeal");
  redeal.hidden = game !== "cruel";
  setDisabled(redeal, !(attempt.can_redeal && active));
  setDisabled($("finish"), attempt.finished || view.busy);
  // Hints are for practice on a deal whose day is over: the API refuses them
  // on a ranked attempt, and on any attempt while the deal's day lasts.
  $("hint").hidden = attempt.ranked || attempt.finished || !view.deal?.day_over
    || view.noHintFor === attempt.id;
  setDisabled($("hint"), !active);
  $("attempt-kind").textContent = attempt.ranked ? gettext("Ranked attempt") : gettext("Practice attempt");
  $("ranked-note").hidden = true; // said before Start; the label below names the attempt
  if (attempt.frozen && !attempt.finished) {
    showMessage(gettext("The day of this ranked attempt is over: its record stays as it stood at midnight. Finish it to see your result."));
  }
  tick();
  renderStatus();
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
  const over = attempt.finished || attempt.status === "won";
  $("end").hidden = !over;
  const key = `${attempt.id}:${attempt.version}:${attempt.status}:${attempt.finished}`;
  if (over && view.endFor !== key) {
    view.endFor = key;
    renderEnd();
  }
}

/**
 * Redraw the board when what it shows changed (not for a mere busy flag, so
 * that a slide in progress goes on), sliding the cards from where they were.
 */
function drawBoard(attempt) {
  const longest = Math.max(0, ...stacksOf(attempt.position).map((stack) => stack.length));
  const metrics = fitBoard($("board-scroll"), { game, longest, scale: CARD_SCALE[view.settings.cardSize] });
  // A hint lights its card and target until the position changes.
  const hint = view.hint && view.hint.id === attempt.id && view.hint.version === attempt.version
    && !attempt.pending ? view.hint : null;
  const drawn = [attempt, view.selected, isActive(attempt), metrics.cardW, metrics.fan, metrics.fanX, hint];
  if (view.drawn && drawn.every((value, i) => value === view.drawn[i])) return;
  view.drawn = drawn;
  const before = snapshot($("board"));
  board.render(attempt, {
    selected: view.selected, interactive: isActive(attempt), hint,
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
    $("time").textContent = formatDuration(seconds);
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
  if (was && attempt && was.id === attempt.id && isActive(was) && !isActive(attempt)) ended(attempt);
}

/** The attempt ended here and now: celebrate a win, bring the result panel to the player. */
function ended(attempt) {
  if (attempt.status === "won") celebrate($("board"), motionMs());
  const panel = $("end");
  if (panel.hidden) return;
  panel.focus({ preventScroll: true });
  panel.scrollIntoView({ block: "nearest", behavior: motionMs() ? "smooth" : "auto" });
}

async function withBusy(work) {
  if (view.busy) return;
  view.busy = true;
  // A slow answer shows a pending mark; input meanwhile waits in view.queue.
  const timer = setTimeout(() => {
    page.dataset.pending = "true";
    $("pending").hidden = false;
  }, PENDING_AFTER_MS);
  try {
    await work();
  } finally {
    clearTimeout(timer);
    view.busy = false;
    page.dataset.pending = "false";
    $("pending").hidden = true;
    render();
  }
  drainQueue();
}

/** Run (or, while an answer is awaited, queue) one piece of input. */
function whenFree(action) {
  if (view.busy) {
    view.queue.push(action);
    page.dataset.queued = String(view.queue.length);
    return;
  }
  action();
}

function drainQueue() {
  while (!view.busy && view.queue.length) view.queue.shift()();
  page.dataset.queued = String(view.queue.length);
}

/** With the setting on, the API's proven-safe moves home go as one batch. */
function autoSafe() {
  const attempt = view.attempt;
  if (view.busy || view.queue.length) return;
  if (!view.settings.autoSafe || !isActive(attempt) || !attempt.safe?.length) return;
  submitMoves(attempt.safe, { motion: { order: attempt.safe.map((t) => t.split(">")[0]) } });
}

function describeAfterMove(token, attempt) {
  const parts = [];
  const move = parseMove(token);
  if (move.redeal) parts.push(gettext("Redealt."));
  else if (move.target === "F") parts.push(fill(gettext("%(card)s to its foundation."), { card: cardName(move.card, gettext) }));
  else {
    const where = game === "cruel" ? gettext("pile %(n)s") : gettext("column %(n)s");
    parts.push(fill(gettext("%(card)s onto %(where)s."), {
      card: cardName(move.card, gettext), where: fill(where, { n: move.target }),
    }));
  }
  parts.push(fill(gettext("%(n)s of 52 cards home."), { n: attempt.counters.cards_home }));
  parts.push(statusSentence(attempt));
  return parts.filter(Boolean).join(" ");
}

/** A move in words, its card as the cards show it: "7♦ onto pile 11.", "5♣ to its foundation.", "redeal". */
function moveWords(token) {
  const move = parseMove(token);
  if (move.redeal) return gettext("redeal");
  const card = cardText(move.card);
  if (move.target === "F") return fill(gettext("%(card)s to its foundation."), { card });
  const where = game === "cruel" ? gettext("pile %(n)s") : gettext("column %(n)s");
  return fill(gettext("%(card)s onto %(where)s."), { card, where: fill(where, { n: move.target }) });
}

function statusSentence(attempt) {
  return {
    won: gettext("All 52 cards are home: you won!"),
    blocked: gettext("No move is left: the game is blocked."),
    stalled: gettext("No card can reach a foundation any more: the game is stalled."),
    abandoned: gettext("You ended this attempt."),
  }[attempt.status] ?? "";
}

function submitMove(token) {
  return submitMoves([token], { motion: token === "R" ? { redeal: true } : {} });
}

/**
 * Send one move, or several in order as one batch (the API's forced or safe
 * moves home). What a listed move does is drawn at once; the server's answer
 * then redraws the board as it is.
 */
async function submitMoves(tokens, { motion = {} } = {}) {
  const before = view.attempt;
  if (!isActive(before) || !tokens.length) return;
  if (view.busy) {
    whenFree(() => submitMoves(tokens, { motion }));
    return;
  }
  view.selected = null;
  const started = performance.now();
  const from = started - board.pointerUpAt < 1000 ? board.pointerUpAt : started;
  let shown = tokens.length > 1 || isListedLegal(before, tokens[0]) ? before : null;
  for (const token of tokens) shown = shown && optimisticAttempt(shown, token);
  const timing = { moves: tokens.length, redrawn: null, answered: null };
  // While the answer is awaited, the other cards that could move keep their ring.
  const moved = new Set(tokens.map((t) => t.split(">")[0]));
  view.ringsWhilePending = new Set([...movableCards(before)].filter((card) => !moved.has(card)));
  await withBusy(async () => {
    if (shown) {
      view.motion = motion;
      view.attempt = shown;
      render();
      timing.redrawn = performance.now() - from;
    }
    try {
      const body = tokens.length === 1
        ? { move: tokens[0], version: before.version }
        : { moves: tokens, version: before.version };
      const next = await sendAction(`/attempts/${before.id}/moves`, body);
      showMessage("");
      if (!shown) view.motion = motion;
      setAttempt(next);
      timing.answered = performance.now() - from;
      timing.redrawn ??= timing.answered;
      view.timings.push(timing);
      announce(tokens.length === 1 ? describeAfterMove(tokens[0], next) : describeBatch(tokens, next));
    } catch (error) {
      await rejected(error, before, tokens.length === 1 ? tokens[0] : null, tokens);
    }
  });
  autoSafe();
}

function describeBatch(tokens, attempt) {
  return [
    fill(ngettext("%(n)s card sent home.", "%(n)s cards sent home.", tokens.length), { n: tokens.length }),
    fill(gettext("%(n)s of 52 cards home."), { n: attempt.counters.cards_home }),
    statusSentence(attempt),
  ].filter(Boolean).join(" ");
}

/**
 * POST an action. An answer lost on the way (no reply at all) is asked for
 * again with the same version: the API answers an action it already has as
 * `replayed`, and applies one it never got, so nothing is applied twice.
 */
async function sendAction(path, body) {
  for (let retry = 0; ; retry += 1) {
    try {
      return await api(path, { method: "POST", body });
    } catch (error) {
      if (error.code !== "network_error" || retry >= RETRIES_MS.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRIES_MS[retry]));
    }
  }
}

/**
 * True when the server's attempt is `before` with exactly these actions
 * applied: an action whose answer was lost, then sent again (by the player
 * or the page) from the old version, which the API refuses as stale.
 */
function alreadyApplied(state, before, tokens) {
  return Boolean(state && tokens?.length && state.id === before.id
    && state.version === before.version + tokens.length && state.last_action === tokens.at(-1));
}

/**
 * An action refused or unanswered. Stale answers and lost ones bring the
 * page to the server's attempt without a word when this page is the reason
 * it lagged (an answer it never got); only a change it cannot explain is said.
 */
async function rejected(error, before, token, tokens = token ? [token] : null) {
  if (error.code === "stale_version" && error.state) {
    const lagged = view.lostAnswer === before.id;
    view.lostAnswer = null;
    setAttempt(error.state);
    if (lagged || alreadyApplied(error.state, before, tokens)) {
      showMessage("");
      return;
    }
  } else if (error.code === "network_error") {
    // The server may have it all the same: show the attempt as it has it.
    try {
      const now = await api(`/attempts/${before.id}`);
      setAttempt(now);
      if (now.version !== before.version) {
        showMessage("");
        return;
      }
    } catch {
      view.lostAnswer = before.id;
      setAttempt(before);
    }
  } else {
    setAttempt(before);
  }
  // Midnight passed: the attempt is frozen now; show it as the server has it.
  if (error.code === "day_over") api(`/attempts/${before.id}`).then(setAttempt, () => {});
  let text = errorText(error, gettext);
  if (token && error.code === "illegal_move") text = `${moveText(token, gettext)}: ${text}`;
  showMessage(text, "error");
  announce(text, { assertive: true });
}

async function undo() {
  if (view.busy) {
    whenFree(() => undo());
    return;
  }
  const before = view.attempt;
  if (!before?.can_undo || before.finished) return;
  view.selected = null;
  await withBusy(async () => {
    try {
      const next = await sendAction(`/attempts/${before.id}/undo`, { version: before.version });
      showMessage("");
      setAttempt(next);
      announce(fill(gettext("Move undone. %(n)s of 52 cards home."), { n: next.counters.cards_home }));
    } catch (error) {
      await rejected(error, before, null, ["undo"]);
    }
  });
}

async function finish() {
  const before = view.attempt;
  if (!before || before.finished || view.busy) return;
  if (finishNeedsConfirmation(before)) {
    const sure = await confirmDialog($("finish-dialog"), {
      confirm: $("finish-dialog-confirm"), keep: $("finish-dialog-keep"),
    });
    if (!sure || view.attempt !== before) return;
  }
  await withBusy(async () => {
    try {
      const next = await api(`/attempts/${before.id}/finish`, { method: "POST", body: {} });
      setAttempt(next);
      announce(gettext("You ended this attempt."));
      $("end").focus();
    } catch (error) {
      rejected(error, before, null);
    }
  });
}

async function showHint() {
  const attempt = view.attempt;
  if (!attempt || !isActive(attempt) || view.busy) return;
  await withBusy(async () => {
    try {
      const answer = await api(`/attempts/${attempt.id}/hint`);
      if (answer.move && answer.move !== "R") {
        const [card, target] = answer.move.split(">");
        view.hint = { id: attempt.id, version: attempt.version, card, target };
        render();
      }
      const text = answer.move
        ? fill(gettext("Hint: %(move)s"), { move: moveWords(answer.move) })
        : answer.status === "unsolvable"
          ? gettext("This position can no longer be won.")
          : gettext("No hint was found in time; try again.");
      showMessage(text, "info");
      announce(text);
    } catch (error) {
      if (error.code === "hint_not_for_ranked" || error.code === "hints_sealed") view.noHintFor = attempt.id;
      showMessage(errorText(error, gettext), "error");
    }
  });
}

function onSlot(slot, how, at = performance.now()) {
  if (view.busy) {
    if (how !== "drag") whenFree(() => onSlot(slot, how, at));
    return;
  }
  const attempt = view.attempt;
  if (!isActive(attempt)) return;
  if (how === "click") {
    // A second click or tap on the same card: home, when the API lists it.
    const double = isDouble(view.lastClick, slot.card, at);
    view.lastClick = double ? null : { card: slot.card, at };
    const home = homeMove(attempt, slot.card);
    if (double && home) {
      submitMove(home);
      return;
    }
    const only = view.settings.oneGesture && !view.selected && onlyMove(attempt, slot.card);
    if (only) {
      submitMove(only);
      return;
    }
  }
  if (how === "drag") {
    view.selected = slot.card;
    render();
    return;
  }
  const intent = clickIntent(attempt, view.selected, slot);
  if (intent.action === "select") {
    view.selected = intent.card;
    render();
    announce(fill(gettext("%(card)s selected. Choose where it goes."), { card: cardName(intent.card, gettext) }));
  } else if (intent.action === "deselect") {
    view.selected = null;
    render();
    announce(gettext("Selection cleared."));
  } else if (intent.action === "move") {
    submitMove(intent.token);
  } else if (how === "key") {
    announce(gettext("No card here can move. Choose a highlighted card."));
  }
}

function onDrop(card, slot) {
  const target = slot ? slotTarget(slot, card) : null;
  view.selected = null;
  if (target === null) {
    render();
    if (slot) {
      const text = slot.kind === "bouquet"
        ? gettext("No card may go back into the bouquet.")
        : fill(gettext("%(card)s goes only to the foundation of its own suit."), { card: cardName(card, gettext) });
      showMessage(text, "error");
      announce(text, { assertive: true });
    }
    return;
  }
  submitMove(`${card}>${target}`);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const key = event.key.toLowerCase();
  if (key === "u") {
    event.preventDefault();
    undo();
  } else if (key === "r" && game === "cruel") {
    event.preventDefault();
    if (view.attempt?.can_redeal) submitMove("R");
  } else if (key === "f") {
    const slot = board.slotOf(event.target);
    const home = slot && homeMove(view.attempt, slot.card);
    if (home) {
      event.preventDefault();
      whenFree(() => submitMove(home));
    }
  } else if (key === "escape" && view.selected) {
    view.selected = null;
    render();
    announce(gettext("Selection cleared."));
  }
}

async function renderEnd() {
  const attempt = view.attempt;
  const c = attempt.counters;
  replace($("record"),
    h("div", {}, h("dt", {}, gettext("Cards home")), h("dd", {}, `${c.cards_home}/52`)),
    game === "cruel" ? h("div", {}, h("dt", {}, gettext("Redeals")), h("dd", {}, String(c.redeals))) : null,
    h("div", {}, h("dt", {}, gettext("Undos")), h("dd", {}, String(c.undos))),
    h("div", {}, h("dt", {}, gettext("Time")), h("dd", {}, formatTenths(attempt.elapsed_seconds, lang))));
  $("end-title").textContent = attempt.status === "won" ? gettext("You won!") : gettext("Attempt over");
  $("end-status").textContent = statusSentence(attempt);
  showAnalysis($("analysis"), attempt);
  if (view.daily) {
    $("next-day").textContent = formatLocalTime(view.daily.next_day_starts_at, lang);
  }
  let rank = null;
  let total = null;
  if (attempt.ranked) {
    try {
      const board = await api(`/leaderboard/${game}/${attempt.date}?limit=1`);
      if (board.me) {
        rank = board.me.rank;
        total = board.total;
        $("rank").textContent = rankText({ rank, total, beaten: board.me.beaten }, gettext, ngettext);
      }
    } catch (error) {
      $("rank").textContent = errorText(error, gettext);
    }
  } else {
    $("rank").textContent = gettext("Practice attempts are not ranked.");
  }
  $("share-text").value = shareText({
    game, date: attempt.date, counters: c, elapsedSeconds: attempt.elapsed_seconds, status: attempt.status, rank, total,
    url: dayUrl(window.location.origin, game, attempt.date), lang, level: view.deal?.difficulty_level,
  }, gettext, ngettext);
}

async function startAttempt() {
  await withBusy(async () => {
    try {
      const attempt = await api("/attempts", { method: "POST", body: { game, date: view.deal.date } });
      $("start").hidden = true;
      setAttempt(attempt);
      announce(fill(gettext("%(game)s started. %(n)s of 52 cards home."), {
        game: gameName(game, gettext), n: attempt.counters.cards_home,
      }));
      board.focus();
    } catch (error) {
      showMessage(errorText(error, gettext), "error");
    }
  });
  autoSafe();
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
      $("archive-record").textContent = archiveRecordText(view.deal.my_attempts ?? []);
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
    const latest = open ?? attempts.at(-1);
    if (latest) setAttempt(await api(`/attempts/${latest.id}`));
    const startButton = $("start");
    startButton.hidden = Boolean(open);
    // Before the first attempt of the day: the next one started is the ranked one.
    if (!attempts.length && !archiveDate) $("ranked-note").hidden = false;
    startButton.textContent = archiveDate
      ? gettext("Play this deal as practice")
      : attempts.length ? gettext("Practise again") : gettext("Start today's deal");
    $("loading").hidden = true;
  } catch (error) {
    $("loading").hidden = true;
    showMessage(errorText(error, gettext), "error");
  } finally {
    page.dataset.loaded = "true";
  }
}

/** The player's record on a past day: its ranked attempt, else the best practice one. */
function archiveRecordText(attempts) {
  if (!attempts.length) return gettext("You did not play this deal.");
  const better = (a, b) => b.counters.cards_home - a.counters.cards_home || a.counters.undos - b.counters.undos
    || a.counters.redeals - b.counters.redeals || a.elapsed_seconds - b.elapsed_seconds;
  const record = attempts.find((a) => a.ranked) ?? [...attempts].sort(better)[0];
  const c = record.counters;
  const parts = [fill(gettext("%(n)s of 52 cards home"), { n: c.cards_home })];
  if (game === "cruel") parts.push(redealsText(c.redeals, ngettext));
  parts.push(undosText(c.undos, ngettext));
  parts.push(formatTenths(record.elapsed_seconds, lang));
  const kind = record.ranked ? gettext("ranked attempt") : gettext("practice");
  const head = record.status === "won" ? gettext("Your record: won") : gettext("Your record");
  return `${head} (${kind}): ${parts.join(", ")}.`;
}

$("start").addEventListener("click", () => startAttempt());
$("undo").addEventListener("click", offWhileMarked(() => undo()));
$("redeal").addEventListener("click", offWhileMarked(() => submitMove("R")));
$("finish").addEventListener("click", offWhileMarked(() => finish()));
$("autofinish").addEventListener("click", offWhileMarked(() => {
  const forced = view.attempt?.forced ?? [];
  submitMoves(forced, { motion: { order: forced.map((t) => t.split(">")[0]) } });
}));
for (const input of page.querySelectorAll("[data-setting]")) {
  const key = input.dataset.setting;
  if (input.type === "checkbox") input.checked = view.settings[key];
  else input.value = view.settings[key];
  input.addEventListener("change", () => {
    view.settings = { ...view.settings, [key]: input.type === "checkbox" ? input.checked : input.value };
    saveSettings(view.settings);
    if (view.attempt) render();
    if (key === "autoSafe") autoSafe();
  });
}
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (view.attempt) render(); }, 100);
});
$("hint").addEventListener("click", offWhileMarked(() => showHint()));
$("stuck-undo").addEventListener("click", () => undo());
$("stuck-finish").addEventListener("click", () => finish());
$("again").addEventListener("click", () => startAttempt());
// The device's own share sheet where there is one (phones); Copy everywhere.
$("share").hidden = typeof navigator.share !== "function";
$("share").addEventListener("click", async () => {
  const [text, url] = $("share-text").value.split("\n");
  try {
    await navigator.share({ text, url });
  } catch {
    // Dismissed, or refused: the text stays there to copy.
  }
});
$("copy").addEventListener("click", async () => {
  const text = $("share-text").value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    $("share-text").select();
    document.execCommand?.("copy");
  }
  announce(gettext("Copied."));
  $("copy-status").textContent = gettext("Copied.");
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.(".board")) return; // the board forwards its own keys
  if (event.target.closest?.("input, select, textarea, button, a, summary")) return;
  onKey(event);
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
setInterval(tick, 1000);
load();
