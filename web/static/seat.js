// A seat's own page: the club's secrets (its Objectives, its arrangement in a match between clubs) and its secret
// choices, drawn from the seat's own view; it opens by a tap of one of the club's cards on its pad or by the PIN.
import {cardName, cardNames, fill, h, live, nameOf, problem, say, useCsrf} from "./common.js";
import {drawAsks} from "./turn.js";
import {seatEditor} from "./lineup.js";
import {status} from "./view.js";

const $ = (id) => document.getElementById(id);
const seat = Number(location.pathname.split("/").pop());
const CHECK_MS = 1000;

export const SENTENCES = {
  objective: "Your Objective",
  objectives: "Your Objectives",
  none: "No Objective card is dealt to your club in this game.",
  kept: "kept face down until the Final scoring",
  second: "after the Winter Break",
  result: (r) => ` — ${r}`,
  waiting: "Waiting for your tap…",
  unlocked: "Unlocked: this page shows your club's own view.",
  ended: "A new game began, and this page was your seat's in the last one. Tap one of your club's cards (or enter the PIN) to open your seat again.",
};

async function call(path, body) {
  const response = await fetch(path, {method: "POST", credentials: "same-origin",
    headers: {"content-type": "application/json"}, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json().catch(() => null);
  return {ok: response.ok, data, message: response.ok ? (data?.message || "") : problem(data, response.status)};
}

/** The club's own Objective cards as its view shows them: the dealt one, and the Epic League's second. */
function objectives(game) {
  const club = (game?.clubs || []).find((c) => c.seat === seat);
  if (!club) return [];
  const out = [];
  if (club.objective) out.push({card: club.objective, result: club.objective_result, when: ""});
  const second = game?.modules?.epic_league?.second?.[String(seat)];
  if (second) out.push({card: second, result: null, when: SENTENCES.second});
  return out;
}

function drawObjectives(game) {
  const list = objectives(game);
  fill($("objectives"), h("h3", {}, list.length > 1 ? SENTENCES.objectives : SENTENCES.objective),
    list.length ? h("ul", {class: "notes", id: "objective-list"}, list.map((o) => h("li", {dataset: {card: o.card}},
      h("b", {}, cardName(o.card)), o.when ? ` (${o.when})` : "", o.result ? SENTENCES.result(o.result) : ` — ${SENTENCES.kept}`)))
      : h("p", {class: "hint"}, SENTENCES.none));
}

let editor = null;

function show(snapshot) {
  const game = snapshot.game;
  const club = (game?.clubs || []).find((c) => c.seat === seat);
  $("seat-title").textContent = club ? `Seat ${seat}: ${nameOf(club)}` : `Seat ${seat}`;
  fill($("seat-status"), status(game));
  drawObjectives(game);
  const arranging = (game?.awaiting || []).some((a) => a.seat === seat && a.need === "arrange");
  $("seat-arrange").hidden = !arranging;
  editor(snapshot);
  drawAsks($("seat-asks"), $("seat-msg"), {source: `/api/seat/${seat}/choices`, target: `/api/seat/${seat}/event`});
}

function open(csrf) {
  useCsrf(csrf);
  $("seat-lock").hidden = true;
  $("seat-own").hidden = false;
  editor = seatEditor(seat);
  const source = live(show, `/api/live?seat=${seat}`);
  // The table ends a seat's page when a new game begins (the seat was opened for the last game): when the stream
  // cannot come back because this browser no longer holds the seat, the page locks itself and says why, and shows
  // nothing of the last game.
  source.addEventListener("error", async () => {
    const mine = await (await fetch(`/api/seat/${seat}/session`, {credentials: "same-origin"})).json().catch(() => null);
    if (mine === null || mine.unlocked) return;  // the table is unreachable, or the stream comes back by itself
    source.close();
    for (const id of ["objectives", "seat-asks", "seat-msg"]) fill($(id));
    $("seat-arrange").hidden = true;
    $("seat-own").hidden = true;
    $("seat-lock").hidden = false;
    $("seat-tap").disabled = false;
    $("seat-title").textContent = `Seat ${seat}`;
    const badge = $("live");
    if (badge) { badge.dataset.state = "lost"; badge.textContent = "locked"; }
    say($("seat-lock-msg"), SENTENCES.ended);
  });
}

async function waitForTap() {
  const started = await call(`/api/seat/${seat}/claim`);
  say($("seat-lock-msg"), started.message, started.ok);
  if (!started.ok) return;
  $("seat-tap").disabled = true;
  const timer = setInterval(async () => {
    const r = await call(`/api/seat/${seat}/claim/check`);
    if (r.ok && r.data?.unlocked) { clearInterval(timer); say($("seat-lock-msg"), SENTENCES.unlocked); open(r.data.csrf); return; }
    if (!r.ok || !r.data?.waiting) { clearInterval(timer); $("seat-tap").disabled = false; say($("seat-lock-msg"), r.message, false); }
  }, CHECK_MS);
}

$("seat-tap").addEventListener("click", waitForTap);
$("seat-pin").addEventListener("submit", async (event) => {
  event.preventDefault();
  const r = await call(`/api/seat/${seat}/unlock`, {pin: $("seat-pin-value").value});
  if (!r.ok) { say($("seat-lock-msg"), r.message, false); return; }
  open(r.data.csrf);
});
$("seat-lock-again").addEventListener("click", async () => { await call(`/api/seat/${seat}/lock`); location.reload(); });

await cardNames();
const mine = await (await fetch(`/api/seat/${seat}/session`, {credentials: "same-origin"})).json().catch(() => null);
// The owner's PIN opens every seat's page: locking this one would not close it, so it is not offered.
if (mine?.unlocked) { open(mine.csrf); $("seat-lock-again").hidden = Boolean(mine.owner); }
else $("seat-lock").hidden = false;
