// The play page's actions: each sends one request to the API (a move, a
// batch home, an undo, a finish, a hint, a start), keeps input that comes
// meanwhile in order, sends an unanswered action again with the same version,
// and brings the page to the server's attempt when an answer says otherwise.
// Each move is measured with the Performance API ("play:redrawn", "play:answered").

import { api, errorText } from "./api.js";
import { confirmDialog, finishNeedsConfirmation } from "./confirm.js";
import { announce, gettext, ngettext } from "./dom.js";
import { fill, gameName } from "./format.js";
import { moveText } from "./notation.js";
import { describeAfterMove, describeBatch, moveWords } from "./words.js";
import { isActive, isListedLegal, movableCards, optimisticAttempt } from "./state.js";

const PENDING_AFTER_MS = 300;
// A hint the solver still searches for is asked for again after this (the API's Retry-After).
const HINT_POLL_MS = 2000;
// Waits before an unanswered action is sent again (same version).
const RETRIES_MS = [250, 1000];

/**
 * POST an action. An answer lost on the way (no reply at all) is asked for
 * again with the same version: the API answers an action it already has as
 * `replayed`, and applies one it never got, so nothing is applied twice.
 */
export async function sendAction(path, body) {
  for (let retry = 0; ; retry += 1) {
    try {
      return await api(path, { method: "POST", body });
    } catch (error) {
      if (error.code !== "network_error" || retry >= RETRIES_MS.length) throw error;
      await new Promise((resolve) => { setTimeout(resolve, RETRIES_MS[retry]); });
    }
  }
}

/**
 * True when the server's attempt is `before` with exactly these actions
 * applied: an action whose answer was lost, then sent again (by the player
 * or the page) from the old version, which the API refuses as stale.
 */
export function alreadyApplied(state, before, tokens) {
  return Boolean(state && tokens?.length && state.id === before.id
    && state.version === before.version + tokens.length && state.last_action === tokens.at(-1));
}

/** A move's time from pointer-up (or the key) as a User Timing measure the benchmark reads. */
function measure(name, start, moves) {
  performance.measure(name, { start, end: performance.now(), detail: { moves } });
}

/**
 * The actions of one play page. `ctx`: {view, board, page, $, game,
 * render(), setAttempt(attempt), showMessage(text, kind)}.
 */
export function playActions(ctx) {
  const { view, page, $, game } = ctx; // ctx.board comes once the board exists

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
      ctx.render();
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
    const from = started - ctx.board.pointerUpAt < 1000 ? ctx.board.pointerUpAt : started;
    let shown = tokens.length > 1 || isListedLegal(before, tokens[0]) ? before : null;
    for (const token of tokens) shown = shown && optimisticAttempt(shown, token);
    // While the answer is awaited, the other cards that could move keep their ring.
    const moved = new Set(tokens.map((t) => t.split(">")[0]));
    view.ringsWhilePending = new Set([...movableCards(before)].filter((card) => !moved.has(card)));
    await withBusy(async () => {
      if (shown) {
        view.motion = motion;
        view.attempt = shown;
        ctx.render();
        measure("play:redrawn", from, tokens.length);
      }
      try {
        const body = tokens.length === 1
          ? { move: tokens[0], version: before.version }
          : { moves: tokens, version: before.version };
        const next = await sendAction(`/attempts/${before.id}/moves`, body);
        ctx.showMessage("");
        if (!shown) view.motion = motion;
        ctx.setAttempt(next);
        // A move drawn only from the answer (a redeal) is redrawn now.
        if (!shown) measure("play:redrawn", from, tokens.length);
        measure("play:answered", from, tokens.length);
        announce(tokens.length === 1
          ? describeAfterMove(game, tokens[0], next, gettext)
          : describeBatch(tokens, next, gettext, ngettext));
      } catch (error) {
        await rejected(error, before, tokens.length === 1 ? tokens[0] : null, tokens);
      }
    });
    autoSafe();
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
      ctx.setAttempt(error.state);
      if (lagged || alreadyApplied(error.state, before, tokens)) {
        ctx.showMessage("");
        return;
      }
    } else if (error.code === "network_error") {
      // The server may have it all the same: show the attempt as it has it.
      try {
        const now = await api(`/attempts/${before.id}`);
        ctx.setAttempt(now);
        if (now.version !== before.version) {
          ctx.showMessage("");
          return;
        }
      } catch {
        view.lostAnswer = before.id;
        ctx.setAttempt(before);
      }
    } else {
      ctx.setAttempt(before);
    }
    // Midnight passed: the attempt is frozen now; show it as the server has it.
    if (error.code === "day_over") api(`/attempts/${before.id}`).then(ctx.setAttempt, () => {});
    let text = errorText(error, gettext);
    if (token && error.code === "illegal_move") text = `${moveText(token, gettext)}: ${text}`;
    ctx.showMessage(text, "error");
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
        ctx.showMessage("");
        ctx.setAttempt(next);
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
        ctx.setAttempt(next);
        announce(gettext("You ended this attempt."));
      } catch (error) {
        rejected(error, before, null);
      }
    });
  }

  /**
   * The hint for the attempt as it stands. While the solver still searches
   * (`pending`) the page says so, stays free for moves, and asks again
   * after a moment, as long as the attempt is where the hint was asked.
   */
  async function showHint() {
    const attempt = view.attempt;
    if (!attempt || !isActive(attempt) || view.busy) return;
    let pending = false;
    await withBusy(async () => {
      try {
        const answer = await api(`/attempts/${attempt.id}/hint`);
        if (answer.status === "pending") {
          pending = true;
          const text = gettext("Looking for a hint…");
          ctx.showMessage(text, "info");
          announce(text);
          return;
        }
        if (answer.move && answer.move !== "R") {
          const [card, target] = answer.move.split(">");
          view.hint = { id: attempt.id, version: attempt.version, card, target };
          ctx.render();
        }
        const text = answer.move
          ? fill(gettext("Hint: %(move)s"), { move: moveWords(game, answer.move, gettext) })
          : answer.status === "unsolvable"
            ? gettext("This position can no longer be won.")
            : gettext("The solver could not find a hint from here.");
        ctx.showMessage(text, "info");
        announce(text);
      } catch (error) {
        if (error.code === "hint_not_for_ranked" || error.code === "hints_sealed") view.noHintFor = attempt.id;
        ctx.showMessage(errorText(error, gettext), "error");
      }
    });
    if (pending) {
      await new Promise((resolve) => { setTimeout(resolve, HINT_POLL_MS); });
      const stillThere = () => view.attempt?.id === attempt.id && view.attempt.version === attempt.version;
      if (stillThere()) whenFree(() => (stillThere() ? showHint() : undefined));
    }
  }

  /** A new attempt on the deal, or (`from`) a retry from a move of a finished one. */
  async function startAttempt({ from = null } = {}) {
    await withBusy(async () => {
      try {
        const attempt = from
          ? await api(`/attempts/${from.attemptId}/retry`, { method: "POST", body: { move_number: from.moveNumber } })
          : await api("/attempts", { method: "POST", body: { game, date: view.deal.date } });
        $("start").hidden = true;
        ctx.showMessage(""); // the earlier attempt's words are not this one's
        view.hint = null;
        if (from) ctx.lesson.begin(attempt, from);
        ctx.setAttempt(attempt);
        ctx.refreshArchive();
        announce(fill(gettext("%(game)s started. %(n)s of 52 cards home."), {
          game: gameName(game, gettext), n: attempt.counters.cards_home,
        }));
        ctx.board.focus();
      } catch (error) {
        ctx.showMessage(errorText(error, gettext), "error");
      }
    });
    autoSafe();
  }

  return { withBusy, whenFree, autoSafe, submitMove, submitMoves, undo, finish, showHint, startAttempt };
}
