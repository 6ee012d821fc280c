// Formatting for people: durations, the countdown to the next day, percentages
// and the share text. Pure: `gettext` is Django's (identity in tests).

const identity = (text) => text;

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

/** The moment the next day starts, in the player's own time zone and language. */
export function formatLocalTime(isoWithOffset, locale, timeZone) {
  const date = new Date(isoWithOffset);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(locale, {
    weekday: "short", hour: "2-digit", minute: "2-digit", timeZone,
  }).format(date);
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

/**
 * A text to share an attempt: game, date, cards home, redeals, undos, time,
 * rank. It names no card and no move, so it gives nothing of the deal away.
 */
export function shareText({ game, date, counters, elapsedSeconds, status, rank, total }, gettext = identity) {
  const won = status === "won";
  const parts = [
    fill(gettext("Daily solitaire %(date)s"), { date }),
    `${gameName(game, gettext)} ${won ? "\u2713" : "\u2717"} ${counters.cards_home}/52`,
  ];
  if (game === "cruel") parts.push(fill(gettext("%(n)s redeals"), { n: counters.redeals }));
  parts.push(fill(gettext("%(n)s undos"), { n: counters.undos }));
  parts.push(formatDuration(elapsedSeconds));
  if (rank && total) parts.push(fill(gettext("#%(rank)s of %(total)s"), { rank, total }));
  const blocks = Math.round((counters.cards_home / 52) * 10);
  // Plain geometric shapes: they are in every font, unlike emoji.
  parts.push("\u25A0".repeat(blocks) + "\u25A1".repeat(10 - blocks));
  return parts.join(" \u00B7 ");
}

export { fill };
