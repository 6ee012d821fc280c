// A player's history summed up for the history page: win rate, the spread of
// cards home, and the weeks of the streak calendar. Pure, tested in node.
// Only ranked records count (a ranked attempt is played on its own day).

const ranked = (days, game) => days.map((d) => d[game]).filter((r) => r && r.ranked);

export function winRate(days, game) {
  const records = ranked(days, game);
  return { played: records.length, won: records.filter((r) => r.won).length };
}

export const BINS = [[52, 52], [40, 51], [26, 39], [13, 25], [0, 12]];

export function cardsHomeBins(days, game) {
  const records = ranked(days, game);
  return BINS.map(([low, high]) => ({
    label: low === high ? String(low) : `${low}\u2013${high}`,
    low, high,
    count: records.filter((r) => r.cards_home >= low && r.cards_home <= high).length,
  }));
}

const iso = (date) => date.toISOString().slice(0, 10);

/**
 * `weeks` rows of seven days, Monday first, the last row holding `today`:
 * each cell {date, kind} with kind "won" (a ranked attempt won that day),
 * "played" (a ranked attempt), "frozen" (not played, a freeze kept the
 * streak: one of the `frozen` dates the API's streak lists), or "none";
 * days after today, or before `firstDay` (the service's first deal: no day
 * to miss), are null, and weeks of nothing but those are left out.
 */
export function streakWeeks(days, today, weeks, frozen = new Set(), firstDay = null) {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const end = new Date(`${today}T00:00:00Z`);
  const monday = new Date(end);
  monday.setUTCDate(end.getUTCDate() - ((end.getUTCDay() + 6) % 7));
  const first = new Date(monday);
  first.setUTCDate(monday.getUTCDate() - 7 * (weeks - 1));
  const rows = [];
  for (let w = 0; w < weeks; w += 1) {
    const row = [];
    for (let d = 0; d < 7; d += 1) {
      const date = new Date(first);
      date.setUTCDate(first.getUTCDate() + w * 7 + d);
      // After today, or before the service's first deal: no day to show.
      if (date > end || (firstDay && iso(date) < firstDay)) {
        row.push(null);
        continue;
      }
      const day = byDate.get(iso(date));
      const records = day ? [day.cruel, day.flower].filter((r) => r && r.ranked) : [];
      const kind = records.some((r) => r.won) ? "won" : records.length ? "played"
        : frozen.has(iso(date)) ? "frozen" : "none";
      row.push({ date: iso(date), kind });
    }
    if (row.some(Boolean)) rows.push(row);
  }
  return rows;
}
