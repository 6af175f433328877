// Admin: unlock with the PIN, start a game, enrol cards, correct numbers and undo.
import {fill, h, live, nameOf, post, say, session, words} from "./common.js";

const $ = (id) => document.getElementById(id);
let deck = [];
let latest = null;

async function refresh() {
  const s = await session();
  $("locked").hidden = s.unlocked;
  $("unlocked").hidden = !s.unlocked;
  if (s.unlocked && !deck.length) {
    deck = await (await fetch("/api/deck")).json();
    drawSeats();
  }
  if (s.unlocked && latest) { drawEnrol(); drawCorrect(); }
}

function options(kind, chosen) {
  // Opponent cards of one team share its name: the id tells them apart.
  return deck.filter((c) => c.kind === kind).map((c) => h("option", {value: c.id, selected: chosen === c.id},
    kind === "opponent" ? `${c.name} (${c.id})` : c.name));
}

function one(kind, label, cls) {
  return h("label", {}, `${label} `, h("select", {class: cls}, h("option", {value: ""}, "dealt by the table"), options(kind)));
}

function drawSeats() {
  $("newgame-start").disabled = false;  // the seats can be filled in now
  fill($("seats"), [1, 2, 3, 4].map((seat) => h("fieldset", {class: "seatbox", dataset: {seat}},
    h("legend", {}, h("label", {class: "inline"}, h("input", {type: "checkbox", class: "plays", checked: seat <= 2}), ` Seat ${seat} plays`)),
    h("label", {}, "Club name ", h("input", {class: "name", maxlength: 40, value: ["Middleham Local Club", "Riverside Town", "Northgate Albion", "Eastport City"][seat - 1]})),
    h("label", {}, "Played by ", h("input", {class: "players", maxlength: 40, placeholder: "e.g. Anna and Ben",
      title: "Who plays this club, as BG Stats should name them when the game is exported"})),
    h("label", {}, "Directors kept (draft, up to 3) ", h("select", {class: "directors", multiple: true, size: 4}, options("director"))),
    one("veteran", "Starting Veteran", "veteran"), one("youngster", "Starting Youngster", "youngster"),
    h("label", {}, "Opponents dealt, in order (pick them in the order they are played) ",
      h("select", {class: "opponents", multiple: true, size: 4, onchange: (e) => ordered(e.target)}, options("opponent"))),
    h("p", {class: "hint order"}, "Dealt by the table."),
    h("button", {type: "button", class: "quiet", onclick: (e) => deal(e.target.closest("fieldset"))}, "Deal Opponents at random"),
    one("objective", "Objective", "objective"), one("tactic", "Tactic", "tactic"))));
}

// The order Opponent cards were picked in (a multiple select only knows which are picked, in deck order).
const picks = new WeakMap();

/** Keep the picking order of a multiple select and show it; returns the ids in that order. */
function ordered(select, order = null) {
  const now = [...select.selectedOptions].map((o) => o.value);
  const before = order ?? (picks.get(select) || []);
  const list = [...before.filter((id) => now.includes(id)), ...now.filter((id) => !before.includes(id))];
  picks.set(select, list);
  const names = list.map((id) => select.querySelector(`option[value="${CSS.escape(id)}"]`)?.textContent ?? id);
  select.closest("fieldset").querySelector(".order").textContent =
    names.length ? `Order: ${names.map((n, i) => `${i + 1}. ${n}`).join(" → ")}` : "Dealt by the table.";
  return list;
}

async function deal(box) {
  // The engine deals, as the game chosen deals (its Division's cards, one per team, as many as its weeks), from
  // the table's shuffle, never a card another seat holds already: the page only shows what it dealt.
  const taken = [...document.querySelectorAll(".seatbox")].filter((b) => b !== box)
    .flatMap((b) => picked(b.querySelector(".opponents")));
  const {modules, options} = gameChoice();
  const r = await post("/api/choices/deal-opponents", {modules, options, taken});
  if (!r.ok) { say($("newgame-msg"), r.message, false); return; }
  const select = box.querySelector(".opponents");
  for (const opt of select.options) opt.selected = r.data.cards.includes(opt.value);
  ordered(select, r.data.cards);
}

const picked = (select) => [...select.selectedOptions].map((o) => o.value);

$("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const response = await fetch("/api/session", {method: "POST", credentials: "same-origin",
    headers: {"content-type": "application/json"}, body: JSON.stringify({pin: $("pin").value})});
  const data = await response.json().catch(() => null);
  if (!response.ok) { say($("login-msg"), data?.detail && typeof data.detail === "string" ? data.detail : (data?.message || "Refused."), false); return; }
  $("pin").value = "";
  say($("login-msg"), "");
  await refresh();
});

$("logout").addEventListener("click", async () => { await post("/api/session/logout"); await refresh(); });
$("logout-all").addEventListener("click", async () => {
  const result = await post("/api/session/logout-all");
  await refresh();
  say($("login-msg"), result.ok ? result.data.message : result.message, result.ok);
});

$("newgame").addEventListener("submit", async (event) => {
  event.preventDefault();
  const value = (b, cls) => b.querySelector(`.${cls}`).value || null;
  const clubs = [...document.querySelectorAll(".seatbox")].filter((b) => b.querySelector(".plays").checked).map((b) => ({
    seat: Number(b.dataset.seat), name: b.querySelector(".name").value, players: b.querySelector(".players").value.trim() || null,
    directors: picked(b.querySelector(".directors")), opponents: ordered(b.querySelector(".opponents")),
    veteran: value(b, "veteran"), youngster: value(b, "youngster"), objective: value(b, "objective"), tactic: value(b, "tactic"),
  }));
  const {modules, options} = gameChoice();
  const first = Number($("first-seat").value) || null;
  const game = latest?.game;
  if (running(game) && confirmedFor !== game.events) {
    // A shop's table: one stray press must not end the game being played.
    confirmedFor = game.events;
    say($("newgame-msg"), SENTENCES.replaceGame(game), false);
    $("newgame-start").textContent = "Yes, end it and start the new game";
    return;
  }
  const r = await post("/api/actions/new-game", {clubs, first_seat: first, modules, options});
  say($("newgame-msg"), r.ok ? "The game has started. The table view shows it." : r.message, r.ok);
  confirmedFor = null;
  $("newgame-start").textContent = "Start the game";
});

export const SENTENCES = {
  noModules: "No rule modules are installed on this table yet: the game follows the base rulebook.",
  replaceGame: (game) => `A game is running (Week ${game.week}, ${game.stage_name || game.stage}). ` +
    "Starting a new one ends it for good: press the button again to do so.",
};
let confirmedFor = null;   // the running game's event count when "start" was first pressed
const running = (game) => Boolean(game && game.stage !== "over");

const CARD_FIELDS = ["injury", "suspension", "vp", "strength_temp", "strength_perm", "trained", "exhausted"];
let adjustable = [];

/** The current value of a correctable number, from the game view. */
function current(club, what, card, team) {
  if (!club || !what) return undefined;  // the numbers that can be corrected are still being fetched
  if (what === "team_points") return (latest?.game?.league || []).find((r) => r.team === team)?.points;
  if (what.startsWith("stat:")) return club.stats?.[what.slice(5)];
  if (what in (club.resources || {})) return club.resources[what];
  if (CARD_FIELDS.includes(what)) {
    const held = [...(club.players || []), ...(club.staff || [])].find((x) => x.id === card);
    if (!held) return undefined;
    if (what === "strength_temp") return held.strength_tokens?.temporary;
    if (what === "strength_perm") return held.strength_tokens?.permanent;
    const v = held[what];
    return typeof v === "boolean" ? Number(v) : v;
  }
  return {points: club.league_points, goals: club.match?.goals, conceded: club.match?.conceded}[what] ?? club[what];
}

function drawCorrect() {
  const clubs = latest?.game?.clubs || [];
  const seatSel = $("c-seat");
  const seat = Number(seatSel.value) || clubs[0]?.seat;
  fill(seatSel, clubs.map((c) => h("option", {value: c.seat, selected: c.seat === seat}, `${c.seat}: ${nameOf(c)}`)));
  const club = clubs.find((c) => c.seat === seat);
  const whatSel = $("c-what");
  const what = whatSel.value || adjustable[0];
  fill(whatSel, adjustable.map((k) => h("option", {value: k, selected: k === what}, words(k.replace(":", " ")))));
  $("c-card-box").hidden = !CARD_FIELDS.includes(what);
  $("c-team-box").hidden = what !== "team_points";
  const card = $("c-card").value;
  fill($("c-card"), [...(club?.players || []), ...(club?.staff || [])].map((x) => h("option", {value: x.id, selected: x.id === card}, nameOf(x))));
  const team = $("c-team").value;
  fill($("c-team"), (latest?.game?.league || []).filter((r) => r.team).map((r) => h("option", {value: r.team, selected: r.team === team}, r.name)));
  const now = current(club, what, $("c-card").value, $("c-team").value);
  $("c-now").textContent = now ?? "–";
  if (document.activeElement !== $("c-value") && now !== undefined) $("c-value").value = now;
}
for (const id of ["c-seat", "c-what", "c-card", "c-team"]) $(id).addEventListener("change", () => { $("c-value").blur(); drawCorrect(); });

$("correct").addEventListener("submit", async (event) => {
  event.preventDefault();
  const clubs = latest?.game?.clubs || [];
  const seat = Number($("c-seat").value);
  const what = $("c-what").value;
  const card = CARD_FIELDS.includes(what) ? $("c-card").value : null;
  const team = what === "team_points" ? $("c-team").value : null;
  const now = current(clubs.find((c) => c.seat === seat), what, card, team);
  const delta = Number($("c-value").value) - (now ?? 0);
  if (!delta) { say($("correct-msg"), "That is the number already: nothing to correct.", false); return; }
  const r = await post("/api/actions/correction", {seat: what === "team_points" ? null : seat, what, delta, card, team, reason: $("c-reason").value});
  say($("correct-msg"), r.ok ? "Corrected and recorded." : r.message, r.ok);
  if (r.ok) $("c-reason").value = "";
});

$("undo").addEventListener("click", async () => {
  const r = await post("/api/actions/undo");
  say($("undo-msg"), r.ok ? "Undone." : r.message, r.ok);
});

function drawEnrol() {
  const state = latest?.enrolment;
  const box = $("enrol");
  if (!state) {
    fill(box, h("button", {type: "button", id: "enrol-start", onclick: async () => {
      const r = await post("/api/actions/enrol/start");
      say($("enrol-msg"), r.ok ? "" : r.message, r.ok);
    }}, "Enrol a card"));
    return;
  }
  const cancel = h("button", {type: "button", class: "quiet", onclick: () => post("/api/actions/enrol/cancel")}, "Cancel");
  if (state.state !== "tapped") { fill(box, h("p", {class: "big pulse"}, "Tap a card on any pad now."), cancel); return; }
  if (box.dataset.uid === state.uid) return;  // keep the search the person is typing
  box.dataset.uid = state.uid;
  const list = h("ul", {class: "picklist", id: "enrol-list"});
  const search = h("input", {type: "search", id: "enrol-search", placeholder: "Search the deck", oninput: () => show(search.value)});
  const show = (q) => fill(list, deck.filter((c) => `${c.name} ${c.id} ${c.kind}`.toLowerCase().includes(q.toLowerCase())).slice(0, 40)
    .map((c) => h("li", {}, h("button", {type: "button", dataset: {card: c.id}, onclick: async () => {
      const r = await post("/api/actions/enrol", {uid: state.uid, card: c.id});
      say($("enrol-msg"), r.ok ? `Tag ${state.uid} is now ${c.name}.` : r.message, r.ok);
      delete box.dataset.uid;
    }}, c.name, h("small", {}, ` ${words(c.kind)}`)))));
  show("");
  fill(box, h("p", {}, `Tag ${state.uid} read on ${state.pad || "a pad"}. Which card is it?`), search, list, cancel);
}

live((snapshot) => {
  if (latest === null) $("newgame-box").open = !running(snapshot.game);  // fold it away while a game runs
  if (confirmedFor !== null && snapshot.game?.events !== confirmedFor) {
    // The game moved on since the warning: ask again before ending it.
    confirmedFor = null;
    $("newgame-start").textContent = "Start the game";
  }
  latest = snapshot;
  if (defaults === null && snapshot.new_game) { defaults = snapshot.new_game; drawModules(); }  // the table file's [game]
  const last = (snapshot.log || []).at(-1);
  $("last").textContent = last ? last.text : "nothing yet";
  drawCorrect();
  if (!$("unlocked").hidden) drawEnrol();
});
/** The rule modules and game options the engine offers with this deck, as the new game's form shows them: each
 * module's title, what it is, its options and what it cannot be played with, all in the engine's words.  Which
 * choices go together is the engine's to say: a refused choice comes back as its sentence when the game starts. */
let offered = {modules: [], options: {}};
let defaults = null;

function optionField(name, option, chosen, owner) {
  const pick = chosen ?? option.default;
  return h("label", {class: "option", title: option.doc}, `${option.title} `,
    h("select", {class: "game-option", dataset: {option: name, owner}},
      h("option", {value: ""}, option.default == null ? "as the deck deals" : `${option.default} (default)`),
      (option.choices || []).map((v) => h("option", {value: v, selected: pick === v && pick !== option.default}, String(v)))));
}

function drawModules() {
  const chosen = new Set(defaults?.modules || []);
  const values = defaults?.options || {};
  const modules = offered.modules;
  const list = modules.map((m) => h("div", {class: "module", dataset: {module: m.name}},
    h("label", {title: m.doc}, h("input", {type: "checkbox", name: "module", value: m.name,
      checked: chosen.has(m.name) && m.available !== false, disabled: m.available === false,
      onchange: () => showModuleOptions()}), ` ${m.title}`),
    h("p", {class: "hint"}, m.doc),
    m.excludes_titles?.length ? h("p", {class: "hint excludes"}, `Not with: ${m.excludes_titles.join(", ")}.`) : null,
    m.available === false ? h("p", {class: "hint missing"}, m.missing) : null,
    h("div", {class: "module-options"}, Object.entries(m.options || {}).map(([k, o]) => optionField(k, o, values[k], m.name)))));
  fill($("modules"), h("legend", {}, "Rules"),
    h("div", {class: "game-options"}, Object.entries(offered.options || {}).map(([k, o]) => optionField(k, o, values[k], ""))),
    modules.length ? list : h("p", {class: "hint"}, SENTENCES.noModules));
  showModuleOptions();
}

/** A module's options show only while it is chosen. */
function showModuleOptions() {
  for (const box of document.querySelectorAll("#modules .module")) {
    box.querySelector(".module-options").hidden = !box.querySelector("input[name=module]").checked;
  }
}

/** The modules and options the form names now (those of unchosen modules left out). */
function gameChoice() {
  const modules = [...document.querySelectorAll("input[name=module]")].filter((i) => i.checked).map((i) => i.value);
  const options = {};
  for (const sel of document.querySelectorAll("select.game-option")) {
    if (sel.value === "" || (sel.dataset.owner && !modules.includes(sel.dataset.owner))) continue;
    options[sel.dataset.option] = Number(sel.value);
  }
  return {modules, options};
}

fetch("/api/rules").then((r) => r.json()).then((rules) => {
  adjustable = rules.adjustable || [];
  drawCorrect();
  offered = {modules: rules.modules || [], options: rules.game_options || {}};
  drawModules();
});
refresh();
