import { api, errorText } from "./api.js";
import { drawChart } from "./chart.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import {
  fill, formatDate, formatShare, formatTenths, gameName, redealsText, undosText, weekdayNames,
} from "./format.js";
import { cardsHomeBins, streakWeeks, winRate } from "./records.js";
import { showHistoryAnalyses } from "./analysis.js";

const root = document.querySelector("[data-history]");
const lang = document.documentElement.lang || "pt-pt";
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);

function recordText(game, record) {
  if (!record) return gettext("not played");
  const parts = [`${record.cards_home}/52`];
  parts.push(record.won ? gettext("won") : statusName(record.status));
  if (game === "cruel") parts.push(redealsText(record.redeals, ngettext));
  parts.push(undosText(record.undos, ngettext));
  parts.push(formatTenths(record.elapsed_seconds, lang));
  if (!record.ranked) parts.push(gettext("practice"));
  return parts.join(" · ");
}

function statusName(status) {
  return {
    playing: gettext("playing"), won: gettext("won"), blocked: gettext("blocked"),
    stalled: gettext("stalled"), abandoned: gettext("abandoned"),
  }[status] ?? "";
}

/** Where a day of the streak calendar leads: its page, of the game played that day (Cruel if none or both). */
export function streakDayHref(day, days, today) {
  const record = days.find((d) => d.date === day.date);
  const game = record && !record.cruel && record.flower ? "flower" : "cruel";
  return day.date === today ? `/play/${game}/` : `/play/${game}/${day.date}/`;
}

/**
 * The last twelve weeks, a row a week (Monday first): each row headed by
 * its month where a month begins, each day a square with its number, a
 * link to that day with its date and result in its name and title.
 */
function renderStreakCalendar(days, today, frozen, firstDay) {
  replace($("streak-weekdays"),
    h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, gettext("Week"))),
    weekdayNames(lang).map((w) => h("th", { scope: "col", abbr: w.long }, w.short.replace(/\.$/, "").slice(0, 3))));
  const names = {
    won: gettext("a ranked attempt won"), played: gettext("played on the day"),
    frozen: gettext("not played: a freeze kept the streak"), none: gettext("not played"),
  };
  const monthShort = new Intl.DateTimeFormat(lang.startsWith("pt") ? "pt-PT" : "en-GB", { month: "short", timeZone: "UTC" });
  replace($("streak-weeks"), streakWeeks(days, today, 12, frozen, firstDay).map((week, row) => {
    const first = week.find(Boolean);
    const newMonth = week.find((day) => day && day.date.endsWith("-01"));
    const labelled = newMonth ?? (row === 0 ? first : null);
    const month = labelled ? monthShort.format(new Date(`${labelled.date}T00:00:00Z`)).slice(0, 3) : "";
    return h("tr", {},
      h("th", { scope: "row", class: "streak-calendar__month" },
        h("span", { "aria-hidden": "true" }, month),
        h("span", { class: "visually-hidden" }, fill(gettext("Week of %(date)s"), { date: formatDate(first.date, lang) }))),
      week.map((day) => {
        if (!day) return h("td", {});
        const label = `${formatDate(day.date, lang, { weekday: true })}: ${names[day.kind]}`;
        return h("td", {}, h("a", {
          class: `streak-day streak-day--${day.kind}${day.date === today ? " streak-day--today" : ""}${
            day.date.endsWith("-01") ? " streak-day--first" : ""}`,
          href: streakDayHref(day, days, today), title: label, "aria-label": label,
          "aria-current": day.date === today ? "date" : null,
          dataset: { date: day.date, kind: day.kind },
        }, String(Number(day.date.slice(8)))));
      }));
  }));
}

function renderPerGame(days) {
  replace($("per-game"), ["cruel", "flower"].map((game) => {
    const { played, won } = winRate(days, game);
    const bins = cardsHomeBins(days, game);
    const most = Math.max(1, ...bins.map((b) => b.count));
    const rate = played ? formatShare(won / played) : "–";
    return h("section", { class: "per-game__game", "aria-labelledby": `per-game-${game}` },
      h("h3", { id: `per-game-${game}` }, gameName(game, gettext)),
      h("p", { dataset: { ref: `win-rate-${game}` } },
        fill(ngettext("Won %(won)s of %(played)s ranked day (%(rate)s).", "Won %(won)s of %(played)s ranked days (%(rate)s).", played),
          { won, played, rate })),
      h("table", { class: "bins" },
        h("caption", {}, fill(gettext("Cards home on your ranked days, %(game)s"), { game: gameName(game, gettext) })),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Cards home")), h("th", { scope: "col" }, gettext("Days")))),
        h("tbody", {}, bins.map((b) => h("tr", {},
          h("th", { scope: "row" }, b.label),
          h("td", {}, h("span", { class: `bin bin--${game}`, style: `width:${(b.count / most) * 10}rem` }), " ",
            fill(ngettext("%(n)s day", "%(n)s days", b.count), { n: b.count })))))));
  }));
}

/** A day's cell of the days' table: the result, its details, then the day's links, each on its own line. */
function dayCell(game, date, record) {
  const links = h("ul", { class: "day-cell__links" },
    h("li", {}, h("a", { href: `/play/${game}/${date}/` }, gettext("The day's page"))),
    h("li", {}, h("a", { href: `/leaderboard/?game=${game}&date=${date}` }, gettext("Leaderboard"))));
  if (!record) {
    return h("td", { class: "day-cell day-cell--none" }, h("p", { class: "day-cell__result" }, gettext("not played")), links);
  }
  const details = [];
  if (game === "cruel") details.push(redealsText(record.redeals, ngettext));
  details.push(undosText(record.undos, ngettext), formatTenths(record.elapsed_seconds, lang));
  if (!record.ranked) details.push(gettext("practice"));
  return h("td", { class: `day-cell${record.won ? " day-cell--won" : ""}` },
    h("p", { class: "day-cell__result" }, h("strong", {}, `${record.cards_home}/52`), " ",
      record.won ? gettext("won") : statusName(record.status)),
    h("p", { class: "day-cell__details" }, details.join(" \u00b7 ")),
    links,
    h("p", { class: "analysis", hidden: true, dataset: { analysis: String(record.attempt_id) } }));
}

async function load() {
  try {
    const [data, daily] = await Promise.all([api("/history"), api("/daily")]);
    const { played, won } = data.streaks;
    replace($("streaks"),
      h("li", {}, fill(gettext("Days played in a row: %(current)s (longest %(longest)s)"), played)),
      h("li", { dataset: { ref: "freezes" } }, fill(gettext("Freezes held: %(freezes)s of 2 (the next after %(next_freeze_in)s more days played)"), played)),
      h("li", {}, fill(gettext("Days won in a row: %(current)s (longest %(longest)s)"), won)),
      ["cruel", "flower"].map((game) => h("li", {},
        fill(gettext("Best %(game)s: %(record)s"), { game: gameName(game, gettext), record: recordText(game, data.best[game]) }))));
    const days = data.days;
    const frozen = new Set(played.days.filter((d) => d.state === "frozen").map((d) => d.date));
    renderStreakCalendar(days, daily.date, frozen, data.first_day);
    renderPerGame(days);
    $("empty").hidden = days.length > 0;
    replace($("chart"), days.length ? drawChart(days, {
      label: gettext("Cards home per day, out of 52, for Cruel and Flower Garden"),
      names: { cruel: gameName("cruel", gettext), flower: gameName("flower", gettext) },
      dateText: (iso) => formatDate(iso, lang),
    }) : null);
    replace($("days"), days.map((day) => h("tr", {},
      h("th", { scope: "row" }, h("time", { datetime: day.date }, formatDate(day.date, lang))),
      ["cruel", "flower"].map((game) => dayCell(game, day.date, day[game])))));
    $("loading").hidden = true;
    $("content").hidden = false;
    root.dataset.loaded = "true";
    // Only an attempt that is over has an analysis: none is asked of a game in play.
    const over = (day, record) => record.finished || (record.ranked && day.date < daily.date);
    showHistoryAnalyses($("days"), days.flatMap((day) => ["cruel", "flower"]
      .filter((game) => day[game] && over(day, day[game])).map((game) => day[game].attempt_id)));
  } catch (error) {
    $("loading").hidden = true;
    $("message").hidden = false;
    $("message").textContent = errorText(error, gettext);
  }
}

load();
