// A game's archive as a month grid: each day that has begun with the
// player's result, a link to that day's page (practice, record, replay).

import { api, errorText } from "./api.js";
import { gettext, h, replace } from "./dom.js";
import { fill, formatDate, formatMonth, levelWord, weekdayNames } from "./format.js";

const root = document.querySelector("[data-calendar]");
const game = root.dataset.game;
const lang = document.documentElement.lang || "pt-pt";
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);

/** What a day's cell says: [mark, sentence for screen readers, kind] (a day not played: a play sign drawn by CSS). */
export function dayResult(day) {
  if (!day.has_deal) return ["", gettext("no deal"), "none"];
  const r = day.record;
  if (!r) return ["", day.today ? gettext("today's deal, not played yet") : gettext("not played"), "unplayed"];
  if (r.won) return ["✓", gettext("won"), "won"];
  return [`${r.cards_home}/52`, fill(gettext("best: %(n)s of 52 cards home"), { n: r.cards_home }), "played"];
}

function cell(day) {
  const [mark, sentence, kind] = dayResult(day);
  const number = Number(day.date.slice(8));
  const level = levelWord(day.difficulty_level, gettext);
  const label = [`${formatDate(day.date, lang)}: ${sentence}`,
    level ? fill(gettext("difficulty: %(level)s"), { level }) : ""].filter(Boolean).join(", ");
  // The level as a word, and as pips (step of 4) where a phone's cell is too narrow for the word.
  const pips = level ? Array.from({ length: day.difficulty_level.of }, (_, i) => h("span", {
    class: i < day.difficulty_level.step ? "pip pip--on" : "pip",
  })) : [];
  const content = [h("span", { class: "day__number", "aria-hidden": "true" }, String(number)),
    level ? h("span", { class: `day-level day-level--${day.difficulty_level.level}`, "aria-hidden": "true" },
      h("span", { class: "day-level__word" }, level), h("span", { class: "day-level__pips" }, pips)) : null,
    h("span", { class: `day-mark day-mark--${kind}`, "aria-hidden": "true" }, day.has_deal ? mark
      : [h("span", { class: "day-mark__word" }, gettext("no deal")), h("span", { class: "day-mark__dash" }, "\u2013")])];
  const href = day.today ? `/play/${game}/` : `/play/${game}/${day.date}/`;
  return h("td", { class: `day day--${kind}${day.today ? " day--today" : ""}`, dataset: { date: day.date, kind } },
    day.has_deal
      ? h("a", { href, "aria-label": label, "aria-current": day.today ? "date" : null }, content)
      : h("span", { class: "day__inner", role: "img", "aria-label": label }, content));
}

function render(data) {
  // Three letters fit a phone's column in both languages ("seg", "Mon"); abbr holds the whole name.
  replace($("weekdays"), weekdayNames(lang).map((w) => h("th", { scope: "col", abbr: w.long }, w.short.slice(0, 3))));
  const monthName = formatMonth(data.month, lang);
  $("month-name").textContent = monthName;
  $("caption").textContent = fill(gettext("Your results in %(month)s"), { month: monthName });
  for (const [ref, month] of [["previous", data.previous], ["next", data.next]]) {
    const link = $(ref);
    link.hidden = !month;
    if (month) {
      link.href = `?month=${month}`;
      $(`${ref}-name`).textContent = formatMonth(month, lang);
    }
  }
  const byDate = new Map(data.days.map((d) => [d.date, d]));
  const [year, month] = data.month.split("-").map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7; // Monday first
  const cells = Array.from({ length: lead }, () => h("td", { class: "day day--outside" }));
  for (let d = 1; d <= days; d += 1) {
    const iso = `${data.month}-${String(d).padStart(2, "0")}`;
    const day = byDate.get(iso);
    cells.push(day ? cell(day) : h("td", { class: "day day--outside" },
      h("span", { class: "day__number day__number--quiet" }, String(d))));
  }
  // Always six weeks, as the page's placeholder has: the legend below never moves.
  while (cells.length < 42) cells.push(h("td", { class: "day day--outside" }));
  const weeks = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(h("tr", {}, cells.slice(i, i + 7)));
  replace($("weeks"), weeks);
  root.dataset.loaded = data.month;
}

async function load() {
  try {
    const month = root.dataset.month;
    render(await api(month ? `/calendar/${game}/${month}` : `/calendar/${game}`));
  } catch (error) {
    $("message").hidden = false;
    $("message").textContent = errorText(error, gettext);
  }
}

load();
