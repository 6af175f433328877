// Shared helpers of every page: building elements, the live stream, and calls that need the PIN.

/** Build an element: h("p", {class: "x", onclick: fn}, "text", child). Text is never parsed as HTML. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    // Through the CSSOM, which the page's Content-Security-Policy allows (inline style attributes it does not).
    else if (key === "style") el.style.cssText = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace an element's children. */
export function fill(el, ...children) {
  if (!el) return;
  el.replaceChildren();
  for (const child of children.flat(Infinity)) if (child !== undefined && child !== null && child !== false) el.append(child);
}

/** Words for the names the game data uses. */
export function words(name) {
  const s = String(name ?? "").replaceAll("_", " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The display name of a card-like thing: a string id or an object with a name or id. */
export function nameOf(thing) {
  if (thing === null || thing === undefined) return "";
  if (typeof thing === "string") return thing;
  return thing.name ?? thing.team ?? thing.id ?? "";
}

/** Open the live stream (``url``: a seat's own is ``/api/live?seat=N``) and call onSnapshot with each snapshot;
 * EventSource reconnects by itself. */
export function live(onSnapshot, url = "/api/live") {
  const badge = document.getElementById("live");
  const setState = (state, text) => { if (badge) { badge.dataset.state = state; badge.textContent = text; } };
  const source = new EventSource(url);
  source.addEventListener("open", () => setState("open", "live"));
  source.addEventListener("error", () => setState("lost", "reconnecting…"));
  source.addEventListener("snapshot", (event) => {
    setState("open", "live");
    let snapshot;
    try { snapshot = JSON.parse(event.data); } catch { return; }
    window.__snapshot = snapshot;
    // What the table cannot do right now (a full card, a damaged log): on every page, until it is solved.
    const banner = document.getElementById("problem");
    if (banner) { banner.textContent = snapshot.problem || ""; banner.hidden = !snapshot.problem; }
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
    onSnapshot(snapshot);
  });
  return source;
}

let csrf = null;

/** Ask whether this browser holds the PIN; remembers the CSRF token for later changes. */
export async function session() {
  const response = await fetch("/api/session", {credentials: "same-origin"});
  const data = await response.json();
  csrf = data.csrf;
  return data;
}

/** Send this CSRF token with later changes (a seat's own page holds its seat's session, not the PIN's). */
export function useCsrf(token) { csrf = token; }

/** The sentence to show for a refused or invalid request. */
export function problem(data, status) {
  if (!data) return `The table answered ${status}.`;
  if (data.message) return data.message;
  if (typeof data.detail === "string") return data.detail;
  if (Array.isArray(data.detail)) return data.detail.map((d) => `${d.field || (d.loc || []).join(".")}: ${d.msg}`).join("; ");
  return `The table answered ${status}.`;
}

/** POST JSON with this session's CSRF token; resolves to {ok, status, data, message}. */
export async function post(path, body = {}) {
  if (csrf === null) await session();
  let response;
  try {
    response = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: {"content-type": "application/json", "x-csrf-token": csrf || ""},
      body: JSON.stringify(body),
    });
  } catch {
    return {ok: false, status: 0, data: null, message: "The table cannot be reached. Check that it is running."};
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return {ok: response.ok, status: response.status, data, message: response.ok ? "" : problem(data, response.status)};
}

/** Show a short message in an element (role=status), as success or error. */
export function say(el, text, ok = true) {
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = ok ? "ok" : "error";
  el.hidden = !text;
}

// Mark the current page in the navigation.
for (const link of document.querySelectorAll("nav a")) {
  if (link.dataset.page === document.body.dataset.page) link.setAttribute("aria-current", "page");
}

/** A small PIN form that unlocks this browser, then calls done(). */
export function unlockForm(done) {
  const msg = h("p", {class: "msg", role: "status", hidden: true});
  const pin = h("input", {type: "password", inputmode: "numeric", required: true, maxlength: 32, "aria-label": "PIN"});
  const form = h("form", {class: "row unlock", onsubmit: async (event) => {
    event.preventDefault();
    const response = await fetch("/api/session", {method: "POST", credentials: "same-origin",
      headers: {"content-type": "application/json"}, body: JSON.stringify({pin: pin.value})});
    const data = await response.json().catch(() => null);
    if (!response.ok) { say(msg, problem(data, response.status), false); return; }
    csrf = data.csrf;
    done();
  }}, h("label", {}, "PIN ", pin), h("button", {type: "submit"}, "Unlock"));
  return h("div", {}, h("p", {class: "hint"}, "Using the table needs its PIN (printed when the table started)."), form, msg);
}

let names = null;

/** Card names by id, from the deck (fetched once per page). */
export async function cardNames() {
  if (names === null) {
    names = new Map();
    try {
      for (const card of await (await fetch("/api/deck")).json()) names.set(card.id, card.name);
    } catch { /* names fall back to ids */ }
  }
  return names;
}

/** A card's name when the deck is loaded, else its id in words. */
export function cardName(id) {
  if (id === null || id === undefined) return "";
  return names?.get(id) ?? words(id);
}

/** How the seats' colours named in the table file look on the page (the names a table file uses, drawn readable). */
const SEAT_PALETTE = {red: "#d7263d", blue: "#3f88c5", green: "#1b998b", yellow: "#e0a800", orange: "#f49d37",
  purple: "#8e44ad", black: "#2e4057", white: "#9aa5b1", pink: "#e0609a", brown: "#8d5b3a"};
const SEAT_FALLBACK = ["#d7263d", "#3f88c5", "#1b998b", "#e0a800"];

/** A seat's colour: the one its table file names (``seats[].colour``), else one of four by seat number. */
export function seatColour(seat) {
  const named = (window.__snapshot?.seats || []).find((s) => s.seat === Number(seat))?.colour;
  if (named) {
    const known = SEAT_PALETTE[String(named).toLowerCase()];
    if (known) return known;
    if (CSS.supports("color", named)) return named;
  }
  return SEAT_FALLBACK[(Number(seat) - 1 + SEAT_FALLBACK.length) % SEAT_FALLBACK.length];
}
