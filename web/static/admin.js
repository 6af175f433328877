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
}

function options(kind, chosen) {
  return deck.filter((c) => c.kind === kind).map((c) => h("option", {value: c.id, selected: chosen === c.id}, c.name));
}

function drawSeats() {
  const opps = deck.filter((c) => c.kind === "opponent");
  fill($("seats"), [1, 2, 3, 4].map((seat) => h("fieldset", {class: "seatbox", dataset: {seat}},
    h("legend", {}, h("label", {}, h("input", {type: "checkbox", class: "plays", checked: seat <= 2}), ` Seat ${seat} plays`)),
    h("label", {}, "Club name ", h("input", {class: "name", maxlength: 40, value: ["Middleham Local Club", "Riverside Town", "Northgate Albion", "Eastport City"][seat - 1]})),
    h("label", {}, "Directors (draft) ", h("select", {class: "directors", multiple: true, size: 3}, options("director"))),
    h("label", {}, "Opponents dealt ", h("select", {class: "opponents", multiple: true, size: 3}, options("opponent"))),
    h("button", {type: "button", class: "quiet", onclick: (e) => deal(e.target.closest("fieldset"), opps)}, "Deal at random"),
    h("label", {}, "Objectives ", h("select", {class: "objectives", multiple: true, size: 2}, options("objective"))))));
}

function deal(box, opps) {
  const pool = [...opps].sort(() => Math.random() - 0.5).slice(0, 8);
  for (const opt of box.querySelector(".opponents").options) opt.selected = pool.some((o) => o.id === opt.value);
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

$("newgame").addEventListener("submit", async (event) => {
  event.preventDefault();
  const clubs = [...document.querySelectorAll(".seatbox")].filter((b) => b.querySelector(".plays").checked).map((b) => ({
    seat: Number(b.dataset.seat), name: b.querySelector(".name").value,
    directors: picked(b.querySelector(".directors")), opponents: picked(b.querySelector(".opponents")),
    objectives: picked(b.querySelector(".objectives")),
  }));
  const opts = Object.fromEntries([...document.querySelectorAll("input[name=opt]")].map((i) => [i.value, i.checked]));
  const r = await post("/api/actions/new-game", {clubs, options: opts});
  say($("newgame-msg"), r.ok ? "The game has started. The table view shows it." : r.message, r.ok);
});

function numbers(club) {
  const out = [];
  for (const [group, value] of Object.entries(club || {})) {
    if (typeof value === "number" && group !== "seat") out.push([group, value]);
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) if (typeof v === "number") out.push([`${group}.${k}`, v]);
    }
  }
  return out;
}

function drawCorrect() {
  const clubs = latest?.game?.clubs || [];
  const seatSel = $("c-seat");
  const seat = Number(seatSel.value) || clubs[0]?.seat;
  fill(seatSel, clubs.map((c) => h("option", {value: c.seat, selected: c.seat === seat}, `${c.seat}: ${nameOf(c)}`)));
  const club = clubs.find((c) => c.seat === seat);
  const fieldSel = $("c-field");
  const current = fieldSel.value;
  fill(fieldSel, numbers(club).map(([k]) => h("option", {value: k, selected: k === current}, words(k))));
  const value = new Map(numbers(club)).get(fieldSel.value);
  if (document.activeElement !== $("c-value") && value !== undefined) $("c-value").value = value;
}
$("c-seat").addEventListener("change", drawCorrect);
$("c-field").addEventListener("change", () => { $("c-value").blur(); drawCorrect(); });

$("correct").addEventListener("submit", async (event) => {
  event.preventDefault();
  const r = await post("/api/actions/correction", {seat: Number($("c-seat").value), field: $("c-field").value,
    value: Number($("c-value").value), reason: $("c-reason").value});
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
  latest = snapshot;
  const last = (snapshot.log || []).at(-1);
  $("last").textContent = last ? last.text : "nothing yet";
  drawCorrect();
  if (!$("unlocked").hidden) drawEnrol();
});
refresh().then(() => latest && drawEnrol());
