// After the game: where the win slipped away (GET /attempts/{id}/analysis).
// The end-of-game panel, the history page and the replay of an attempt use
// these; the workers decide, the page only says what they found.

import { api } from "./api.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import { fill } from "./format.js";
import { moveText, positionFromNotation } from "./notation.js";

// The analysis runs after the game with the solver's generous budget: up to
// a minute or so of asking before the page says "see your history later".
const WAIT_MS = [1000, 2000, 4000, 8000, 15000, 30000];

/** The sentence for an analysis, or null when there is nothing to say yet. */
export function analysisText(analysis) {
  if (!analysis) return null;
  if (analysis.status !== "done") {
    return gettext("The solver is still looking for where the win was lost: see your history later.");
  }
  switch (analysis.verdict) {
    case "lost": {
      const text = fill(gettext("The win was lost at move %(number)s (%(move)s); %(keeping)s kept it."), {
        number: analysis.lost_at.move_number,
        move: moveText(analysis.lost_at.move, gettext),
        keeping: moveText(analysis.lost_at.keeping_move, gettext),
      });
      // Sealed while the deal's day lasts: the line that kept the win comes with the solution.
      return analysis.lost_at.keeping_line
        ? text : `${text} ${gettext("The whole line that kept it comes when the day ends.")}`;
    }
    case "still_winnable":
      return gettext("The win was never lost: the last position could still be won.");
    case "undecided":
      return gettext("The solver could not decide within its budget where the win was lost.");
    case "won":
      return wonText(analysis);
    default:
      return null;
  }
}

/** A win against par; Flower Garden has no redeals, so its words name none. */
function wonText(analysis) {
  const values = {
    moves: analysis.mine.moves, redeals: analysis.mine.redeals,
    par_moves: analysis.par.moves, par_redeals: analysis.par.redeals,
  };
  return analysis.game === "cruel"
    ? fill(gettext("%(moves)s moves and %(redeals)s redeals; par is %(par_moves)s moves and %(par_redeals)s redeals."), values)
    : fill(gettext("%(moves)s moves; par is %(par_moves)s moves."), values);
}

/** The analysis, asked again while the workers are at it (null: none to show). */
export async function fetchAnalysis(attemptId, { steps = false, waits = WAIT_MS } = {}) {
  for (let i = 0; ; i += 1) {
    let analysis;
    try {
      analysis = await api(`/attempts/${attemptId}/analysis${steps ? "?steps=true" : ""}`);
    } catch (error) {
      // Another heavy answer of this player's is being built: ask again in a moment.
      if (error?.code === "heavy_busy" && i < waits.length) {
        await new Promise((resolve) => { setTimeout(resolve, waits[i]); });
        continue;
      }
      return null; // not over, not yet allowed, or unreachable: nothing to say
    }
    if (analysis.status === "done" || i >= waits.length) return analysis;
    await new Promise((resolve) => { setTimeout(resolve, waits[i]); });
  }
}

function replayHref(analysis) {
  return `/replay/${analysis.game}/${analysis.date}/?attempt=${analysis.attempt_id}`;
}

/**
 * Fill `el` (a <p>) with the attempt's analysis and a link to its replay;
 * returns the analysis. `steady()`: awaited before the write (press.js).
 */
export async function showAnalysis(el, attempt, { steady = async () => {} } = {}) {
  if (!el) return null;
  el.hidden = true;
  const analysis = await fetchAnalysis(attempt.id);
  await steady();
  const text = analysisText(analysis);
  if (!text) return analysis;
  const link = analysis.verdict === "lost"
    ? [" ", h("a", { href: replayHref(analysis) }, gettext("Replay your attempt at that move"))]
    : [];
  replace(el, text, ...link);
  el.dataset.verdict = analysis.verdict;
  el.hidden = false;
  return analysis;
}

/** History: a line under each of the recent records that were not won. */
export async function showHistoryAnalyses(container, ids, { most = 14 } = {}) {
  for (const id of ids.slice(0, most)) {
    const el = container.querySelector(`[data-analysis="${id}"]`);
    if (el) await showAnalysis(el, { id });
  }
}

/**
 * The lines of an attempt's replay (?attempt=id), or null when its analysis
 * cannot be shown: `mine` (the player's moves and the positions after each)
 * and, once the day is over, `kept` (the player's line up to the move that
 * lost the win, then the line that kept it). While the day lasts the API
 * names the losing move and the one keeping move only: `keptLater` says so.
 */
export async function attemptLines(attemptId) {
  // The verdict first (light answers while the workers finish), then the
  // positions once (a heavy answer: asked again only if another is in hand).
  const verdict = await fetchAnalysis(attemptId);
  if (!verdict) return null;
  const analysis = await fetchAnalysis(attemptId, { steps: true });
  if (!analysis || !analysis.positions) return null;
  const lost = analysis.verdict === "lost" ? analysis.lost_at : null;
  // The API sends positions in notation (compact for long lines): drawn as layouts.
  const positions = analysis.positions.map(positionFromNotation);
  const lines = { mine: { moves: analysis.moves, positions } };
  const keeping = lost && Array.isArray(lost.keeping_line) && lost.keeping_line.length
    && Array.isArray(lost.keeping_positions) ? lost : null;
  if (keeping) {
    const before = keeping.move_number - 1;
    lines.kept = {
      moves: [...analysis.moves.slice(0, before), ...keeping.keeping_line],
      positions: [...positions.slice(0, before), ...keeping.keeping_positions.map(positionFromNotation)],
    };
  }
  return { analysis, lost, lines, keptLater: Boolean(lost && !keeping) };
}

/**
 * A past day's post-mortem, beside the solution's replay: how many ranked
 * players won, where the others lost the win, the commonest losing moves,
 * the deal's par. Nothing is shown until beat has computed it.
 */
export async function showPostMortem(after, game, date) {
  let data;
  try {
    data = await api(`/daily/${date}/${game}/post-mortem`);
  } catch {
    return;
  }
  if (data.status !== "done") return;
  const most = Math.max(1, ...data.lost_at.map((row) => row.count));
  const section = h("section", { class: "post-mortem", dataset: { ref: "post-mortem" }, "aria-labelledby": "post-mortem-title" },
    h("h2", { id: "post-mortem-title" }, gettext("The day's post-mortem")),
    h("p", { dataset: { ref: "post-mortem-won" } }, fill(ngettext("%(won)s of %(ranked)s ranked player won.", "%(won)s of %(ranked)s ranked players won.", data.ranked), data)),
    h("p", { dataset: { ref: "post-mortem-par" } }, game === "cruel"
      ? fill(gettext("Par: %(moves)s moves and %(redeals)s redeals."), data.par)
      : fill(gettext("Par: %(moves)s moves."), data.par)),
    data.lost_at.length ? h("table", { class: "bins" },
      h("caption", {}, gettext("Where the others lost the win")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Move")), h("th", { scope: "col" }, gettext("Players")))),
      h("tbody", {}, data.lost_at.map((row) => h("tr", {},
        h("th", { scope: "row" }, String(row.move_number)),
        h("td", {}, h("span", { class: `bin bin--${game}`, style: `width:${(row.count / most) * 10}rem` }), " ", String(row.count)))))) : null,
    data.losing_moves.length ? [
      h("h3", {}, gettext("The commonest losing moves")),
      h("ol", { dataset: { ref: "post-mortem-moves" } }, data.losing_moves.map((row) => h("li", {},
        fill(ngettext("Move %(number)s, %(move)s: %(count)s player", "Move %(number)s, %(move)s: %(count)s players", row.count), {
          number: row.move_number, move: moveText(row.move, gettext), count: row.count,
        })))),
    ] : null);
  after.after(section);
}
