// The virtual table: each seat's pad, buttons and screen, for playing without any hardware.
import {cardName, cardNames, fill, h, live, post, say, session, unlockForm, words} from "./common.js";
import {drawAsks} from "./turn.js";
import {logItem, status} from "./view.js";

const $ = (id) => document.getElementById(id);
let layout = null;
let deck = [];
const versions = {};
let lastGame = null;
let playingSeats = "";  // the seats of the game running, "1,2" (empty before a game)

async function load() {
  const response = await fetch("/api/sim/layout");
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    say($("sim-msg"), data?.detail || "This table has no simulated hardware.", false);
    return;
  }
  layout = await response.json();
  deck = await (await fetch("/api/deck")).json();
  drawSeats();
}

async function act(path, body) {
  const r = await post(path, body);
  say($("sim-msg"), r.ok ? "" : r.message, r.ok);
}

function cardPicker(pad) {
  const list = `cards-${pad.id}`;
  const input = h("input", {class: "cardpick", list, placeholder: "Card name or id", "aria-label": `Card for ${pad.label}`});
  const datalist = h("datalist", {id: list}, deck.map((c) => h("option", {value: c.id}, `${c.name} (${words(c.kind)})`)));
  const resolve = () => {
    const text = input.value.trim().toLowerCase();
    const card = deck.find((c) => c.id === text) || deck.find((c) => c.name.toLowerCase() === text);
    return card ? card.id : input.value.trim();
  };
  return h("div", {class: "pad", dataset: {pad: pad.id}},
    h("div", {class: "padlabel"}, pad.label, h("span", {class: "oncard"}, pad.card ? ` holds ${cardName(pad.card)}` : "")),
    input, datalist,
    h("button", {type: "button", class: "place", onclick: () => act("/api/sim/place", {pad: pad.id, card: resolve()})}, "Place"),
    h("button", {type: "button", class: "lift quiet", onclick: () => act("/api/sim/lift", {pad: pad.id})}, "Lift"));
}

function seatBox(seat, label) {
  const of = (list) => (layout[list] || []).filter((x) => (x.seat ?? null) === seat);
  return h("article", {class: "simseat", dataset: {seat: seat ?? "shared"}},
    h("h3", {}, label),
    of("screens").map((s) => h("figure", {class: "oled"},
      h("img", {src: `/api/sim/screens/${s.id}.png?v=${versions[s.id] ?? 0}`, alt: `${s.label}`, dataset: {screen: s.id},
        width: (s.width || 128) * 2, height: (s.height || 64) * 2}),
      h("figcaption", {}, s.label))),
    of("pads").map(cardPicker),
    seat === null ? null : h("div", {class: "quick row wrap", dataset: {seat}}),
    h("div", {class: "buttons"}, of("buttons").map((b) => [
      h("button", {type: "button", class: "press primary", dataset: {button: b.id}, onclick: () => act("/api/sim/press", {button: b.id})}, `Press ${b.label}`),
      h("button", {type: "button", class: "hold", dataset: {button: b.id}, onclick: () => act("/api/sim/hold", {button: b.id})}, "Hold")])));
}

/** Under a seat asked for a card (a Board meeting card on Monday), a few cards of that kind to place at once. */
function drawQuick(game) {
  const used = new Set((game?.clubs || []).map((c) => c.board_card).filter(Boolean));
  for (const box of document.querySelectorAll(".quick[data-seat]")) {
    const seat = Number(box.dataset.seat);
    const wait = (game?.awaiting || []).find((w) => w.seat === seat && w.need === "card");
    const pad = (layout?.pads || []).find((p) => p.seat === seat);
    const cards = wait && pad ? deck.filter((c) => (wait.kinds || []).includes(c.kind) && !used.has(c.id)).slice(0, 4) : [];
    fill(box, cards.length ? [h("span", {class: "hint"}, "Place: "), cards.map((c) => h("button", {type: "button",
      class: "quiet", dataset: {card: c.id}, onclick: () => act("/api/sim/place", {pad: pad.id, card: c.id})}, c.name))] : null);
  }
}

function drawSeats() {
  if (!layout) return;
  // Once a game runs, only the seats playing it (a four-seat table with two clubs shows two).
  const playing = playingSeats ? playingSeats.split(",").map(Number) : [];
  const seats = (layout.seats || []).filter((s) => !playing.length || playing.includes(s.seat))
    .map((s) => seatBox(s.seat, s.label || `Seat ${s.seat}`));
  const shared = ["pads", "buttons", "screens"].some((k) => (layout[k] || []).some((x) => (x.seat ?? null) === null));
  fill($("seats"), seats, shared ? seatBox(null, "Shared") : null);
  drawQuick(lastGame);
}

let turning = [];  // screens showing a message of several pages: their panels turn pages by the table's clock
let fetches = 0;

function refreshScreens(screens) {
  turning = [];
  for (const [id, info] of Object.entries(screens || {})) {
    if ((info.pages || 1) > 1) turning.push(id);
    if (versions[id] === info.version) continue;
    versions[id] = info.version;
    const img = document.querySelector(`img[data-screen="${CSS.escape(id)}"]`);
    if (img) img.src = `/api/sim/screens/${id}.png?v=${info.version}`;
  }
}

// A page turn changes a panel but not the game, so no update is pushed for it: fetch those panels' frames again.
setInterval(() => {
  fetches += 1;
  for (const id of turning) {
    const img = document.querySelector(`img[data-screen="${CSS.escape(id)}"]`);
    if (img) img.src = `/api/sim/screens/${id}.png?v=${versions[id] ?? 0}.${fetches}`;
  }
}, 1000);

await cardNames();
live(async (snapshot) => {
  fill($("sim-status"), status(snapshot.game));
  drawAsks($("asks"), $("asks-msg"));
  fill($("sim-log"), (snapshot.log || []).slice(-5).reverse().map(logItem));
  // A new game may seat other clubs: ask for the layout again when the seats playing change (only then, so what
  // someone is typing into a pad's box survives every other update).
  const seatsNow = (snapshot.game?.clubs || []).map((c) => c.seat).join(",");
  if (seatsNow !== playingSeats) {
    playingSeats = seatsNow;
    if (layout) {
      layout = await (await fetch("/api/sim/layout")).json();
      drawSeats();
    }
  }
  refreshScreens(snapshot.screens);
  lastGame = snapshot.game;
  drawQuick(lastGame);
});

session().then((s) => {
  if (!s.unlocked) fill($("sim-lock"), unlockForm(() => fill($("sim-lock"))));
  load();
});
