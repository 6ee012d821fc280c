import { api, errorText } from "./api.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import { fill, formatDate, formatTenths, rankText } from "./format.js";

const root = document.querySelector("[data-leaderboard]");
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);
const form = $("form");
const lang = document.documentElement.lang || "pt-pt";

function row(entry, game) {
  return h("tr", { class: entry.is_me ? "me" : null, "aria-current": entry.is_me ? "true" : null },
    h("td", { class: "num" }, String(entry.rank)),
    h("td", {}, entry.display_name,
      entry.machine_pace ? [" ", h("span", { class: "badge" }, gettext("machine pace"))] : null,
      entry.is_me ? [" ", h("span", { class: "badge" }, gettext("your record"))] : null),
    h("td", { class: "num" }, `${entry.cards_home}/52`),
    h("td", { class: "num" }, String(entry.undos)),
    game === "cruel" ? h("td", { class: "num" }, String(entry.redeals)) : null,
    h("td", { class: "num" }, formatTenths(entry.elapsed_seconds, lang)));
}

async function load() {
  const game = form.game.value;
  const date = form.date.value;
  $("message").hidden = true;
  try {
    // Registered players only: guests left out, so a swarm of them cannot crowd the board.
    const registered = form.registered.checked ? "&registered=true" : "";
    const data = await api(`/leaderboard/${game}/${date}?limit=50${registered}`);
    $("redeals-head").hidden = game !== "cruel";
    const rows = data.entries.map((e) => row(e, game));
    if (data.me && !data.entries.some((e) => e.is_me)) {
      rows.push(h("tr", {}, h("td", { colspan: game === "cruel" ? 6 : 5 }, "…")));
      rows.push(row({ ...data.me, is_me: true }, game));
    }
    replace($("rows"), rows);
    $("summary").textContent = data.total
      ? fill(ngettext("%(total)s ranked player on %(date)s.", "%(total)s ranked players on %(date)s.", data.total),
        { total: data.total, date: formatDate(date, lang) })
      : gettext("Nobody has a ranked attempt on this day yet.");
    $("me").textContent = data.me
      ? rankText({ rank: data.me.rank, total: data.total, beaten: data.me.beaten }, gettext, ngettext)
      : "";
    const deal = await api(`/daily/${date}/${game}`);
    $("replay").hidden = !deal.day_over;
    $("replay").href = `/replay/${game}/${date}/`;
  } catch (error) {
    replace($("rows"));
    $("summary").textContent = "";
    $("message").hidden = false;
    $("message").textContent = errorText(error, gettext);
  }
}

/** The game of the player's latest attempt today, or null. */
export function lastPlayed(deals) {
  const latest = (a) => a.ended_at ?? a.started_at ?? "";
  let best = null;
  for (const deal of deals) {
    for (const attempt of deal.my_attempts ?? []) {
      if (!best || latest(attempt) > latest(best.attempt)) best = { game: deal.game, attempt };
    }
  }
  return best?.game ?? null;
}

async function init() {
  const asked = new URLSearchParams(window.location.search);
  if (!form.date.value || !asked.has("game")) {
    try {
      const daily = await api("/daily");
      if (!form.date.value) form.date.value = daily.date;
      form.date.max = daily.date;
      // No game asked: the one the player played last today.
      if (!asked.has("game")) form.game.value = lastPlayed(daily.deals) ?? form.game.value;
    } catch { /* the load below reports the error */ }
  }
  await load();
}

function show() {
  const url = new URL(window.location.href);
  url.searchParams.set("game", form.game.value);
  url.searchParams.set("date", form.date.value);
  if (form.registered.checked) url.searchParams.set("registered", "true");
  else url.searchParams.delete("registered");
  history.replaceState(null, "", url);
  load();
}

// Every filter applies as it changes (a date once it is a whole date).
form.addEventListener("submit", (event) => {
  event.preventDefault();
  show();
});
form.addEventListener("change", () => {
  if (form.date.validity.valid) show();
});
init();
