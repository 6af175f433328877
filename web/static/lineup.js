// The lineup editor: jersey markers and Player cards into the nine zones, the rulebook's limits enforced as you place.
import {cardName, cardNames, fill, h, live, nameOf, post, say, session, words} from "./common.js";
import {logItem, side as badge} from "./view.js";

const $ = (id) => document.getElementById(id);
const SECTIONS = ["fwd", "mid", "def"];  // drawn top to bottom: attacking upwards
const SIDES = ["left", "centre", "right"];
const SECTION_WORDS = {def: "Defenders", mid: "Midfielders", fwd: "Forwards"};
// The base game's limits ("Prepare for the match"); replaced by the board profile's from /api/rules.
let limits = {wing: 1, central: 3, sections: {def: 5, mid: 5, fwd: 3}, total: 10, jerseys: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], blanks: 3};

export const SENTENCES = {
  zoneFull: (zone, n) => `${words(zone)} is full: ${n === 1 ? "a wing takes 1 jersey" : `a central zone takes ${n} jerseys`}.`,
  sectionFull: (section, n) => `No more ${SECTION_WORDS[section]}: at most ${n}.`,
  teamFull: (n) => `${n} outfield jerseys are on the pitch already: take one back first.`,
  duplicate: (n) => `Jersey #${n} is on the pitch already: two players cannot wear the same number in one match.`,
  noBlank: (n) => `All ${n} blank jersey markers are in use.`,
  wrongSection: (name, sections) => `${name} plays only as ${sections.map((s) => SECTION_WORDS[s]).join(" or ")}.`,
  unavailable: (name, why) => `${name} cannot play: ${why}.`,
  pickFirst: "Pick a Player or a jersey marker from the bench first.",
  cannotFill: "The jersey markers left cannot fill the pitch within the limits: take one back or place a Player.",
  standsFull: (n) => `The club has ${n} Stands: at most ${n} Fanbase can sit there.`,
  secondHalf: "Second half: the same jersey markers, in the zones you choose now.",
  arranged: (half) => `Arranged in secret for the ${half === 2 ? "second" : "first"} half: the other club sees it when both have arranged.`,
};
let standsRule = {board: 2, infrastructure: {}};

/** The club's Stands: those printed on the board plus those its Infrastructure adds. */
export function standsOf(c, rule = standsRule) {
  return rule.board + (c?.infrastructure || []).reduce((n, i) => n + (rule.infrastructure[i.kind] || 0), 0);
}

let latest = null;
let seat = null;
let chosen = null;        // a bench item waiting for a zone
let placed = [];          // bench items with a zone

function club() { return (latest?.game?.clubs || []).find((c) => c.seat === seat); }
/** What the engine awaits when this seat arranges its jersey markers in secret for a half of a match between clubs. */
function arranging() { return (latest?.game?.awaiting || []).find((a) => a.seat === seat && a.need === "arrange"); }
/** The seat's match between clubs this week, when it plays one (the League matches between clubs module). */
function fixture() {
  return (latest?.game?.modules?.club_matches?.fixtures || []).find((f) => f.host === seat || f.visitor === seat);
}

/** Why this item cannot go into this zone now, or "" when it can. */
export function refusal(item, zone, onPitch, lim = limits) {
  const [section, side] = zone.split("_");
  const cap = side === "centre" ? lim.central : lim.wing;
  if (onPitch.length >= lim.total) return SENTENCES.teamFull(lim.total);
  if (item.sections && !item.sections.includes(section)) return SENTENCES.wrongSection(item.name, item.sections);
  if (onPitch.filter((p) => p.zone === zone).length >= cap) return SENTENCES.zoneFull(zone, cap);
  const inSection = onPitch.filter((p) => p.zone.startsWith(`${section}_`)).length;
  if (inSection >= lim.sections[section]) return SENTENCES.sectionFull(section, lim.sections[section]);
  if (item.jersey !== null && onPitch.some((p) => p.jersey === item.jersey)) return SENTENCES.duplicate(item.jersey);
  if (item.jersey === null && onPitch.filter((p) => p.jersey === null).length >= lim.blanks) return SENTENCES.noBlank(lim.blanks);
  return "";
}

function benchItems() {
  const players = club()?.players || [];
  const cards = players.map((p) => ({kind: "card", key: p.id, card: p.id, name: nameOf(p), style: p.style || "attack",
    jersey: limits.jerseys.includes(p.jersey) ? p.jersey : null, number: p.jersey, sections: p.sections || null,
    strength: p.strength ?? 1, out: p.injury ? "injured" : p.suspension ? "suspended" : ""}));
  // A numbered marker whose every card is out cannot play either (the rulebook's note on injuries).
  const outNumbers = new Set(players.filter((p) => p.injury || p.suspension).map((p) => p.jersey));
  for (const p of players) if (!p.injury && !p.suspension) outNumbers.delete(p.jersey);
  // A numbered marker shows the side the table last recorded; only a card of its number flips it.
  // A marker the table has not seen yet starts on a side the engine says keeps the setup's half attack, half defence.
  const shown = club()?.markers || {};
  const unseen = club()?.markers_unseen || {};
  const markers = limits.jerseys.map((n) => ({kind: "marker", key: `m${n}`, card: null, name: `#${n}`,
    style: shown[n] ?? unseen[n] ?? "defence", fixed: n in shown,
    jersey: n, sections: null, strength: 1, out: outNumbers.has(n) ? `its player is ${players.find((p) => p.jersey === n && (p.injury || p.suspension))?.injury ? "injured" : "suspended"}` : ""}));
  const blanks = Array.from({length: limits.blanks}, (_, i) => ({kind: "blank", key: `b${i}`, card: null, name: "blank",
    style: "attack", jersey: null, sections: null, strength: 1, out: ""}));
  return [...cards, ...markers, ...blanks];
}

const RESOURCES = ["budget", "fanbase", "operation", "fitness"];
let assigned = {};        // card id -> {resource: n}, for the Player cards' match actions

/** Inputs to put resources on each Player card that plays (its actions before, during or after the match). */
function drawAssign() {
  const cards = placed.filter((p) => p.card);
  for (const id of Object.keys(assigned)) if (!cards.some((p) => p.card === id)) delete assigned[id];
  if (!cards.length || club()?.match?.lineup || arranging()?.half === 2) { fill($("assign")); return; }
  fill($("assign"), h("details", {}, h("summary", {}, "Resources for the Players' actions (optional)"),
    cards.map((p) => h("div", {class: "row wrap", dataset: {card: p.card}}, h("b", {}, p.name),
      RESOURCES.map((r) => h("label", {class: "inline"}, `${r} `, h("input", {type: "number", min: 0, max: 10,
        value: assigned[p.card]?.[r] ?? 0, "aria-label": `${r} on ${p.name}`, oninput: (e) => {
          const n = Math.max(0, Number(e.target.value) || 0);
          assigned[p.card] = {...(assigned[p.card] || {}), [r]: n};
          drawPitch();
        }})))))));
}

function extra(resource) {
  return Object.values(assigned).reduce((sum, res) => sum + (res[resource] || 0), 0);
}

function drawPitch() {
  fill($("pitch"), SECTIONS.flatMap((section) => SIDES.map((side) => {
    const zone = `${section}_${side}`;
    const here = placed.filter((p) => p.zone === zone);
    const cap = side === "centre" ? limits.central : limits.wing;
    return h("div", {class: `zone ${side === "centre" ? "central" : "wing"}`, dataset: {zone}, role: "button", tabindex: 0,
      "aria-label": words(zone), onclick: () => put(zone), onkeydown: (e) => { if (e.key === "Enter") put(zone); }},
    h("span", {class: "zname"}, words(zone), h("small", {}, ` ${here.length}/${cap}`)),
    here.map((p) => h("button", {type: "button", class: `token ${p.style}${p.card ? " card" : ""}`, dataset: {key: p.key},
      title: "Take back", onclick: (e) => { e.stopPropagation(); takeBack(p); }},
    p.jersey ?? "·", p.card ? h("small", {}, ` ${p.name}`) : "", badge(p.style))));
  })));
  const count = (s) => placed.filter((p) => p.zone.startsWith(`${s}_`)).length;
  $("counts").textContent = `On the pitch ${placed.length}/${limits.total} · ` +
    ["def", "mid", "fwd"].map((s) => `${SECTION_WORDS[s]} ${count(s)}/${limits.sections[s]}`).join(" · ");
  const c = club();
  const cost = placed.filter((p) => p.card).length + extra("fitness");
  const fitness = c?.resources?.fitness;
  const fanbase = c?.resources?.fanbase;
  const capacity = standsOf(c);
  $("stands").max = capacity;
  const onStands = Number($("stands").value) || 0;
  const stands = onStands + extra("fanbase");
  const secondHalf = arranging()?.half === 2;
  $("fitness").textContent = secondHalf ? SENTENCES.secondHalf : c?.match?.lineup
    ? `Recorded: ${cost} Fitness paid, ${c.match.stands ?? 0} Fanbase on the Stands.`
    : `Fitness cost: ${cost}${fitness !== undefined ? ` of ${fitness}` : ""} · Fanbase cost: ${stands}${fanbase !== undefined ? ` of ${fanbase}` : ""}`;
  if (!c?.match?.lineup && !secondHalf && onStands > capacity) {
    $("fitness").textContent = SENTENCES.standsFull(capacity);
    $("fitness").dataset.kind = "error";
    $("record").disabled = true;
    return;
  }
  const short = (fitness !== undefined && cost > fitness) || (fanbase !== undefined && stands > fanbase)
    || ["budget", "operation"].some((r) => c?.resources?.[r] !== undefined && extra(r) > c.resources[r]);
  $("fitness").dataset.kind = short ? "error" : "ok";
  $("record").disabled = placed.length !== limits.total || (short && !secondHalf) || !c || (c.match?.lineup && !secondHalf);
}

function drawBench() {
  const used = new Set(placed.map((p) => p.key));
  const numbers = new Set(placed.map((p) => p.jersey).filter((n) => n !== null));
  const items = benchItems().filter((item) => !used.has(item.key));
  const line = chosen ? h("p", {class: "chosen-line"}, `Placing ${chosen.kind === "card" ? chosen.name : `marker ${chosen.name}`} — tap a zone. `,
    chosen.kind === "card" ? "" : chosen.fixed ? h("span", {class: "sidepick"}, `Shows ${chosen.style} (only a card with its number flips it).`)
    : h("span", {class: "sidepick"}, "Side: ", ["attack", "defence"].map((s) => h("button", {type: "button",
      class: `quiet${chosen.style === s ? " on" : ""}`, dataset: {style: s}, onclick: () => { chosen.style = s; drawBench(); }},
    s === "attack" ? "Attack" : "Defence")))) : null;
  fill($("bench"), line, h("h3", {}, "Players"), items.filter((i) => i.kind === "card").map((i) => token(i, numbers)),
    h("h3", {}, "Jersey markers (Strength 1)"), items.filter((i) => i.kind !== "card").map((i) => token(i, numbers)));
}

function token(item, numbers = new Set()) {
  return h("button", {type: "button", dataset: {key: item.key},
    class: `token ${item.style} ${item.kind}${chosen?.key === item.key ? " chosen" : ""}${item.out ? " out" : ""}${item.jersey !== null && numbers.has(item.jersey) ? " clash" : ""}`,
    onclick: () => choose(item)},
  item.kind === "card" ? (item.number ?? "·") : item.jersey ?? "·",
  item.kind === "card" ? h("small", {}, ` ${item.name} (${item.strength})`) : "", badge(item.style),
  item.out ? h("small", {}, ` ${item.out}`) : "");
}

function choose(item) {
  if (item.out) { say($("lineup-msg"), SENTENCES.unavailable(item.name, item.out), false); return; }
  chosen = {...item};
  say($("lineup-msg"), "");
  drawBench();
}

function put(zone) {
  if (!chosen) { say($("lineup-msg"), SENTENCES.pickFirst, false); return; }
  const why = refusal(chosen, zone, placed);
  if (why) { say($("lineup-msg"), why, false); return; }
  placed.push({...chosen, zone});
  chosen = null;
  say($("lineup-msg"), "");
  draw();
}

function takeBack(p) { placed = placed.filter((q) => q !== p); draw(); }

function draw() { drawPitch(); drawBench(); drawAssign(); drawMatchday(); }

function drawMatchday() {
  const c = club();
  const box = $("matchday");
  const f = fixture();
  if (c && f) { fill(box, h("p", {class: "hint", id: "club-match-step"}, clubMatchStep(f))); if (c.match?.result) showResult(); return; }
  if (!c || !c.match?.lineup) { fill(box); return; }
  if (c.match.result) { fill(box, h("p", {class: "big"}, `Played: ${c.match.goals}–${c.match.conceded} (${c.match.result}).`)); showResult(); return; }
  const tactics = c.tactics || [];
  fill(box, h("p", {class: "ok"}, "Lineup recorded."),
    tactics.length && !c.match.tactic ? h("div", {class: "row wrap"}, h("label", {}, "Tactic card (optional) ",
      h("select", {id: "tactic"}, tactics.map((t) => h("option", {value: t}, cardName(t))))),
    h("button", {type: "button", id: "play-tactic", onclick: async () => {
      const r = await post("/api/actions/tactic", {seat, card: $("tactic").value});
      say($("lineup-msg"), r.ok ? "Tactic played." : r.message, r.ok);
    }}, "Play it")) : null,
    h("button", {type: "button", id: "kickoff", class: "primary", onclick: async () => {
      const r = await post("/api/actions/kickoff", {seat});
      say($("lineup-msg"), r.ok ? "The match is resolved." : r.message, r.ok);
    }}, "Kick off"));
}

/** Where this seat's match between clubs stands, from the engine's public view of it. */
function clubMatchStep(f) {
  const other = f.host === seat ? f.visitor : f.host;
  const role = f.host === seat ? "Host" : "Visitor";
  const half = f.half === 2 ? "second half" : "first half";
  if (f.step === "played") return `Played against Seat ${other}: see the breakdown on the Table page.`;
  if (f.step === "arrange") return `${role} against Seat ${other}, ${half}: arrange your jersey markers below and record them (secret until both have).`;
  if (f.step === "formation") return `${role} against Seat ${other}, ${half}: Seat ${f.declarer} declares its formation first (its button, or the Play page).`;
  return `${role} against Seat ${other}, ${half}: follow the Play page (abilities, ready for the half, the tie-break).`;
}

function showResult() {
  const result = (latest?.log || []).filter((a) => a.seat === seat && a.kind === "result").at(-1);
  fill($("breakdown"), result ? [h("h3", {}, "The match, zone by zone"), h("ol", {class: "log"}, logItem(result))] : null);
}

/** Complete the lineup: the club's fit Player cards first (as far as its Fitness pays for them), then plain
 * jersey markers, section by section towards the starting formation, each into its section's emptiest zone. */
export function fillRest(items, onPitch, fitness = Infinity, lim = limits) {
  const out = [...onPitch];
  const start = lim.start || {def: 4, mid: 4, fwd: 2};
  let payable = fitness - out.filter((p) => p.kind === "card").length;
  const free = items.filter((i) => !i.out && !out.some((p) => p.key === i.key));
  const count = (s) => out.filter((p) => p.zone.startsWith(`${s}_`)).length;
  const fullness = (zone) => out.filter((p) => p.zone === zone).length / (zone.endsWith("_centre") ? lim.central : lim.wing);
  const zonesOf = (section) => ["centre", "left", "right"].map((side) => `${section}_${side}`)
    .sort((a, b) => fullness(a) - fullness(b));
  while (out.length < lim.total) {
    // The section furthest below its starting number (defenders first on a tie), then any with room.
    const order = ["def", "mid", "fwd"].sort((a, b) => (count(a) - (start[a] || 0)) - (count(b) - (start[b] || 0)));
    let choice = null;
    for (const item of free) {
      if (item.kind === "card" && payable <= 0) continue;
      for (const section of order) {
        const zone = zonesOf(section).find((z) => !refusal(item, z, out, lim));
        if (zone) { choice = {item, zone, section}; break; }
      }
      if (choice) break;
    }
    if (!choice) break;
    const {item, zone, section} = choice;
    free.splice(free.indexOf(item), 1);
    if (item.kind === "card") payable -= 1;
    const style = item.kind !== "blank" ? item.style
      : section === "def" ? "defence" : section === "fwd" ? "attack" : (count("mid") % 2 ? "attack" : "defence");
    out.push({...item, style, zone});
  }
  return out;
}

$("fill").addEventListener("click", () => {
  placed = fillRest(benchItems(), placed, club()?.resources?.fitness ?? Infinity);
  chosen = null;
  say($("lineup-msg"), placed.length === limits.total ? "" : SENTENCES.cannotFill, placed.length === limits.total);
  draw();
});
$("stands").addEventListener("input", drawPitch);
$("clear").addEventListener("click", () => { placed = []; chosen = null; assigned = {}; draw(); });
$("record").addEventListener("click", async () => {
  const assign = Object.fromEntries(Object.entries(assigned).map(([id, res]) =>
    [id, Object.fromEntries(Object.entries(res).filter(([, n]) => n > 0))]).filter(([, res]) => Object.keys(res).length));
  const body = {seat, stands: Number($("stands").value) || 0, assign,
    players: placed.map((p) => ({zone: p.zone, jersey: p.jersey, card: p.card, style: p.style}))};
  const arrange = arranging();
  if (arrange) {
    const secret = arrange.half === 2 ? {seat, players: body.players} : body;
    const r = await post("/api/actions/event", {type: "arrange", ...secret});
    say($("lineup-msg"), r.ok ? SENTENCES.arranged(arrange.half) : r.message, r.ok);
    return;
  }
  const r = await post("/api/actions/lineup", body);
  say($("lineup-msg"), r.ok ? "Lineup recorded: play a Tactic if you want, then kick off." : r.message, r.ok);
});
$("seat").addEventListener("change", () => { seat = Number($("seat").value); placed = []; chosen = null; fill($("breakdown")); draw(); });

const rules = await (await fetch("/api/rules")).json().catch(() => null);
if (rules?.pitch) limits = rules.pitch;
if (rules?.stands) standsRule = rules.stands;
await cardNames();
live((snapshot) => {
  latest = snapshot;
  const clubs = snapshot.game?.clubs || [];
  if (!clubs.some((c) => c.seat === seat)) {
    const waiting = (snapshot.game?.awaiting || []).find((a) => a.need === "lineup" || a.need === "arrange");
    seat = waiting?.seat ?? clubs[0]?.seat ?? null;
  }
  fill($("seat"), clubs.map((c) => h("option", {value: c.seat, selected: c.seat === seat}, `${c.seat}: ${nameOf(c)}`)));
  const c = club();
  $("opponent").textContent = c?.opponent ? `against ${nameOf(c.opponent)}` : "";
  if (c?.match?.lineup && !placed.length) {
    // Show the lineup the table holds (recorded here or elsewhere).
    const items = benchItems();
    placed = c.match.lineup.map((p, i) => ({...(items.find((it) => (p.card ? it.card === p.card : it.kind === "marker" && it.jersey === p.jersey))
      || {kind: "blank", key: `b${i}`, name: "blank", jersey: null, card: null, strength: 1}), zone: p.zone, style: p.style}));
  }
  if (!c?.match?.lineup && placed.length && placed.every((p) => p.recorded)) placed = [];
  draw();
});
session().then((s) => { $("lineup-locked").hidden = s.unlocked; });
