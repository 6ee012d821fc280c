import { api, errorText } from "./api.js";
import { drawChart } from "./chart.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import {
  fill, formatDate, formatDuration, formatShare, gameName, redealsText, undosText, weekdayNames,
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
  parts.push(formatDuration(record.elapsed_seconds));
  if (!record.ranked) parts.push(gettext("practice"));
  return parts.join(" · ");
}

function statusName(status) {
  return {
    playing: gettext("playing"), won: gettext("won"), blocked: gettext("blocked"),
    stalled: gettext("stalled"), abandoned: gettext("abandoned"),
  }[status] ?? "";
}

function renderStreakCalendar(days, today) {
  replace($("streak-weekdays"), weekdayNames(lang).map((w) => h("th", { scope: "col", abbr: w.long }, w.short)));
  const names = { won: gettext("won"), played: gettext("played"), none: gettext("not played") };
  replace($("streak-weeks"), streakWeeks(days, today, 12).map((week) => h("tr", {}, week.map((day) => {
    if (!day) return h("td", {});
    return h("td", {}, h("span", {
      class: `streak-day streak-day--${day.kind}`, role: "img", dataset: { date: day.date, kind: day.kind },
      "aria-label": `${formatDate(day.date, lang)}: ${names[day.kind]}`,
    }));
  }))));
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
    renderStreakCalendar(days, daily.date);
    renderPerGame(days);
    $("empty").hidden = days.length > 0;
    replace($("chart"), days.length ? drawChart(days, {
      label: gettext("Cards home per day, out of 52, for Cruel and Flower Garden"),
      names: { cruel: gameName("cruel", gettext), flower: gameName("flower", gettext) },
      dateText: (iso) => formatDate(iso, lang),
    }) : null);
    replace($("days"), days.map((day) => h("tr", {},
      h("th", { scope: "row" }, h("time", { datetime: day.date }, formatDate(day.date, lang))),
      ["cruel", "flower"].map((game) => h("td", {},
        recordText(game, day[game]), " ",
        h("a", { href: `/play/${game}/${day.date}/` }, gettext("the day's page")), " · ",
        h("a", { href: `/leaderboard/?game=${game}&date=${day.date}` }, gettext("leaderboard")),
        day[game] ? h("p", { class: "analysis", hidden: true, dataset: { analysis: String(day[game].attempt_id) } }) : null)))));
    $("loading").hidden = true;
    $("content").hidden = false;
    root.dataset.loaded = "true";
    showHistoryAnalyses($("days"), days.flatMap((day) => ["cruel", "flower"]
      .filter((game) => day[game]).map((game) => day[game].attempt_id)));
  } catch (error) {
    $("loading").hidden = true;
    $("message").hidden = false;
    $("message").textContent = errorText(error, gettext);
  }
}

load();
