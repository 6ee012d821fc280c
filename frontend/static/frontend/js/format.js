// Formatting for people: durations, the countdown to the next day, percentages
// and the share text. Pure: `gettext` is Django's (identity in tests).

const identity = (text) => text;
const identityN = (singular, plural, n) => (n === 1 ? singular : plural);

function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
}

const pad = (n) => String(n).padStart(2, "0");

/** 75.4 -> "1:15"; 3725 -> "1:02:05". */
export function formatDuration(seconds) {
  const total = Math.max(0, Math.floor(Number(seconds) || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Seconds left until the next day, from the server's figure and the time since it was read. */
export function secondsLeft(secondsToNextDay, receivedAtMs, nowMs) {
  return Math.max(0, Number(secondsToNextDay) - Math.max(0, nowMs - receivedAtMs) / 1000);
}

/** 3725.2 -> "01:02:06" (rounded up, so it reads 00:00:00 only when the day has come). */
export function formatCountdown(seconds) {
  const total = Math.max(0, Math.ceil(Number(seconds) || 0));
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** 28143 -> "7 h 50 min"; 2943 -> "49 min 3 s"; 12 -> "12 s" (rounded up: "0 s" only when the day has come). */
export function formatTimeLeft(seconds) {
  const total = Math.max(0, Math.ceil(Number(seconds) || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}\u00A0h ${m}\u00A0min`;
  if (m) return `${m}\u00A0min ${s}\u00A0s`;
  return `${s}\u00A0s`;
}

/** The language tag dates are written in: English pages read "1 December 2026". */
export function dateLocale(lang) {
  return String(lang || "").toLowerCase().startsWith("pt") ? "pt-PT" : "en-GB";
}

// Intl formatters cost far more to make than to use: one per language and options.
const formatters = new Map();
function dateFormatter(locale, options) {
  const key = `${locale}|${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Intl.DateTimeFormat(locale, options));
  return formatters.get(key);
}

/** "2026-12-01" -> "1 December 2026" / "1 de dezembro de 2026" (a calendar date, no time zone shift). */
export function formatDate(isoDate, lang, { weekday = false } = {}) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(isoDate));
  if (!match) return String(isoDate ?? "");
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return dateFormatter(dateLocale(lang), {
    day: "numeric", month: "long", year: "numeric", timeZone: "UTC", ...(weekday ? { weekday: "long" } : {}),
  }).format(date);
}

/** Monday-first weekday names in the page's language, short and long (2024-01-01 was a Monday). */
export function weekdayNames(lang) {
  const short = dateFormatter(dateLocale(lang), { weekday: "short", timeZone: "UTC" });
  const long = dateFormatter(dateLocale(lang), { weekday: "long", timeZone: "UTC" });
  return [0, 1, 2, 3, 4, 5, 6].map((i) => {
    const day = new Date(Date.UTC(2024, 0, 1 + i));
    return { short: short.format(day), long: long.format(day) };
  });
}

/** "2026-12" -> "December 2026" / "dezembro de 2026". */
export function formatMonth(isoMonth, lang) {
  const match = /^(\d{4})-(\d{2})$/.exec(String(isoMonth));
  if (!match) return String(isoMonth ?? "");
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return dateFormatter(dateLocale(lang), { month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

/** The moment the next day starts, in the player's own time zone and language. */
export function formatLocalTime(isoWithOffset, locale, timeZone) {
  const date = new Date(isoWithOffset);
  if (Number.isNaN(date.getTime())) return "";
  // The page's language as its dates read it (en-GB for English), on a 24-hour clock.
  return new Intl.DateTimeFormat(dateLocale(locale), {
    weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone,
  }).format(date);
}

/**
 * 67.3 -> "1:07.3" ("1:07,3" in pt-PT): a record's time, in the whole tenths
 * of a second that rank it, cut and never rounded (7.09 -> "0:07.0"), the
 * rule of the API's elapsed_seconds (api.play.attempts.domain.record_seconds),
 * so the attempt, the leaderboard, the history and the share text agree.
 */
export function formatTenths(seconds, lang) {
  // Through whole milliseconds, as the server counts: 7.1 * 10 is 70.99999... in floats.
  const tenths = Math.max(0, Math.floor(Math.round((Number(seconds) || 0) * 1000) / 100));
  const mark = String(lang || "").toLowerCase().startsWith("pt") ? "," : ".";
  return `${formatDuration(Math.floor(tenths / 10))}${mark}${tenths % 10}`;
}

/**
 * A player's place in words, right for one player and for ties:
 * "Rank 2 of 9, shared with 3 other players. You did better than 60% of
 * the other players." `beaten`: players with a worse record.
 */
export function rankText({ rank, total, beaten }, gettext = identity, ngettext = identityN) {
  if (total <= 1) return gettext("Rank 1 of 1: the only ranked player so far.");
  const others = Math.max(0, total - beaten - rank); // equal records besides this one
  const head = others
    ? fill(ngettext("Rank %(rank)s of %(total)s, shared with %(n)s other player.",
      "Rank %(rank)s of %(total)s, shared with %(n)s other players.", others), { rank, total, n: others })
    : fill(gettext("Rank %(rank)s of %(total)s."), { rank, total });
  if (!beaten) return head;
  return `${head} ${fill(gettext("You did better than %(share)s of the other players."), {
    share: formatShare(beaten / (total - 1)),
  })}`;
}

/** 3 -> "3rd" in English, "3.º" in Portuguese. */
export function ordinal(n, lang = "") {
  if (String(lang).toLowerCase().startsWith("pt")) return `${n}.\u00ba`;
  const suffix = { one: "st", two: "nd", few: "rd", other: "th" }[new Intl.PluralRules("en", { type: "ordinal" }).select(n)];
  return `${n}${suffix}`;
}

/**
 * The player's place in a league on a day's deal (GET /leagues/places):
 * "3rd of 7 in Friday Club", or, before the player is on its board,
 * "Friday Club: 2 of 5 have played".
 */
export function placeText({ league, rank, players, members }, gettext = identity, lang = "") {
  if (rank === null || rank === undefined) {
    return fill(gettext("%(league)s: %(n)s of %(members)s have played"), { league: league.name, n: players, members });
  }
  return fill(gettext("%(place)s of %(n)s in %(league)s"), { place: ordinal(rank, lang), n: players, league: league.name });
}

/** A deal's difficulty level (the API's difficulty_level) as a word: "hard". */
export function levelWord(level, gettext = identity) {
  return {
    easy: gettext("easy"), medium: gettext("medium"), hard: gettext("hard"), very_hard: gettext("very hard"),
  }[level?.level] ?? "";
}

/** "hard (3 of 4)": the word and where it stands on the scale. */
export function levelText(level, gettext = identity) {
  if (!level) return "–";
  return fill(gettext("%(level)s (%(step)s of %(of)s)"), { level: levelWord(level, gettext), step: level.step, of: level.of });
}

/** 0.4 -> "40%" in the page's language's number format ("40 %" where it spaces it). */
export function formatPercent(share, lang) {
  return new Intl.NumberFormat(dateLocale(lang), { style: "percent", maximumFractionDigits: 0 }).format(Number(share) || 0);
}

/** 0.753 -> "75%" (never 100% unless every other player was beaten). */
export function formatShare(share) {
  const value = Math.max(0, Math.min(1, Number(share) || 0));
  const percent = value < 1 ? Math.min(99, Math.floor(value * 100)) : 100;
  return `${percent}%`;
}

export function gameName(game, gettext = identity) {
  return game === "cruel" ? gettext("Cruel") : gettext("Flower Garden");
}

/** "1 redeal", "2 redeals" (the catalog's plural forms through `ngettext`). */
export function redealsText(n, ngettext = identityN) {
  return fill(ngettext("%(n)s redeal", "%(n)s redeals", n), { n });
}

/** "1 undo", "2 undos". */
export function undosText(n, ngettext = identityN) {
  return fill(ngettext("%(n)s undo", "%(n)s undos", n), { n });
}

/**
 * A text to share an attempt, in short lines that fit a phone: the day; the
 * game, cards home, redeals (Cruel only), undos, time; the rank and the
 * difficulty; ten squares of cards home; the link to the day's page. It names
 * no card and no move, so it gives nothing of the deal away.
 */
export function shareText(
  { game, date, counters, elapsedSeconds, status, rank, total, url, lang, level = null },
  gettext = identity, ngettext = identityN,
) {
  const won = status === "won";
  const record = [`${gameName(game, gettext)} ${won ? "\u2713" : "\u2717"} ${counters.cards_home}/52`];
  if (game === "cruel") record.push(redealsText(counters.redeals, ngettext));
  record.push(undosText(counters.undos, ngettext));
  record.push(formatTenths(elapsedSeconds, lang));
  const standing = [];
  if (rank && total) standing.push(fill(gettext("#%(rank)s of %(total)s"), { rank, total }));
  if (level) standing.push(fill(gettext("difficulty: %(level)s"), { level: levelWord(level, gettext) }));
  const blocks = Math.round((counters.cards_home / 52) * 10);
  const lines = [
    fill(gettext("Daily solitaire, %(date)s"), { date: lang ? formatDate(date, lang) : date }),
    record.join(" \u00B7 "),
    standing.join(" \u00B7 "),
    // Plain geometric shapes: they are in every font, unlike emoji.
    "\u25A0".repeat(blocks) + "\u25A1".repeat(10 - blocks),
    url,
  ];
  return lines.filter(Boolean).join("\n");
}

/** The address of a day's page for a game: today's deal, or that past day in the archive. */
export function dayUrl(origin, game, date) {
  return `${origin}/play/${game}/${date}/`;
}

export { fill };
