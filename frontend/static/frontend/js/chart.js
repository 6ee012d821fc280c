// A line chart of cards home (0-52) per day for each game, drawn as SVG in
// the page. Pure apart from building elements through dom.js.

import { s } from "./dom.js";

/** Points of a series on a chart of width x height: pure, tested in node. */
export function chartPoints(days, game, { width, height, pad }) {
  const n = days.length;
  const step = n > 1 ? (width - pad.left - pad.right) / (n - 1) : 0;
  const y = (v) => pad.top + (height - pad.top - pad.bottom) * (1 - v / 52);
  const points = [];
  days.forEach((day, i) => {
    const record = day[game];
    if (record) points.push({ x: pad.left + step * i, y: y(record.cards_home), value: record.cards_home, date: day.date });
  });
  return points;
}

export function drawChart(days, { label, names, width = 640, height = 240 }) {
  const pad = { left: 36, right: 12, top: 12, bottom: 28 };
  const ordered = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const y = (v) => pad.top + (height - pad.top - pad.bottom) * (1 - v / 52);
  const svg = s("svg", {
    class: "chart", viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label,
  });
  for (const v of [0, 13, 26, 39, 52]) {
    svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), stroke: "#ddd" }));
    svg.append(s("text", { x: 4, y: y(v) + 4 }, String(v)));
  }
  if (ordered.length) {
    svg.append(s("text", { x: pad.left, y: height - 8 }, ordered[0].date));
    svg.append(s("text", { x: width - pad.right, y: height - 8, "text-anchor": "end" }, ordered.at(-1).date));
  }
  ["cruel", "flower"].forEach((game, i) => {
    const points = chartPoints(ordered, game, { width, height, pad });
    if (points.length > 1) {
      svg.append(s("polyline", {
        class: `line--${game}`, fill: "none", "stroke-width": 2.5,
        points: points.map((p) => `${p.x},${p.y}`).join(" "),
      }));
    }
    for (const p of points) {
      const mark = game === "cruel"
        ? s("circle", { cx: p.x, cy: p.y, r: 4, fill: "#004fa3" })
        : s("rect", { x: p.x - 4, y: p.y - 4, width: 8, height: 8, fill: "#a34700" });
      mark.append(s("title", {}, `${names[game]} ${p.date}: ${p.value}/52`));
      svg.append(mark);
    }
    const lx = pad.left + 10 + i * 160;
    svg.append(game === "cruel"
      ? s("circle", { cx: lx, cy: pad.top + 6, r: 4, fill: "#004fa3" })
      : s("rect", { x: lx - 4, y: pad.top + 2, width: 8, height: 8, fill: "#a34700" }));
    svg.append(s("text", { x: lx + 10, y: pad.top + 10 }, names[game]));
  });
  return svg;
}
