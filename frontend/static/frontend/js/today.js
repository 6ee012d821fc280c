// The front page: both of today's deals with the player's state on each (not
// started, in play with its cards home, finished with its record), the
// streaks, the countdown to the next day, and how each game is played (from
// its link; the play page shows a game's by itself when it is first opened).

import { api, errorText } from "./api.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import { fill, formatDate, formatTenths, formatTimeLeft, gameName, levelText, placeText, redealsText, secondsLeft } from "./format.js";
import { howTo } from "./howto.js";
import { watchMidnight } from "./midnight.js";

const root = document.querySelector("[data-today]");
const lang = document.documentElement.lang || "pt-pt";
const $ = (name, within = root) => within.querySelector(`[data-ref="${name}"]`);
const view = { daily: null, dailyAt: 0 };

/**
 * How the player stands on one deal: its state and the words for it. The
 * ranked attempt, once over, is the day's headline for the rest of the day;
 * practice after it is a secondary line (`practice`).
 */
export function dealState(game, attempts) {
  const isOpen = (a) => !a.finished && a.status !== "won";
  const inPlay = (a) => fill(gettext("In play: %(n)s of 52 cards home."), { n: a.counters.cards_home });
  const ranked = attempts.find((a) => a.ranked);
  const record = ranked ?? attempts.at(-1);
  if (!record) return { state: "new", text: gettext("Not started yet."), action: null, practice: null };
  if (isOpen(record)) return { state: "playing", text: inPlay(record), action: gettext("Continue"), practice: null };
  const c = record.counters;
  const parts = [`${c.cards_home}/52`];
  if (game === "cruel") parts.push(redealsText(c.redeals, ngettext));
  parts.push(formatTenths(record.elapsed_seconds, lang));
  const head = record.status === "won" ? gettext("Won") : gettext("Finished");
  const practising = attempts.find((a) => !a.ranked && isOpen(a));
  return {
    state: record.status === "won" ? "won" : "finished",
    text: `${head}: ${parts.join(" · ")}`,
    action: gettext("See your game"),
    attempt: record.id,
    practice: practising
      ? { text: fill(gettext("Practice in play: %(n)s of 52 cards home."), { n: practising.counters.cards_home }),
          action: gettext("Continue practice") }
      : { text: "", action: gettext("Practise again") },
  };
}

function showDeal(deal) {
  const card = root.querySelector(`[data-deal="${deal.game}"]`);
  if (!card) return;
  const { state, text, action, attempt, practice } = dealState(deal.game, deal.my_attempts ?? []);
  card.dataset.state = state;
  $("state", card).textContent = text;
  $("difficulty", card).textContent = levelText(deal.difficulty_level, gettext);
  const play = $("play", card);
  play.textContent = action ?? fill(gettext("Play %(game)s"), { game: gameName(deal.game, gettext) });
  // The finished ranked game opens by its id: a practice game in play would open otherwise.
  play.href = attempt ? `/play/${deal.game}/?attempt=${attempt}` : `/play/${deal.game}/`;
  $("practice", card).hidden = !practice;
  $("practice-text", card).textContent = practice?.text ?? "";
  $("practice-link", card).textContent = practice?.action ?? "";
}

function tick() {
  if (!view.daily) return;
  const left = secondsLeft(view.daily.seconds_to_next_day, view.dailyAt, performance.now());
  $("countdown").textContent = formatTimeLeft(left);
  midnight.check(left);
}

function setDaily(daily) {
  view.daily = daily;
  view.dailyAt = performance.now();
  $("date").textContent = formatDate(daily.date, lang);
  $("date").dateTime = daily.date;
  for (const deal of daily.deals) showDeal(deal);
  root.dataset.date = daily.date;
  tick();
}

const midnight = watchMidnight({
  fetchDaily: () => api("/daily"),
  currentDate: () => view.daily?.date,
  onDaily: (daily) => setDaily(daily),
  onNewDay: () => Promise.all([loadStreaks(), loadLeagues()]),
});

async function loadStreaks() {
  try {
    const { streaks } = await api("/history");
    $("streak").textContent = fill(ngettext("%(n)s day", "%(n)s days", streaks.played.current), { n: streaks.played.current });
    $("win-streak").textContent = fill(ngettext("%(n)s day", "%(n)s days", streaks.won.current), { n: streaks.won.current });
  } catch {
    // The streaks are a bonus: the deals stand without them.
  }
}

/** Under each deal, the player's place in each of their leagues. */
async function loadLeagues() {
  if (!view.daily) return;
  let places = [];
  try {
    ({ places } = await api(`/leagues/places/${view.daily.date}`));
  } catch {
    // The leagues are a bonus: the deals stand without them.
  }
  for (const card of root.querySelectorAll("[data-deal]")) {
    const mine = places.filter((place) => place.game === card.dataset.deal);
    replace($("leagues", card), ...mine.map((place) => h("li", {},
      h("a", { href: `/leagues/?league=${place.league.id}` }, placeText(place, gettext, lang)))));
    $("leagues", card).hidden = mine.length === 0;
  }
}

async function load() {
  try {
    setDaily(await api("/daily"));
  } catch (error) {
    $("message").textContent = errorText(error, gettext);
    $("message").hidden = false;
  }
  await Promise.all([loadStreaks(), loadLeagues()]);
  root.dataset.loaded = "true";
}

const guide = howTo($("howto"));
$("help").addEventListener("click", () => guide.open("cruel", { tour: true }));
for (const button of root.querySelectorAll('[data-ref="how"]')) {
  button.addEventListener("click", () => guide.open(button.dataset.game));
}
setInterval(tick, 1000);
load();
