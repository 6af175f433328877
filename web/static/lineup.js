// The lineup editor: jersey markers and Player cards into the nine zones, the rulebook's limits enforced as you place.
import {fill, h, live, nameOf, post, say, session, words} from "./common.js";
import {logItem, zones as zoneTable} from "./view.js";

const $ = (id) => document.getElementById(id);
const SECTIONS = ["fwd", "mid", "def"];  // drawn top to bottom: attacking upwards
const SIDES = ["left", "centre", "right"];
// The rulebook's limits (base game, "Prepare for the match"); a snapshot may carry the profile's own.
const LIMITS = {central: 3, wing: 1, sections: {def: 5, mid: 5, fwd: 3}, total: 10};
const MARKERS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

export const SENTENCES = {
  zoneFull: (zone, n) => `${words(zone)} is full: ${n === 1 ? "a wing takes 1 marker" : `a central zone takes ${n} markers`}.`,
  sectionFull: (section, n) => `No more ${{def: "Defenders", mid: "Midfielders", fwd: "Forwards"}[section]}: at most ${n}.`,
  teamFull: "Ten outfield jerseys are on the pitch already: take one back first.",
  duplicate: (n) => `Jersey #${n} is on the pitch already: two players cannot wear the same number in one match.`,
  unavailable: (p) => `${nameOf(p)} cannot play: ${p.injury ? "injured" : "suspended"}.`,
  pickFirst: "Pick a marker or a Player from the bench first.",
};

let latest = null;
let seat = null;
let chosen = null;        // a bench item waiting for a zone
let placed = [];          // {zone, jersey, card, style, name, strength}

function club() { return (latest?.game?.clubs || []).find((c) => c.seat === seat); }

function limits() { return latest?.game?.lineup_limits || LIMITS; }

/** Why this item cannot go into this zone now, or "" when it can. */
export function refusal(item, zone, onPitch, lim = LIMITS) {
  const [section, side] = zone.split("_");
  const inZone = onPitch.filter((p) => p.zone === zone).length;
  const cap = side === "centre" ? lim.central : lim.wing;
  if (onPitch.length >= lim.total) return SENTENCES.teamFull;
  if (inZone >= cap) return SENTENCES.zoneFull(zone, cap);
  if (onPitch.filter((p) => p.zone.startsWith(section)).length >= lim.sections[section]) return SENTENCES.sectionFull(section, lim.sections[section]);
  if (item.jersey !== null && onPitch.some((p) => p.jersey === item.jersey)) return SENTENCES.duplicate(item.jersey);
  return "";
}

function benchItems() {
  const c = club();
  const players = (c?.players || []).map((p) => ({kind: "card", jersey: p.jersey ?? null, card: p.id, style: p.style || "attack",
    name: nameOf(p), strength: p.strength ?? 1, out: p.injury || p.suspension ? p : null}));
  const markers = MARKERS.map((n) => ({kind: "marker", jersey: n, card: null, style: "attack", name: `#${n}`, strength: 1}));
  const blanks = [0, 1, 2].map((i) => ({kind: "blank", id: `blank${i}`, jersey: null, card: null, style: "attack", name: "blank", strength: 1}));
  return [...players, ...markers, ...blanks];
}

const key = (item) => item.card || (item.jersey !== null ? `m${item.jersey}` : item.id);

function drawPitch() {
  const lim = limits();
  fill($("pitch"), SECTIONS.flatMap((section) => SIDES.map((side) => {
    const zone = `${section}_${side}`;
    const here = placed.filter((p) => p.zone === zone);
    return h("div", {class: `zone ${side === "centre" ? "central" : "wing"}`, dataset: {zone}, role: "button", tabindex: 0,
      "aria-label": words(zone), onclick: () => put(zone)},
    h("span", {class: "zname"}, words(zone), h("small", {}, ` ${here.length}/${side === "centre" ? lim.central : lim.wing}`)),
    here.map((p) => h("button", {type: "button", class: `token ${p.style}${p.card ? " card" : ""}`, dataset: {key: key(p)},
      title: "Take back", onclick: (e) => { e.stopPropagation(); takeBack(p); }},
    p.jersey ?? "·", h("small", {}, p.card ? ` ${p.name}` : ""), p.style === "attack" ? " ⚽" : " 🛡")));
  })));
  const count = (s) => placed.filter((p) => p.zone.startsWith(s)).length;
  $("counts").textContent = `On the pitch ${placed.length}/${lim.total} · Def ${count("def")}/${lim.sections.def} · Mid ${count("mid")}/${lim.sections.mid} · Fwd ${count("fwd")}/${lim.sections.fwd}`;
  const cost = placed.filter((p) => p.card).length;
  const have = club()?.resources?.fitness;
  $("fitness").textContent = `Fitness cost: ${cost}${have !== undefined ? ` of ${have} available` : ""}`;
  $("fitness").dataset.kind = have !== undefined && cost > have ? "error" : "ok";
  $("resolve").disabled = placed.length !== lim.total || (have !== undefined && cost > have);
}

function drawBench() {
  const used = new Set(placed.map(key));
  const usedNumbers = new Set(placed.map((p) => p.jersey).filter((n) => n !== null));
  fill($("bench"), benchItems().filter((item) => !used.has(key(item))).map((item) => h("button", {type: "button",
    class: `token ${item.style} ${item.kind}${chosen && key(chosen) === key(item) ? " chosen" : ""}${item.out ? " out" : ""}${item.jersey !== null && usedNumbers.has(item.jersey) ? " clash" : ""}`,
    dataset: {key: key(item)}, onclick: () => choose(item)},
  item.jersey ?? "·", item.kind === "card" ? h("small", {}, ` ${item.name} (${item.strength})`) : "",
  item.out ? h("small", {}, item.out.injury ? " injured" : " suspended") : "")));
  if (chosen) {
    fill($("lineup-msg"));
    const side = h("span", {class: "sidepick"}, "Side: ",
      ["attack", "defence"].map((s) => h("button", {type: "button", class: `quiet${chosen.style === s ? " on" : ""}`, dataset: {style: s},
        onclick: () => { chosen.style = s; drawBench(); }}, s === "attack" ? "⚽ attack" : "🛡 defence")));
    $("bench").prepend(h("p", {class: "chosen-line"}, `Placing ${chosen.kind === "card" ? chosen.name : `marker ${chosen.name}`} — tap a zone. `, side));
  }
}

function choose(item) {
  if (item.out) { say($("lineup-msg"), SENTENCES.unavailable(item.out), false); return; }
  chosen = {...item};
  say($("lineup-msg"), "");
  drawBench();
}

function put(zone) {
  if (!chosen) { say($("lineup-msg"), SENTENCES.pickFirst, false); return; }
  const why = refusal(chosen, zone, placed, limits());
  if (why) { say($("lineup-msg"), why, false); return; }
  placed.push({...chosen, zone});
  chosen = null;
  say($("lineup-msg"), "");
  draw();
}

function takeBack(p) { placed = placed.filter((q) => q !== p); draw(); }

function draw() { drawPitch(); drawBench(); }

$("clear").addEventListener("click", () => { placed = []; chosen = null; draw(); });

$("resolve").addEventListener("click", async () => {
  const r = await post("/api/actions/lineup", {seat, placements: placed.map((p) => ({zone: p.zone, jersey: p.jersey, card: p.card, style: p.style}))});
  if (!r.ok) { say($("lineup-msg"), r.message, false); return; }
  say($("lineup-msg"), "Lineup recorded and the match resolved.", true);
  const result = r.data?.result || {};
  const match = (latest?.log || []).filter((a) => a.seat === seat && a.zones).at(-1);
  fill($("breakdown"), h("h3", {}, "The match"),
    result.score ? h("p", {class: "big"}, `${result.score[0]}–${result.score[1]} ${result.result ? `(${result.result})` : ""}`) : null,
    Array.isArray(result.zones) ? zoneTable(result.zones) : match ? h("ol", {class: "log"}, logItem(match)) : null);
});

$("seat").addEventListener("change", () => { seat = Number($("seat").value); placed = []; chosen = null; draw(); });

live((snapshot) => {
  latest = snapshot;
  const clubs = snapshot.game?.clubs || [];
  if (!clubs.some((c) => c.seat === seat)) {
    const waiting = (snapshot.game?.awaiting || []).find((a) => a.need === "lineup");
    seat = waiting?.seat ?? clubs[0]?.seat ?? null;
  }
  fill($("seat"), clubs.map((c) => h("option", {value: c.seat, selected: c.seat === seat}, `${c.seat}: ${nameOf(c)}`)));
  draw();
});
session().then((s) => { $("lineup-locked").hidden = s.unlocked; });
