import { api, errorText } from "./api.js";
import { drawChart } from "./chart.js";
import { gettext, h, replace } from "./dom.js";
import { fill, formatDuration, gameName } from "./format.js";

const root = document.querySelector("[data-history]");
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);

function recordText(game, record) {
  if (!record) return gettext("not played");
  const parts = [`${record.cards_home}/52`];
  parts.push(record.won ? gettext("won") : statusName(record.status));
  if (game === "cruel") parts.push(fill(gettext("%(n)s redeals"), { n: record.redeals }));
  parts.push(fill(gettext("%(n)s undos"), { n: record.undos }));
  parts.push(formatDuration(record.elapsed_seconds));
  if (!record.ranked) parts.push(gettext("practice"));
  return parts.join(" · ");
}

function statusName(status) {
  return {
    playing: gettext("playing"), won: gettext("won"), blocked: gettext("blocked"),
    stalled: gettext("stalled"), abandoned: gettext("abandoned"),
  }[status] ?? status;
}

async function load() {
  try {
    const data = await api("/history");
    const { played, won } = data.streaks;
    replace($("streaks"),
      h("li", {}, fill(gettext("Days played in a row: %(current)s (longest %(longest)s)"), played)),
      h("li", {}, fill(gettext("Days won in a row: %(current)s (longest %(longest)s)"), won)),
      ["cruel", "flower"].map((game) => h("li", {},
        fill(gettext("Best %(game)s: %(record)s"), { game: gameName(game, gettext), record: recordText(game, data.best[game]) }))));
    const days = data.days;
    $("empty").hidden = days.length > 0;
    replace($("chart"), days.length ? drawChart(days, {
      label: gettext("Cards home per day, out of 52, for Cruel and Flower Garden"),
      names: { cruel: gameName("cruel", gettext), flower: gameName("flower", gettext) },
    }) : null);
    replace($("days"), days.map((day) => h("tr", {},
      h("th", { scope: "row" }, day.date),
      ["cruel", "flower"].map((game) => h("td", {},
        recordText(game, day[game]), " ",
        h("a", { href: `/leaderboard/?game=${game}&date=${day.date}` }, gettext("leaderboard")))))));
  } catch (error) {
    $("message").hidden = false;
    $("message").textContent = errorText(error, gettext);
  }
}

load();
