// TV mode: large type cycling between the League and each club; an attract screen when no game runs.
import {fill, h, live, nameOf} from "./common.js";
import {finalScoring, league, scoreOf, status} from "./view.js";

const CYCLE_MS = 12000;
let latest = null;
let slide = 0;

function slides(game) {
  if (!game) return [];
  const out = [() => [h("h1", {}, "League table"), status(game), league(game)]];
  if (game.final) out.unshift(() => [finalScoring(game)]);
  for (const c of game.clubs || []) {
    out.push(() => [h("h1", {}, nameOf(c), h("small", {}, ` seat ${c.seat}`)),
      h("div", {class: "tvgrid"},
        Object.entries(c.resources || {}).map(([k, v]) => h("div", {class: "tile"}, h("b", {}, v), h("span", {}, k))),
        h("div", {class: "tile"}, h("b", {}, scoreOf(game, c.seat)?.total ?? c.vp_tokens ?? 0), h("span", {}, "VP so far")),
        h("div", {class: "tile"}, h("b", {}, c.league_points ?? 0), h("span", {}, "League points")))]);
  }
  return out;
}

function attract() {
  return [h("h1", {}, "Touchline"),
    h("p", {class: "big"}, "A table of Eleven, the football-manager board game, with its bookkeeping done for you."),
    h("ol", {class: "steps"},
      h("li", {}, "Open this table's page on a phone (same Wi-Fi): ", h("b", {}, location.host)),
      h("li", {}, "Go to Admin, enter the PIN printed when the table started, and start a new game."),
      h("li", {}, "Tap Board meeting cards on your pad and press your button to roll."))];
}

function draw() {
  const box = document.getElementById("tv");
  const game = latest?.game;
  const all = slides(game);
  if (!all.length) { fill(box, attract()); box.dataset.slide = "attract"; return; }
  slide %= all.length;
  fill(box, all[slide]());
  box.dataset.slide = String(slide);
}

document.body.classList.add("tvmode");
live((snapshot) => { latest = snapshot; draw(); });
setInterval(() => { slide += 1; draw(); }, CYCLE_MS);
