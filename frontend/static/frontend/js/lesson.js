// "Try again from here" as a lesson: the position before the losing move,
// the card that lost the win marked on the board, and the player's first
// move there judged by the server (GET /attempts/{id}/first-move: the
// solver decides; the page only says what it answered).

import { api, errorText } from "./api.js";
import { announce, gettext } from "./dom.js";
import { fill } from "./format.js";
import { moveText } from "./notation.js";

const KEY = (id) => `solitaire.lesson.${id}`;
const PENDING_RETRY_MS = 2000; // the API's Retry-After for a search still going on

/** `ctx`: {showMessage}. One lesson at a time: the retry started last on this page. */
export function retryLesson(ctx) {
  let lesson = null; // {id, moveNumber, move, said: what the message says now}

  function say(text, what) {
    if (lesson.said === what) return;
    lesson.said = what;
    ctx.showMessage(text, "info");
    announce(text);
  }

  async function judge(attempt) {
    const asked = lesson;
    try {
      const answer = await api(`/attempts/${attempt.id}/first-move`);
      if (lesson !== asked || !answer.move || lesson.said !== `judging:${attempt.version}`) return;
      if (answer.verdict === "pending") {
        // The solver still searches (202): ask again, as long as the move stands.
        setTimeout(() => judge(attempt), PENDING_RETRY_MS);
        return;
      }
      const values = { number: asked.moveNumber, move: moveText(answer.move, gettext) };
      const text = answer.verdict === "keeps"
        ? fill(gettext("Move %(number)s, %(move)s: this keeps the win. Play on."), values)
        : answer.verdict === "loses"
          ? fill(gettext("Move %(number)s, %(move)s: this loses the win again. Undo it and look for another."), values)
          : fill(gettext("The solver could not judge %(move)s in time."), values);
      say(text, `judged:${attempt.version}`);
    } catch (error) {
      if (lesson === asked) say(errorText(error, gettext), `failed:${attempt.version}`);
    }
  }

  return {
    /** A retry started from before move `from.moveNumber`, whose move `from.move` lost the win. */
    begin(attempt, from) {
      lesson = { id: attempt.id, moveNumber: from.moveNumber, move: from.move, said: null };
      try {
        sessionStorage.setItem(KEY(attempt.id), JSON.stringify({ moveNumber: from.moveNumber, move: from.move }));
      } catch {
        // Private mode: the lesson lasts as long as the page.
      }
    },
    /** The page loaded this attempt: the lesson goes on if it was one. */
    resume(attempt) {
      try {
        const kept = JSON.parse(sessionStorage.getItem(KEY(attempt.id)) ?? "null");
        if (kept) lesson = { id: attempt.id, ...kept, said: null };
      } catch {
        // Nothing kept: no lesson.
      }
    },
    /** The marks for this attempt until a move is made: {card: "lost"}, or {R: "lost"} (the Redeal button). */
    marks(attempt) {
      if (!lesson || lesson.id !== attempt.id || attempt.counters.moves !== 0 || !lesson.move) return null;
      return { [lesson.move === "R" ? "R" : lesson.move.split(">")[0]]: "lost" };
    },
    /** After each redraw: the lesson's words for where the attempt stands. */
    update(attempt) {
      if (!lesson || lesson.id !== attempt.id || attempt.pending || attempt.finished) return;
      if (attempt.counters.moves === 0) {
        const where = fill(gettext("Position before move %(number)s: find the move that keeps the win."),
          { number: lesson.moveNumber });
        const what = lesson.move === "R" ? gettext("Redealing lost it.") : gettext("The marked card lost it.");
        say(`${where} ${what}`, "intro");
      } else if (attempt.counters.moves === 1 && !lesson.said?.endsWith(`:${attempt.version}`)) {
        lesson.said = `judging:${attempt.version}`;
        judge(attempt);
      }
    },
  };
}
