// The steps only the page can give (build, Office, Club potential, hire, Sponsor, pass, Suspensions, Objectives):
// drawn from /api/choices, each option is the engine event to submit; options the rules refuse now say why.
import {fill, h, post, say} from "./common.js";

const GROUPS = {build: "Build Stadium Infrastructure", office: "Office track", potential: "Club potential",
  hire: "Hire (when the pad missed the card)", sponsor: "Sponsor contract", use: "Use an Infrastructure token", pass: "End the turn",
  bet: "Bet", auction: "Sell to another club by auction", offer: "Offer for another club's footballer", bid: "Bid"};
let shown = "";
const DONE_SHOWN_MS = 10000;

function field(f) {
  return h("label", {}, `${f.label} `, h("select", {dataset: {name: f.name, list: f.list ? "1" : "", number: f.number ? "1" : ""}, "aria-label": f.label},
    f.choices.map((c) => h("option", {value: c.value}, c.label))));
}

function option(opt, msg, target) {
  const fields = (opt.fields || []).filter((f) => f.choices.length || !f.list);
  const send = async (event) => {
    const row = event.target.closest(".choice");
    const body = {...opt.event};
    for (const sel of row.querySelectorAll("select[data-name]")) {
      const name = sel.dataset.name;
      const value = sel.dataset.number ? Number(sel.value) : sel.value;  // a count the event takes as a number
      if (sel.dataset.list) body[name] = [...(body[name] || []), value];
      else body[name] = value;
    }
    event.target.disabled = true;
    const r = await post(target, body);
    event.target.disabled = false;
    const text = r.ok ? `Done: ${opt.label.split(" (")[0]}.` : r.message;
    say(msg, text, r.ok);
    // A confirmation belongs to the step just taken: it goes after a while, before the game has moved far on.
    if (r.ok) setTimeout(() => { if (msg.textContent === text) say(msg, ""); }, DONE_SHOWN_MS);
  };
  const missing = (opt.fields || []).some((f) => !f.choices.length);
  const why = opt.why_not || (missing ? "nothing to choose from" : "");
  return h("div", {class: `choice row wrap${why ? " off" : ""}`, dataset: {group: opt.group || "", type: opt.event.type}},
    why ? null : fields.map(field),
    h("button", {type: "button", class: opt.group === "pass" ? "quiet" : "primary", disabled: Boolean(why), onclick: send}, opt.label),
    why ? h("small", {class: "why"}, ` — not now: ${why}`) : null);
}

function ask(a, msg, target) {
  const groups = [];
  for (const opt of a.options) {
    const g = opt.group || "";
    let box = groups.find((x) => x.g === g);
    if (!box) groups.push(box = {g, opts: []});
    box.opts.push(opt);
  }
  return h("article", {class: "ask", dataset: {seat: a.seat, need: a.need}},
    h("h3", {}, a.title), a.hint ? h("p", {class: "hint"}, a.hint) : null,
    groups.map(({g, opts}) => {
      const body = opts.map((o) => option(o, msg, target));
      if (!g || g === "pass" || g === "bet" || g === "bid") return body;
      // Everything the rules refuse now folds away, so the choices that work stand out on a phone.
      const open = opts.some((o) => !o.why_not);
      return h("details", {open: open && ["build", "office", "potential", "offer"].includes(g)}, h("summary", {}, GROUPS[g] || g,
        open ? "" : h("small", {}, " (not possible now)")), body);
    }));
}

/** Draw what the page can answer now into ``box`` (call on every snapshot); messages go to ``msg``.  A seat's own
 * page reads its asks from ``source`` and sends them to ``target``. */
export async function drawAsks(box, msg, {source = "/api/choices", target = "/api/actions/event"} = {}) {
  if (!box) return;
  let data;
  try { data = await (await fetch(source)).json(); } catch { return; }
  const key = JSON.stringify(data.asks || []);
  if (key === shown) return;  // keep what someone is choosing in a list while nothing changed
  shown = key;
  const asks = data.asks || [];
  box.hidden = !asks.length;
  fill(box, asks.length ? [h("h2", {}, "Steps on the page"), asks.map((a) => ask(a, msg, target))] : null);
}
