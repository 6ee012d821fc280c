// The end of a game as a results sheet (a modal <dialog>): the record, the
// rank and the share of players beaten, the day's distribution of cards home,
// the player's streaks and win rate, par, and after a loss the losing move
// with its replay and "try again from here". It needs of the analysis only
// the losing move's number and the move.

import { api, errorText } from "./api.js";
import { showAnalysis } from "./analysis.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import {
  dayUrl, fill, formatDate, formatLocalTime, formatShare, formatTenths, gameName, placeText, rankText, shareText,
} from "./format.js";
import { moveText } from "./notation.js";
import { steadyWhilePressed } from "./press.js";
import { statusSentence } from "./words.js";
import { BINS } from "./records.js";
import { fitHeight, showShareText } from "./share.js";

/** The day's ranked attempts per number of cards home, in the history page's bins. */
export function distributionBins(counts) {
  return BINS.map(([low, high]) => ({
    label: low === high ? String(low) : `${low}\u2013${high}`,
    low, high,
    count: counts.filter((c) => c.cards_home >= low && c.cards_home <= high).reduce((n, c) => n + c.count, 0),
  }));
}

function recordRows(game, attempt, lang) {
  const c = attempt.counters;
  const row = (name, value, ref) => h("div", { dataset: ref ? { ref } : {} }, h("dt", {}, name), h("dd", {}, value));
  return [
    row(gettext("Cards home"), `${c.cards_home}/52`),
    row(gettext("Moves"), String(c.moves)),
    game === "cruel" ? row(gettext("Redeals"), String(c.redeals)) : null,
    row(gettext("Undos"), String(c.undos)),
    row(gettext("Time"), formatTenths(attempt.elapsed_seconds, lang)),
  ];
}

function distributionTable(game, counts, mine) {
  const bins = distributionBins(counts);
  const most = Math.max(1, ...bins.map((b) => b.count));
  return h("table", { class: "bins results__bins" },
    h("caption", {}, gettext("Cards home of the day's ranked players so far")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Cards home")), h("th", { scope: "col" }, gettext("Players")))),
    h("tbody", {}, bins.map((b) => {
      const yours = mine !== null && mine >= b.low && mine <= b.high;
      return h("tr", { class: yours ? "bins__mine" : null },
        h("th", { scope: "row" }, b.label),
        h("td", {},
          h("span", { class: `bin bin--${game}`, style: `width:${Math.max(0.15, (b.count / most) * 7)}rem` }), " ",
          String(b.count), yours ? [" ", h("span", { class: "bins__you" }, gettext("(you)"))] : null));
    })));
}

function statsFigures(history) {
  const { totals, streaks } = history;
  const figure = (value, label, ref) => h("div", { class: "stat", dataset: { ref } },
    h("dd", { class: "stat__value" }, String(value)), h("dt", { class: "stat__label" }, label));
  return [
    figure(totals.played, gettext("Days played"), "stat-played"),
    figure(totals.played ? formatShare(totals.won / totals.played) : "–", gettext("Win rate"), "stat-win-rate"),
    figure(streaks.played.current, gettext("Day streak"), "stat-streak"),
    figure(streaks.played.longest, gettext("Best day streak"), "stat-best-streak"),
    figure(streaks.won.current, gettext("Winning streak"), "stat-win-streak"),
    figure(streaks.won.longest, gettext("Best winning streak"), "stat-best-win-streak"),
  ];
}

/** A past day's record of one game (its ranked attempt, else its best practice one, as in History). */
function dayRecordFigures(record, lang) {
  const figure = (value, label, ref) => h("div", { class: "stat", dataset: { ref } },
    h("dd", { class: "stat__value" }, value), h("dt", { class: "stat__label" }, label));
  return [
    figure(`${record.cards_home}/52`, gettext("Cards home"), "stat-day-cards"),
    figure(record.won ? gettext("Won") : gettext("Not won"),
      record.ranked ? gettext("Ranked attempt") : gettext("Practice attempt"), "stat-day-result"),
    figure(formatTenths(record.elapsed_seconds, lang), gettext("Time"), "stat-day-time"),
  ];
}

function parText(game, par) {
  if (!par) return "";
  return game === "cruel"
    ? fill(gettext("Par: %(moves)s moves and %(redeals)s redeals."), par)
    : fill(gettext("Par: %(moves)s moves."), par);
}

/**
 * The sheet of one play page. `ctx`: {$, game, lang, view, onRetry(from), onAgain()}.
 */
export function resultsSheet(ctx) {
  const { $, game, lang, view } = ctx;
  const sheet = $("end");
  let filledFor = null;
  // The sheet opens at once and fills as the answers come: each late part
  // waits out a press in the sheet, so that no control moves under it.
  const steady = steadyWhilePressed(sheet);

  $("end-close").addEventListener("click", () => sheet.close());
  // A click on the backdrop (outside the sheet's box) closes it too.
  sheet.addEventListener("click", (event) => {
    if (event.target !== sheet) return;
    const r = sheet.getBoundingClientRect();
    const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
    if (!inside) sheet.close();
  });
  $("show-end").addEventListener("click", () => open());
  $("again").addEventListener("click", () => { sheet.close(); ctx.onAgain(); });
  $("retry").addEventListener("click", () => {
    const from = $("retry").dataset;
    sheet.close();
    ctx.onRetry({ attemptId: Number(from.attempt), moveNumber: Number(from.move), move: from.lostMove });
  });

  function open() {
    if (!sheet.open) sheet.showModal();
    sheet.focus({ preventScroll: true });
    fitHeight($("share-text")); // measured now that the sheet is laid out
  }

  /** Fill the sheet for a finished attempt (once per attempt and version). */
  async function fill_(attempt) {
    const key = `${attempt.id}:${attempt.version}:${attempt.status}:${attempt.finished}`;
    if (filledFor === key) return;
    filledFor = key;
    const won = attempt.status === "won";
    sheet.dataset.status = attempt.status;
    $("end-title").textContent = won ? gettext("You won!") : gettext("Attempt over");
    $("end-status").textContent = won
      ? fill(ngettext("All 52 cards home in %(n)s move.", "All 52 cards home in %(n)s moves.", attempt.counters.moves), { n: attempt.counters.moves })
      : statusSentence(attempt, gettext);
    replace($("record"), recordRows(game, attempt, lang));
    if (view.daily) $("next-day").textContent = formatLocalTime(view.daily.next_day_starts_at, lang);
    $("lost").hidden = true;
    $("par").textContent = "";
    replace($("distribution"));
    replace($("stats"));
    replace($("leagues"));
    $("leagues").hidden = true;
    // Nothing to share or copy until the text is there.
    $("share").disabled = true;
    $("copy").disabled = true;
    const board = api(`/leaderboard/${game}/${attempt.date}?limit=1`);
    const spread = board.then(async (answer) => {
      await steady();
      const mine = attempt.ranked && answer.me ? answer.me.cards_home : null;
      if (answer.total) replace($("distribution"), distributionTable(game, answer.cards_home, mine));
    }, () => {});
    // The share text needs the rank only; the analysis may take the workers a while.
    const shared = showRank(attempt, board).then(async (rank) => {
      await steady();
      showShareText($("share-text"), shareText({
        game, date: attempt.date, counters: attempt.counters, elapsedSeconds: attempt.elapsed_seconds,
        status: attempt.status, rank: rank?.rank, total: rank?.total,
        url: dayUrl(window.location.origin, game, attempt.date), lang, level: view.deal?.difficulty_level,
      }, gettext, ngettext));
      $("share").disabled = false;
      $("copy").disabled = false;
    });
    await Promise.all([shared, spread, showStats(attempt), showLeagues(attempt), showLoss(attempt)]);
    sheet.dataset.ready = key;
  }

  /** The rank from the leaderboard's answer (said at once for practice): {rank, total}, or null. */
  async function showRank(attempt, board) {
    if (!attempt.ranked) {
      $("rank").textContent = gettext("Practice attempts are not ranked.");
      return null;
    }
    try {
      const { me, total } = await board;
      await steady();
      if (!me) return null;
      $("rank").textContent = rankText({ rank: me.rank, total, beaten: me.beaten }, gettext, ngettext);
      return { rank: me.rank, total };
    } catch (error) {
      await steady();
      $("rank").textContent = errorText(error, gettext);
      return null;
    }
  }

  /** A ranked game's place in each of the player's leagues: "3rd of 7 in Friday Club". */
  async function showLeagues(attempt) {
    if (!attempt.ranked) return;
    try {
      const { places } = await api(`/leagues/places/${attempt.date}`);
      await steady();
      const mine = places.filter((place) => place.game === game && place.rank !== null);
      replace($("leagues"), ...mine.map((place) => h("li", {},
        h("a", { href: `/leagues/?league=${place.league.id}` }, placeText(place, gettext, lang)))));
      $("leagues").hidden = mine.length === 0;
    } catch {
      // The leagues are a bonus: the record stands without them.
    }
  }

  /**
   * One game's figures, titled with its name (the home page's streaks count
   * both games): its streaks and win rate; on a past day's deal, that day's
   * record instead (practice there makes no streak).
   */
  async function showStats(attempt) {
    const pastDay = Boolean(view.deal?.day_over);
    $("stats-title").textContent = pastDay
      ? fill(gettext("%(game)s, %(date)s: your record"), { game: gameName(game, gettext), date: formatDate(attempt.date, lang) })
      : fill(gettext("%(game)s: your statistics"), { game: gameName(game, gettext) });
    try {
      const history = await api(`/history?game=${game}`);
      await steady();
      if (!pastDay) {
        replace($("stats"), statsFigures(history));
        return;
      }
      const record = history.days.find((day) => day.date === attempt.date)?.[game];
      replace($("stats"), record ? dayRecordFigures(record, lang) : []);
    } catch {
      // The figures are a bonus: the record above stands without them.
    }
  }

  async function showLoss(attempt) {
    const analysis = await showAnalysis($("analysis"), attempt, { steady });
    if (!analysis || analysis.status !== "done") return;
    // A win's analysis already sets it against par.
    if (analysis.verdict !== "won") $("par").textContent = parText(game, analysis.par);
    const lost = analysis.verdict === "lost" ? analysis.lost_at : null;
    if (!lost) return;
    $("lost-text").textContent = fill(gettext("Practise from the position before move %(number)s (%(move)s)."), {
      number: lost.move_number, move: moveText(lost.move, gettext),
    });
    $("retry").dataset.attempt = String(attempt.id);
    $("retry").dataset.move = String(lost.move_number);
    $("retry").dataset.lostMove = lost.move;
    $("lost").hidden = false;
  }

  return {
    /** The attempt is over: fill the sheet; `show` opens it (the game ended here and now). */
    async over(attempt, { show }) {
      if ($("show-end").hidden) $("show-end").hidden = false;
      if (show) open();
      await fill_(attempt);
    },
    /** A new attempt in play: the sheet and its button go. */
    reset() {
      // Touched only when it changes: every redraw of a move comes through here.
      if (!$("show-end").hidden) $("show-end").hidden = true;
      if (sheet.open) sheet.close();
    },
  };
}
