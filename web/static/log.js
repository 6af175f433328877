// What happened: the whole game's log, newest first, week by week; what was undone is struck through.
// The live snapshot brings the newest lines; older ones come a page at a time from /api/log.
import {cardNames, fill, h, live} from "./common.js";
import {logItem, readable} from "./view.js";

const PAGE = 50;
const $ = (id) => document.getElementById(id);
const lines = new Map();  // line id -> line, every line this page has seen of the game shown
let game = undefined;
let more = false;

export const WORDS = {
  nothing: "Nothing has happened yet.",
  setup: "Setup",
  week: (n) => `Week ${n}`,
  undone: "undone",
};

function keep(list) {
  for (const line of list || []) lines.set(line.id, line);
}

function oldest() {
  return lines.size ? Math.min(...lines.keys()) : null;
}

async function earlier() {
  const before = oldest();
  const response = await fetch(`/api/log?limit=${PAGE}${before ? `&before=${before}` : ""}`);
  if (!response.ok) return;
  const page = await response.json();
  keep(page.lines);
  more = Boolean(page.more);
  draw();
}

/** One line as the log shows it: the shared entry, struck through with a word when it was undone. */
function entry(line) {
  const item = logItem(line);
  if (line.undone) {
    item.classList.add("undone");
    item.prepend(h("span", {class: "undone-tag"}, WORDS.undone));
  }
  return item;
}

function draw() {
  const newest = [...lines.values()].filter(readable).sort((a, b) => b.id - a.id);
  const weeks = [];
  for (const line of newest) {
    const week = line.week || 0;
    if (!weeks.length || weeks.at(-1).week !== week) weeks.push({week, lines: []});
    weeks.at(-1).lines.push(line);
  }
  fill($("log"), weeks.length ? weeks.map(({week, lines: said}) => h("section", {class: "week", dataset: {week}},
    h("h3", {}, week ? WORDS.week(week) : WORDS.setup),
    h("ol", {class: "log"}, said.map(entry)))) : h("p", {class: "hint"}, WORDS.nothing));
  $("earlier").hidden = !more;
}

$("earlier").addEventListener("click", earlier);

await cardNames();
live(async (snapshot) => {
  if (snapshot.game_id !== game) {  // a new game (or the first snapshot): start from its newest page
    game = snapshot.game_id;
    lines.clear();
    more = false;
    keep(snapshot.log);
    if (game !== null && game !== undefined) await earlier();
  }
  keep(snapshot.log);  // the newest lines, with what was undone since marked
  draw();
});
