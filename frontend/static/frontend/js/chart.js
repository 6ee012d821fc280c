// A line chart of cards home (0-52) per day for each game, drawn as SVG in
// the page. Pure apart from building elements through dom.js. It reads with
// one day (the point stands in the middle, the legend sits below the plot)
// and with a year (small marks, a date under the first, middle and last day).

import { s } from "./dom.js";

/** Points of a series on a chart of width x height: pure, tested in node. */
export function chartPoints(days, game, { width, height, pad }) {
  const n = days.length;
  const span = width - pad.left - pad.right;
  const step = n > 1 ? span / (n - 1) : 0;
  const y = (v) => pad.top + (height - pad.top - pad.bottom) * (1 - v / 52);
  const points = [];
  days.forEach((day, i) => {
    const record = day[game];
    const x = n > 1 ? pad.left + step * i : pad.left + span / 2;
    if (record) points.push({ x, y: y(record.cards_home), value: record.cards_home, date: day.date });
  });
  return points;
}

/** Which days get a date under the axis: the first, the last, and the middle one when there are many. */
export function labelledDays(n) {
  if (n <= 0) return [];
  if (n === 1) return [0];
  if (n < 5) return [0, n - 1];
  return [0, Math.floor((n - 1) / 2), n - 1];
}

function mark(game, x, y, r) {
  return game === "cruel"
    ? s("circle", { cx: x, cy: y, r, class: "mark--cruel" })
    : s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: "mark--flower" });
}

export function drawChart(days, { label, names, dateText = (d) => d, width = 640, height = 260 }) {
  const plotHeight = height - 36; // the legend row sits below the plot
  const pad = { left: 36, right: 16, top: 12, bottom: 28 };
  const ordered = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const y = (v) => pad.top + (plotHeight - pad.top - pad.bottom) * (1 - v / 52);
  const svg = s("svg", {
    class: "chart", viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", "aria-label": label,
    style: `max-width:${width}px`,
  });
  for (const v of [0, 13, 26, 39, 52]) {
    svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "chart__rule" }));
    svg.append(s("text", { x: 4, y: y(v) + 4 }, String(v)));
  }
  const r = ordered.length > 60 ? 2 : 4;
  const xs = chartPoints(ordered.map((d) => ({ ...d, any: { cards_home: 0 } })), "any",
    { width, height: plotHeight, pad });
  const labelled = labelledDays(ordered.length);
  labelled.forEach((i, k) => {
    const anchor = labelled.length === 1 ? "middle" : k === 0 ? "start" : k === labelled.length - 1 ? "end" : "middle";
    svg.append(s("text", { x: xs[i].x, y: plotHeight - 8, "text-anchor": anchor }, dateText(ordered[i].date)));
  });
  ["cruel", "flower"].forEach((game, i) => {
    const points = chartPoints(ordered, game, { width, height: plotHeight, pad });
    if (points.length > 1) {
      svg.append(s("polyline", {
        class: `line--${game}`, fill: "none", "stroke-width": ordered.length > 60 ? 1.5 : 2.5,
        points: points.map((p) => `${p.x},${p.y}`).join(" "),
      }));
    }
    for (const p of points) {
      const m = mark(game, p.x, p.y, r);
      m.append(s("title", {}, `${names[game]}, ${dateText(p.date)}: ${p.value}/52`));
      svg.append(m);
    }
    const lx = pad.left + 10 + i * 180;
    const ly = height - 12;
    svg.append(mark(game, lx, ly - 4, 4));
    svg.append(s("text", { x: lx + 10, y: ly }, names[game]));
  });
  return svg;
}
