// TV mode: a shop's TV across the room (1920×1080 or 1280×720). One slide at a time, filling the screen: the final
// scoring once the game is over, the League table, the Matchday scores while they come in, then each club. Every row
// is in view: a slide's body is sized to fit the screen, and one too long even at the smallest readable size scrolls
// by itself. An attract screen says how to start when no game runs.
import {fill, h, live, nameOf} from "./common.js";
import {clubMatches, finalScoring, league, scoreOf, seatColour, status} from "./view.js";

const CYCLE_MS = 12000;
const SCROLL_PAUSE_MS = 2500;
/** The body's type, as a share of the screen's height: largest tried first, smallest still read across a shop. */
const LARGEST = 0.08;
const SMALLEST = 0.03;
/** Never smaller than this many pixels, whatever the screen: below it a slide scrolls instead. */
const SMALLEST_PX = 20;
const RESOURCES = [["budget", "Budget"], ["fanbase", "Fanbase"], ["operation", "Operation"], ["fitness", "Fitness"]];
let latest = null;
let slide = 0;
let scroller = null;

function slideBox(title, body, extra = null) {
  // While ``touchline demo`` plays, a banner says how to take the table over (the words come with the snapshot).
  const demo = latest?.demo?.playing ? h("p", {class: "tvdemo", id: "tvdemo"}, latest.demo.banner) : null;
  return [h("header", {class: "tvhead"}, title, extra), h("div", {class: "tvbody"}, h("div", {class: "tvfit"}, body)), demo];
}

function statusLine(game) {
  const [when] = status(game);
  return h("p", {class: "tvstatus"}, when?.textContent || "");
}

function played(game) {
  return (game?.clubs || []).filter((c) => c.match?.result);
}

function results(game) {
  const rows = (game.clubs || []).map((c) => h("tr", {class: "clubrow", dataset: {seat: c.seat}, style: `--seat:${seatColour(c.seat)}`},
    h("td", {}, nameOf(c)),
    c.match?.result ? [h("td", {class: "n score"}, `${c.match.goals}–${c.match.conceded}`), h("td", {}, nameOf(c.opponent))]
      : [h("td", {class: "n score"}, "–"), h("td", {class: "muted"}, "to play")]));
  return h("table", {class: "results"}, h("tbody", {}, rows));
}

function clubTiles(game, c) {
  const row = (game.league || []).find((r) => r.seat === c.seat);
  const tiles = RESOURCES.map(([key, word]) => [c.resources?.[key] ?? 0, word]);
  tiles.push([scoreOf(game, c.seat)?.total ?? c.vp_tokens ?? 0, "VP so far"], [c.league_points ?? 0, "League points"]);
  if (row) tiles.push([row.position, "League position"]);
  tiles.push([c.match?.result ? `${c.match.goals}–${c.match.conceded}` : nameOf(c.opponent) || "—",
    c.match?.result ? `against ${nameOf(c.opponent)}` : "this week's Opponent"]);
  return h("div", {class: "tvgrid"}, tiles.map(([value, word]) => h("div", {class: "tile"}, h("b", {}, value), h("span", {}, word))));
}

function slides(game) {
  if (!game) return [];
  const out = [() => slideBox(h("h1", {}, "League table"), league(game), statusLine(game))];
  if (game.final) out.unshift(() => slideBox(h("h1", {}, "Final scoring"), finalScoring(game)));
  if (game.stage === "matchday" && played(game).length) {
    out.splice(out.length, 0, () => slideBox(h("h1", {}, `Week ${game.week} results`), results(game), statusLine(game)));
  }
  const matches = clubMatches(game);
  if (matches && game.stage === "club_match") {
    out.splice(out.length, 0, () => slideBox(h("h1", {}, `Week ${game.week}: matches between clubs`), matches.slice(1), statusLine(game)));
  }
  for (const c of game.clubs || []) {
    out.push(() => slideBox(h("h1", {style: `--seat:${seatColour(c.seat)}`, class: "clubtitle"}, nameOf(c), h("small", {}, ` seat ${c.seat}`)),
      clubTiles(game, c), statusLine(game)));
  }
  return out;
}

function attract() {
  // After a demo someone stopped, the table is theirs: say so first.
  const handedOver = latest?.demo && !latest.demo.playing;
  return slideBox(h("h1", {}, handedOver ? latest.demo.offer : "Touchline"), [
    h("p", {class: "big"}, "A table of Eleven, the football-manager board game, with its bookkeeping done for you."),
    h("ol", {class: "steps"},
      h("li", {}, "Open this table's page on a phone (same Wi-Fi): ", h("b", {}, location.host)),
      h("li", {}, "Go to Admin, enter the PIN printed when the table started, and start a new game."),
      h("li", {}, "Tap Board meeting cards on your pad and press your button to roll."))]);
}

/** Size the slide's body to fill the space under its title: the largest type that fits, else the smallest, scrolling. */
function fit(box) {
  const body = box.querySelector(".tvbody");
  const inner = box.querySelector(".tvfit");
  if (!body || !inner) return;
  const screen = window.innerHeight;
  const smallest = Math.max(SMALLEST_PX, screen * SMALLEST);
  let px = Math.max(smallest, screen * LARGEST);
  for (; px >= smallest; px -= Math.max(1, screen * 0.002)) {
    inner.style.fontSize = `${Math.round(px)}px`;
    if (inner.scrollHeight <= body.clientHeight && inner.scrollWidth <= body.clientWidth) break;
  }
  if (px < smallest) inner.style.fontSize = `${Math.round(smallest)}px`;
  body.dataset.scrolls = String(inner.scrollHeight > body.clientHeight);
  roll(body);
}

/** A body too long for the screen scrolls down slowly, waits, and starts again from the top. */
function roll(body) {
  if (scroller) clearInterval(scroller);
  scroller = null;
  body.scrollTop = 0;
  if (body.dataset.scrolls !== "true") return;
  let waitUntil = Date.now() + SCROLL_PAUSE_MS;
  scroller = setInterval(() => {
    if (Date.now() < waitUntil) return;
    const end = body.scrollHeight - body.clientHeight;
    if (body.scrollTop >= end - 1) { body.scrollTop = 0; waitUntil = Date.now() + SCROLL_PAUSE_MS; return; }
    body.scrollTop = Math.min(end, body.scrollTop + Math.max(1, Math.round(body.clientHeight / 200)));
    if (body.scrollTop >= end - 1) waitUntil = Date.now() + SCROLL_PAUSE_MS;
  }, 40);
}

function draw() {
  const box = document.getElementById("tv");
  const game = latest?.game;
  const all = slides(game);
  if (!all.length) {
    fill(box, attract());
    box.dataset.slide = "attract";
  } else {
    slide %= all.length;
    fill(box, all[slide]());
    box.dataset.slide = String(slide);
  }
  fit(box);
}

document.body.classList.add("tvmode");
live((snapshot) => { latest = snapshot; draw(); });
setInterval(() => { slide += 1; draw(); }, CYCLE_MS);
window.addEventListener("resize", () => fit(document.getElementById("tv")));
