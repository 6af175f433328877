// The lineup editor: jersey markers and Player cards into the nine zones. The engine checks every marker placed
// (POST /api/lineup/check) and places the rest when asked (POST /api/lineup/fill); what the club has (its Stands,
// blank markers, who may play) comes from the club's limits in the table's view. The page decides no rule itself.
// The Lineup page edits any club's lineup; a seat's own page uses the same editor for its secret arrangement of a
// match between clubs (``seatEditor``), which only that page sends.
import {cardName, cardNames, fill, h, live, nameOf, post, say, session, words} from "./common.js";
import {clubOf, logItem, side as badge} from "./view.js";

const $ = (id) => document.getElementById(id);
const SECTIONS = ["fwd", "mid", "def"];  // drawn top to bottom: attacking upwards
const SIDES = ["left", "centre", "right"];
const SECTION_WORDS = {def: "Defenders", mid: "Midfielders", fwd: "Forwards"};
const RESOURCES = ["budget", "fanbase", "operation", "fitness"];
const STORE = "touchline.lineup";

export const SENTENCES = {
  pickFirst: "Pick a Player or a jersey marker from the bench first.",
  ready: "Every jersey marker is placed and the rules take this lineup: record it.",
  filled: "The rest is placed as the table would: look it over, move what you like, then record it.",
  kept: (n) => `Your lineup in progress is back: ${n} jersey marker(s) placed before the page was closed.`,
  recorded: "Lineup recorded: play a Tactic if you want, then kick off.",
  secondHalf: "Second half: the same jersey markers, in the zones you choose now.",
  arranged: (half) => `Arranged in secret for the ${half === 2 ? "second" : "first"} half: the other club sees it when both have arranged.`,
  onSeatPage: (seat) => `Seat ${seat} arranges its jersey markers in secret on its own page (/seat/${seat}), not here.`,
};

let latest = null;
let seat = null;
let ownPage = false;      // true on a seat's own page: the seat is fixed and the secret arrangement is sent from here
let chosen = null;        // a bench item waiting for a zone
let placed = [];          // bench items with a zone, in the order placed
let assigned = {};        // card id -> {resource: n}, for the Player cards' match actions
let verdict = {ok: true, why: null, index: null};  // the engine's answer for `placed`
let asked = 0;            // the newest question to the engine (older answers are dropped)
let draftKey = null;      // where this game, week and seat keep the lineup in progress
let seenEvents = -1;

function game() { return latest?.game || null; }
function club() { return (game()?.clubs || []).find((c) => c.seat === seat); }
function limits() { return club()?.limits || null; }
/** What the engine awaits when this seat arranges its jersey markers in secret for a half of a match between clubs. */
function arranging() { return (game()?.awaiting || []).find((a) => a.seat === seat && a.need === "arrange"); }
/** The seat's match between clubs this week, when it plays one (the League matches between clubs module). */
function fixture() {
  return (game()?.modules?.club_matches?.fixtures || []).find((f) => f.host === seat || f.visitor === seat);
}
function recorded() { return Boolean(club()?.match?.lineup) && !arranging(); }
function full() { return Boolean(limits()) && placed.length === limits().on_pitch; }

/** Everything the club may put on the pitch: its Player cards, its numbered jersey markers and its blank ones. */
function benchItems() {
  const c = club();
  const lim = limits();
  if (!c || !lim) return [];
  const cards = (c.players || []).map((p) => ({kind: "card", key: p.id, card: p.id, name: nameOf(p), style: p.style,
    jersey: null, number: p.jersey, strength: p.strength ?? 1, out: lim.out?.[p.id] || ""}));
  // A numbered marker shows the side the table last recorded; one the table has not seen yet starts on the side the
  // engine says keeps the setup's half attack, half defence (the person may turn it; the engine checks).
  const shown = c.markers || {};
  const unseen = c.markers_unseen || {};
  const markers = lim.jerseys.map((n) => ({kind: "marker", key: `m${n}`, card: null, name: `#${n}`,
    style: shown[n] ?? unseen[n] ?? "defence", fixed: n in shown, jersey: n, strength: 1, out: ""}));
  const blanks = Array.from({length: lim.blanks}, (_, i) => ({kind: "blank", key: `b${i}`, card: null, name: "blank",
    style: "attack", jersey: null, strength: 1, out: ""}));
  return [...cards, ...markers, ...blanks];
}

/** Where the engine is asked about the lineup: the owner's API, or the seat's own on its page. */
function api() { return ownPage ? `/api/seat/${seat}` : "/api"; }

function body() {
  return {seat, stands: Number($("stands").value) || 0, assign: assignment(),
    players: placed.map((p) => ({zone: p.zone, jersey: p.jersey, card: p.card, style: p.kind === "card" ? null : p.style}))};
}

function assignment() {
  return Object.fromEntries(Object.entries(assigned).map(([id, res]) =>
    [id, Object.fromEntries(Object.entries(res).filter(([, n]) => n > 0))]).filter(([, res]) => Object.keys(res).length));
}

/** Ask the engine about the markers placed so far; returns its answer (or null when a newer question was asked). */
async function check() {
  const mine = ++asked;
  const r = await post(`${api()}/lineup/check`, body());
  if (mine !== asked) return null;
  verdict = r.ok ? r.data : {ok: false, why: r.message, index: null};
  return verdict;
}

/** Tell the person what the engine said, and let them record only what it takes. */
function tell() {
  const msg = $("lineup-msg");
  if (!verdict.ok) say(msg, verdict.why, false);
  else if (full() && !recorded()) say(msg, SENTENCES.ready, true);
  else if (msg.dataset.kind === "error") say(msg, "");  // what was refused is put right
  draw();
}

// -- the lineup in progress, kept in this browser per game, week and seat ----------------------------------------

function keyFor() {
  const g = game();
  return g && seat !== null ? `${STORE}.${latest.game_id ?? "game"}.w${g.week}.s${seat}` : null;
}

function save() {
  if (!draftKey) return;
  try {
    if (!placed.length && !Object.keys(assigned).length && !Number($("stands").value)) localStorage.removeItem(draftKey);
    else localStorage.setItem(draftKey, JSON.stringify({placed: placed.map((p) => ({key: p.key, zone: p.zone, style: p.style, jersey: p.jersey})),
      stands: Number($("stands").value) || 0, assigned}));
  } catch { /* a browser that keeps nothing: the lineup lives until the page closes */ }
}

function remembered(what) {
  try { return localStorage.getItem(`${STORE}.${what}`); } catch { return null; }
}

function remember(what, value) {
  try { localStorage.setItem(`${STORE}.${what}`, String(value)); } catch { /* a browser that keeps nothing */ }
}

function forget() {
  try { if (draftKey) localStorage.removeItem(draftKey); } catch { /* nothing kept */ }
}

/** The bench items for saved {key, zone, style} entries (cards, numbered and blank markers alike). */
function restore(entries) {
  const items = new Map(benchItems().map((i) => [i.key, i]));
  return entries.filter((e) => items.has(e.key)).map((e) => {
    const item = items.get(e.key);
    // a card keeps the number it was placed with (the second half moves the first half's markers as they were)
    return {...item, zone: e.zone, style: e.style, ...(item.kind === "card" ? {jersey: e.jersey ?? null} : {})};
  });
}

/** Load the lineup in progress for this game, week and seat, if this browser kept one. */
function load() {
  draftKey = keyFor();
  placed = []; chosen = null; assigned = {}; verdict = {ok: true, why: null, index: null};
  $("stands").value = 0;
  say($("lineup-msg"), "");
  if (!draftKey) return;
  if (club()?.match?.lineup && recorded()) shownRecorded();
  else if (club()?.match?.lineup && arranging()?.half === 2) fromFirstHalf();
  if (recorded()) return;
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(draftKey) || "null"); } catch { saved = null; }
  if (!saved || !Array.isArray(saved.placed) || !saved.placed.length) return;
  placed = restore(saved.placed);
  assigned = saved.assigned && typeof saved.assigned === "object" ? saved.assigned : {};
  $("stands").value = Number(saved.stands) || 0;
  if (placed.length) {
    say($("lineup-msg"), SENTENCES.kept(placed.length), true);
    check().then((answer) => { if (answer && !answer.ok) tell(); else draw(); });
  }
}

// -- drawing ---------------------------------------------------------------------------------------------------

/** Inputs to put resources on each Player card that plays (its actions before, during or after the match). */
function drawAssign() {
  const cards = placed.filter((p) => p.card);
  for (const id of Object.keys(assigned)) if (!cards.some((p) => p.card === id)) delete assigned[id];
  if (!cards.length || recorded() || arranging()?.half === 2) { fill($("assign")); return; }
  fill($("assign"), h("details", {}, h("summary", {}, "Resources for the Players' actions (optional)"),
    cards.map((p) => h("div", {class: "row wrap", dataset: {card: p.card}}, h("b", {}, p.name),
      RESOURCES.map((r) => h("label", {class: "inline"}, `${r} `, h("input", {type: "number", min: 0, max: 10,
        value: assigned[p.card]?.[r] ?? 0, "aria-label": `${r} on ${p.name}`, onchange: (e) => {
          assigned[p.card] = {...(assigned[p.card] || {}), [r]: Math.max(0, Number(e.target.value) || 0)};
          changed();
        }})))))));
}

function drawPitch() {
  const lim = limits();
  fill($("pitch"), SECTIONS.flatMap((section) => SIDES.map((side) => {
    const zone = `${section}_${side}`;
    const here = placed.filter((p) => p.zone === zone);
    return h("div", {class: `zone ${side === "centre" ? "central" : "wing"}`, dataset: {zone}, role: "button", tabindex: 0,
      "aria-label": words(zone), onclick: () => put(zone), onkeydown: (e) => { if (e.key === "Enter") put(zone); }},
    h("span", {class: "zname"}, words(zone), lim ? h("small", {}, ` ${here.length}/${lim.zones[zone]}`) : ""),
    here.map((p) => h("button", {type: "button", dataset: {key: p.key}, title: "Take back",
      class: `token ${p.style}${p.card ? " card" : ""}${!verdict.ok && placed.indexOf(p) === verdict.index ? " refused" : ""}`,
      onclick: (e) => { e.stopPropagation(); takeBack(p); }},
    p.card ? (p.number ?? "·") : p.jersey ?? "·", p.card ? h("small", {}, ` ${p.name}`) : "", badge(p.style))));
  })));
  const c = club();
  const count = (s) => placed.filter((p) => p.zone.startsWith(`${s}_`)).length;
  $("counts").textContent = lim ? `On the pitch ${placed.length}/${lim.on_pitch} · ` +
    ["def", "mid", "fwd"].map((s) => `${SECTION_WORDS[s]} ${count(s)}/${lim.sections[s]}`).join(" · ") : "";
  $("stands").max = lim?.stands ?? 0;
  $("stands-room").textContent = lim ? ` of ${lim.stands} Stands` : "";
  const secondHalf = arranging()?.half === 2;
  const cards = placed.filter((p) => p.card).length;
  const note = $("fitness");
  if (secondHalf) note.textContent = SENTENCES.secondHalf;
  else if (recorded()) note.textContent = `Recorded: ${c.match.lineup.filter((p) => p.card).length} Player card(s) playing, ${c.match.stands ?? 0} Fanbase on the Stands.`;
  else note.textContent = `Player cards placed: ${cards} · the club has ${c?.resources?.fitness ?? 0} Fitness and ${c?.resources?.fanbase ?? 0} Fanbase`;
  note.dataset.kind = "ok";
  $("record").disabled = !c || (recorded() && !secondHalf) || !full() || !verdict.ok;
  $("fill").disabled = !c || recorded() || full();
  $("clear").disabled = !c || recorded();
}

function drawBench() {
  if (recorded()) { fill($("bench")); return; }
  // a Player card on the pitch stands on the jersey marker of its number: that marker is not on the bench
  const used = new Set([...placed.map((p) => p.key), ...placed.filter((p) => p.card).map((p) => `m${p.number}`)]);
  const items = benchItems().filter((item) => !used.has(item.key));
  const line = chosen ? h("p", {class: "chosen-line"}, `Placing ${chosen.kind === "card" ? chosen.name : `marker ${chosen.name}`} — tap a zone. `,
    chosen.kind === "card" ? "" : chosen.fixed ? h("span", {class: "sidepick"}, `Shows ${chosen.style} (only a card with its number flips it).`)
    : h("span", {class: "sidepick"}, "Side: ", ["attack", "defence"].map((s) => h("button", {type: "button",
      class: `quiet${chosen.style === s ? " on" : ""}`, dataset: {style: s}, onclick: () => { chosen.style = s; drawBench(); }},
    s === "attack" ? "Attack" : "Defence")))) : null;
  fill($("bench"), line, h("h3", {}, "Players"), items.filter((i) => i.kind === "card").map(token),
    h("h3", {}, "Jersey markers (Strength 1)"), items.filter((i) => i.kind !== "card").map(token));
}

function token(item) {
  return h("button", {type: "button", dataset: {key: item.key}, title: item.out || null,
    class: `token ${item.style} ${item.kind}${chosen?.key === item.key ? " chosen" : ""}${item.out ? " out" : ""}`,
    onclick: () => choose(item)},
  item.kind === "card" ? (item.number ?? "·") : item.jersey ?? "·",
  item.kind === "card" ? h("small", {}, ` ${item.name} (${item.strength})`) : "", badge(item.style),
  item.out ? h("small", {}, ` ${item.out}`) : "");
}

function draw() { drawPitch(); drawBench(); drawAssign(); drawMatchday(); }

// -- what the person does ----------------------------------------------------------------------------------------

function choose(item) {
  chosen = {...item};
  say($("lineup-msg"), "");
  drawBench();
}

/** Put the chosen item in a zone; the engine checks it, and a marker it refuses goes back to the bench. */
async function put(zone) {
  if (recorded()) return;
  if (!chosen) { say($("lineup-msg"), SENTENCES.pickFirst, false); return; }
  const item = {...chosen, zone};
  placed.push(item);
  chosen = null;
  say($("lineup-msg"), "");
  draw();
  const answer = await check();
  if (!answer) return;
  if (!answer.ok && answer.index === placed.indexOf(item)) {
    placed = placed.filter((p) => p !== item);
    verdict = {ok: true, why: null, index: null};
    say($("lineup-msg"), answer.why, false);
    draw();
    await check();
  } else {
    tell();
  }
  save();
}

async function changed() {
  save();
  draw();
  if (await check()) tell();
}

function takeBack(p) {
  if (recorded()) return;
  placed = placed.filter((q) => q !== p);
  say($("lineup-msg"), "");
  changed();
}

/** The engine places the rest around the markers placed so far. */
async function fillRest() {
  const r = await post(`${api()}/lineup/fill`, body());
  if (!r.ok) { say($("lineup-msg"), r.message, false); return; }
  const items = benchItems();
  const blanks = items.filter((i) => i.kind === "blank" && !placed.some((p) => p.key === i.key));
  const rest = r.data.players.slice(placed.length).map((p) => {
    const item = p.card ? items.find((i) => i.card === p.card)
      : p.jersey !== null ? items.find((i) => i.kind === "marker" && i.jersey === p.jersey) : blanks.shift();
    return {...item, zone: p.zone, style: p.style};
  });
  placed = [...placed, ...rest];
  chosen = null;
  save();
  if (!await check()) return;
  if (verdict.ok) { say($("lineup-msg"), SENTENCES.filled, true); draw(); } else tell();
}

async function record() {
  const b = body();
  const arrange = arranging();
  if (arrange) {
    if (!ownPage) { say($("lineup-msg"), SENTENCES.onSeatPage(seat), false); return; }
    const secret = arrange.half === 2 ? {seat, players: b.players} : b;
    const r = await post(`/api/seat/${seat}/event`, {type: "arrange", ...secret});
    say($("lineup-msg"), r.ok ? SENTENCES.arranged(arrange.half) : r.message, r.ok);
    if (r.ok) forget();
    return;
  }
  const r = await post("/api/actions/lineup", b);
  say($("lineup-msg"), r.ok ? SENTENCES.recorded : r.message, r.ok);
  if (r.ok) forget();
}

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
  const other = clubOf(latest?.game, f.host === seat ? f.visitor : f.host);
  const role = f.host === seat ? "Host" : "Visitor";
  const half = f.half === 2 ? "second half" : "first half";
  if (f.step === "played") return `Played against ${other}: see the breakdown on the Table page.`;
  if (f.step === "arrange") return ownPage ? `${role} against ${other}, ${half}: arrange your jersey markers below and record them (secret until both have).`
    : `${role} against ${other}, ${half}: ${SENTENCES.onSeatPage(seat)}`;
  if (f.step === "formation") return `${role} against ${other}, ${half}: ${clubOf(latest?.game, f.declarer)} declares its formation first (its button, or the Play page).`;
  return `${role} against ${other}, ${half}: follow the Play page (abilities, ready for the half, the tie-break).`;
}

function showResult() {
  const result = (latest?.log || []).filter((a) => a.seat === seat && a.kind === "result").at(-1);
  fill($("breakdown"), result ? [h("h3", {}, "The match, zone by zone"), h("ol", {class: "log"}, logItem(result))] : null);
}

/** The lineup the table holds (recorded here or elsewhere), as bench items. */
function shownRecorded() {
  const items = benchItems();
  const blanks = items.filter((i) => i.kind === "blank");
  placed = club().match.lineup.map((p) => ({...(p.card ? items.find((i) => i.card === p.card)
    : p.jersey !== null ? items.find((i) => i.kind === "marker" && i.jersey === p.jersey) : blanks.shift()),
  // as the table holds it: a card with the number it wore (the second half of a match between clubs moves the same)
  zone: p.zone, style: p.style, jersey: p.jersey}));
}

/** The second half of a match between clubs starts from the first half's markers, asked about at once: the
 * formation declared for it may not take them where they stand. */
function fromFirstHalf() {
  shownRecorded();
  check().then((answer) => { if (answer) tell(); });
}

$("fill").addEventListener("click", fillRest);
$("stands").addEventListener("change", changed);
$("clear").addEventListener("click", () => { placed = []; chosen = null; assigned = {}; $("stands").value = 0; changed(); });
$("record").addEventListener("click", record);
$("seat").addEventListener("change", () => {
  seat = Number($("seat").value);
  remember("seat", seat);
  fill($("breakdown"));
  load();
  draw();
});

await cardNames();

/** Draw one snapshot into the editor. */
function update(snapshot) {
  latest = snapshot;
  const clubs = snapshot.game?.clubs || [];
  if (!clubs.some((c) => c.seat === seat)) {
    // the club this browser chose last (a phone is usually one club's), else the first that has to line up
    const waiting = (snapshot.game?.awaiting || []).find((a) => a.need === "lineup" || a.need === "arrange");
    const mine = Number(remembered("seat"));
    seat = clubs.some((c) => c.seat === mine) ? mine : waiting?.seat ?? clubs[0]?.seat ?? null;
  }
  fill($("seat"), clubs.map((c) => h("option", {value: c.seat, selected: c.seat === seat}, `${c.seat}: ${nameOf(c)}`)));
  const c = club();
  $("opponent").textContent = c?.opponent ? `against ${nameOf(c.opponent)}` : "";
  if (keyFor() !== draftKey) load();  // another game, week or seat: its own lineup in progress
  // a recorded lineup is shown as the table holds it; the second half of a match between clubs starts from it
  if (c?.match?.lineup && recorded()) shownRecorded();
  else if (c?.match?.lineup && arranging()?.half === 2 && !placed.length) fromFirstHalf();
  const events = snapshot.game?.events ?? -1;
  // the table moved on: the markers placed are asked about again while the club still has them to place
  const due = (snapshot.game?.awaiting || []).some((a) => a.seat === seat && (a.need === "lineup" || a.need === "arrange"));
  if (events !== seenEvents && seenEvents !== -1 && placed.length && due) check().then((a) => { if (a) tell(); });
  seenEvents = events;
  draw();
}

/** The editor on seat ``n``'s own page: that seat only; returns the function to call with each of its snapshots. */
export function seatEditor(n) {
  ownPage = true;
  seat = n;
  $("seat").closest("label").hidden = true;
  return update;
}

if (document.body.dataset.page === "lineup") {
  live(update);
  session().then((s) => { $("lineup-locked").hidden = s.unlocked; });
}
