// Line charts of League points and each resource over the weeks played, drawn as inline SVG, each club in its seat's
// colour (the table file's, as the TV and the League table draw it).
import {fill, h, live, seatColour, words} from "./common.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** One chart: a line per club of one measure over the weeks. */
function chart(measure, history, clubs) {
  const W = 320, H = 160, L = 28, B = 22, T = 8, R = 8;
  const weeks = history.map((h) => h.week);
  const values = history.flatMap((h) => Object.values(h.clubs || {}).map((c) => c[measure] ?? 0));
  const max = Math.max(1, ...values), min = Math.min(0, ...values);
  const x = (i) => L + (weeks.length < 2 ? (W - L - R) / 2 : (i * (W - L - R)) / (weeks.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - min) / (max - min || 1));
  const plot = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${words(measure)} by week`, class: "chart"});
  plot.append(svg("line", {x1: L, y1: y(min), x2: W - R, y2: y(min), class: "axis"}));
  plot.append(svg("text", {x: 2, y: y(max) + 4, class: "tick"}, max), svg("text", {x: 2, y: y(min), class: "tick"}, min));
  weeks.forEach((w, i) => plot.append(svg("text", {x: x(i) - 3, y: H - 6, class: "tick"}, w)));
  clubs.forEach((seat) => {
    const pts = history.map((h, i) => [x(i), y((h.clubs?.[seat] || {})[measure] ?? 0)]);
    const colour = seatColour(seat);
    plot.append(svg("polyline", {points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: colour, "stroke-width": 2,
      "data-seat": seat}));
    pts.forEach(([px, py]) => plot.append(svg("circle", {cx: px, cy: py, r: 3, fill: colour})));
  });
  return h("figure", {class: "chartbox"}, h("figcaption", {}, words(measure)), plot);
}

/** The weeks whose Matchday has been played: a week is a point of the charts once it is over, not from its Monday. */
function played(history, game) {
  if (!game) return history;
  const over = ["end_of_round", "final_scoring", "over"].includes(game.stage);
  return history.filter((w) => w.week < game.week || (w.week === game.week && over));
}

live((snapshot) => {
  const history = played(snapshot.history || [], snapshot.game);
  const box = document.getElementById("charts");
  if (!history.length) { fill(box, h("p", {class: "hint"}, "The charts appear once the first week has been played.")); return; }
  const clubs = [...new Set(history.flatMap((w) => Object.keys(w.clubs || {})))].sort();
  const names = Object.fromEntries((snapshot.game?.clubs || []).map((c) => [String(c.seat), c.name]));
  const measures = [...new Set(history.flatMap((w) => Object.values(w.clubs || {}).flatMap(Object.keys)))];
  measures.sort((a, b) => (a === "points" ? -1 : b === "points" ? 1 : 0));
  const legend = h("ul", {class: "legend"}, clubs.map((seat) => h("li", {dataset: {seat}},
    h("span", {class: "swatch", style: `background:${seatColour(seat)}`}), names[seat] || `Seat ${seat}`)));
  fill(box, legend, measures.map((m) => chart(m, history, clubs)));
});
