// Drawing the game view: status line, League table, clubs, log entries and final scoring.
import {h, nameOf, words} from "./common.js";

const ZONE_ORDER = ["def_left", "def_centre", "def_right", "mid_left", "mid_centre", "mid_right",
  "fwd_left", "fwd_centre", "fwd_right"];

/** "Week 2 of 8 · Monday · Seat 3's turn" and what the table waits for. */
export function status(game) {
  if (!game) {
    return [h("p", {class: "big"}, "No game is running."),
      h("p", {}, "Start one on the ", h("a", {href: "/admin"}, "Admin page"), " (it needs the table's PIN).")];
  }
  const parts = [];
  if (game.week !== undefined) parts.push(`Week ${game.week}${game.weeks ? ` of ${game.weeks}` : ""}`);
  const day = game.day ?? game.stage;
  if (day) parts.push(words(day));
  if (game.turn) parts.push(`Seat ${game.turn}'s turn`);
  if (game.over) parts.push("Game over");
  const waits = (game.awaiting || []).map(waitText).filter(Boolean);
  return [h("p", {class: "big", id: "when"}, parts.join(" · ")),
    waits.length ? h("ul", {class: "waiting"}, waits.map((w) => h("li", {}, w))) : null];
}

/** One sentence for one thing the table waits for. */
export function waitText(wait) {
  if (!wait) return "";
  if (wait.text) return wait.text;
  const who = wait.seat ? `Seat ${wait.seat}` : "The table";
  switch (wait.need) {
    case "card": return `${who}: tap a ${(wait.kinds || ["card"]).map(words).join(" or ").toLowerCase()} card.`;
    case "roll": return `${who}: press the button to roll the ${wait.die || "die"}${wait.purpose ? ` (${words(wait.purpose).toLowerCase()})` : ""}${wait.team ? ` for ${wait.team}` : ""}.`;
    case "keep_or_reroll": return `${who}: rolled ${wait.value}; press to reroll, hold to keep.`;
    case "action": return `${who}: take an action (tap a card) or pass.`;
    case "lineup": return `${who}: set the lineup on the Lineup page.`;
    default: return `${who}: ${words(wait.need || "")}`.trim();
  }
}

function num(value) {
  if (value === undefined || value === null) return "–";
  if (typeof value === "object") return value.total ?? value.step ?? value.due ?? value.value ?? "–";
  return value;
}

/** The League table: every club and Opponent team. */
export function league(game) {
  const rows = [...(game?.league || [])].sort((a, b) => (a.position ?? 99) - (b.position ?? 99));
  if (!rows.length) return h("p", {class: "hint"}, "The League table appears once a game starts.");
  return h("table", {class: "league"},
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Team"), h("th", {}, "Pts"), h("th", {}, "VP now"), h("th", {}, ""))),
    h("tbody", {}, rows.map((row) => h("tr", {class: [row.seat ? "club" : "opponent", row.active === false ? "inactive" : ""].join(" "),
      dataset: {team: nameOf(row)}},
    h("td", {}, row.position ?? ""), h("td", {}, nameOf(row), row.seat ? h("span", {class: "seat"}, ` seat ${row.seat}`) : ""),
    h("td", {class: "n"}, num(row.points)), h("td", {class: "n"}, num(row.vp)),
    h("td", {class: "tag"}, row.active === false ? "inactive" : "")))));
}

function dl(obj, cls) {
  if (!obj || typeof obj !== "object") return h("p", {class: "hint"}, "—");
  const entries = Object.entries(obj).filter(([, v]) => typeof v !== "object" || v === null);
  if (!entries.length) return h("p", {class: "hint"}, "—");
  return h("dl", {class: cls || "kv"}, entries.map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, v ?? "–")]));
}

function cardList(items, empty) {
  const list = Array.isArray(items) ? items : items && typeof items === "object" ? Object.values(items).flat() : [];
  if (!list.length) return h("p", {class: "hint"}, empty);
  return h("ul", {class: "chips"}, list.map((item) => h("li", {}, nameOf(item),
    item && item.contract ? h("small", {}, ` ${item.contract}`) : null,
    item && item.suspension ? h("span", {class: "badge warn"}, `suspended ${item.suspension}`) : null)));
}

function staffBySet(staff) {
  if (!staff || (Array.isArray(staff) && !staff.length) || (typeof staff === "object" && !Object.keys(staff).length)) {
    return h("p", {class: "hint"}, "No Staff yet.");
  }
  if (Array.isArray(staff)) {
    const sets = {};
    for (const s of staff) (sets[s.set || s.role || "staff"] ||= []).push(s);
    staff = sets;
  }
  return h("dl", {class: "kv"}, Object.entries(staff).map(([set, members]) => [h("dt", {}, words(set)),
    h("dd", {}, Array.isArray(members) ? members.map(nameOf).join(", ") || "–" : members)]));
}

function players(list) {
  if (!list || !list.length) return h("p", {class: "hint"}, "No Player cards yet (jersey markers play at Strength 1).");
  return h("table", {class: "players"},
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Str"), h("th", {}, ""))),
    h("tbody", {}, [...list].sort((a, b) => (a.jersey ?? 99) - (b.jersey ?? 99)).map((p) => h("tr", {},
      h("td", {class: "n"}, p.jersey ?? ""),
      h("td", {}, nameOf(p), p.style ? h("span", {class: `style ${p.style}`, title: p.style}, p.style === "attack" ? " ⚽" : " 🛡") : "",
        p.trained ? h("small", {}, " trained") : ""),
      h("td", {class: "n"}, p.strength ?? ""),
      h("td", {}, p.injury ? h("span", {class: "badge bad"}, `injured ${p.injury}w`) : "",
        p.suspension ? h("span", {class: "badge warn"}, `suspended ${p.suspension}w`) : "",
        p.vp ? h("span", {class: "badge"}, `${p.vp} VP`) : "")))));
}

/** One club's card: everything a player would otherwise track by hand. */
export function club(c) {
  const vp = typeof c.vp === "object" && c.vp !== null ? (c.vp.total ?? c.vp.tokens) : c.vp;
  return h("article", {class: "club", dataset: {seat: c.seat}},
    h("header", {}, h("h3", {}, nameOf(c)), h("span", {class: "seat"}, `Seat ${c.seat}`),
      h("span", {class: "vp", title: "VP so far"}, `${vp ?? 0} VP`)),
    c.directors && c.directors.length ? h("p", {class: "directors"}, "Directors: ", c.directors.map(nameOf).join(", ")) : null,
    h("div", {class: "grid2"},
      h("div", {}, h("h4", {}, "Resources"), dl(c.resources, "kv resources")),
      h("div", {}, h("h4", {}, "Stat levels"), dl(c.stats, "kv stats"))),
    h("div", {class: "grid2"},
      h("div", {}, h("h4", {}, "Maintenance due"), typeof c.maintenance === "object" ? dl(c.maintenance) : h("p", {}, num(c.maintenance))),
      h("div", {}, h("h4", {}, "Office"), typeof c.office === "object" ? dl(c.office) : h("p", {}, `Step ${num(c.office)}`))),
    h("h4", {}, "Sponsors"), cardList(c.sponsors, "No Sponsors yet."),
    h("h4", {}, "Staff by set"), staffBySet(c.staff),
    h("h4", {}, "Infrastructure"), cardList(c.infrastructure, "Nothing built yet."),
    h("h4", {}, "Players"), players(c.players));
}

/** The zone-by-zone breakdown of a match, as a table. */
export function zones(list) {
  const rows = [...list].sort((a, b) => ZONE_ORDER.indexOf(a.zone) - ZONE_ORDER.indexOf(b.zone));
  return h("table", {class: "zones"}, h("tbody", {}, rows.map((z) => h("tr", {},
    h("th", {}, words(z.zone)), h("td", {}, z.text ?? `${z.scored ?? 0}–${z.conceded ?? 0}`)))));
}

/** One announcement as a readable log entry. */
export function logItem(item) {
  const details = [];
  if (item.votes && typeof item.votes === "object") {
    details.push(h("ul", {class: "votes"}, Object.entries(item.votes).map(([who, vote]) =>
      h("li", {}, `${words(who)}: `, h("span", {class: `vote ${vote}`}, String(vote))))));
  }
  if (Array.isArray(item.zones) && item.zones.length) details.push(zones(item.zones));
  const kind = item.kind ? words(item.kind) : "";
  return h("li", {class: `entry ${item.kind || ""}`, dataset: {kind: item.kind || ""}},
    h("span", {class: "meta"}, [item.week ? `W${item.week}` : "", item.seat ? `Seat ${item.seat}` : "", kind].filter(Boolean).join(" · ")),
    item.roll !== undefined ? h("span", {class: "die", title: "roll"}, String(item.roll)) : null,
    h("span", {class: "text"}, item.text || ""), details);
}

/** The final scoring: breakdown per club, the winner, and the tie-break when it decided. */
export function finalScoring(game) {
  const fin = game?.final;
  if (!fin) return null;
  const clubs = fin.clubs || [];
  const keys = [...new Set(clubs.flatMap((c) => Object.keys(c.breakdown || {})))];
  const winners = (fin.winners || []).map((w) => (typeof w === "object" ? nameOf(w) : (clubs.find((c) => c.seat === w) || {}).name || `Seat ${w}`));
  return h("div", {class: "final"},
    h("h2", {}, "Final scoring"),
    winners.length ? h("p", {class: "winner"}, winners.length > 1 ? `Shared victory: ${winners.join(" and ")}` : `Winner: ${winners[0]}`) : null,
    fin.tie_break ? h("p", {class: "tiebreak"}, `Tie-break: ${fin.tie_break}`) : null,
    h("div", {class: "scroll"}, h("table", {class: "breakdown"},
      h("thead", {}, h("tr", {}, h("th", {}, ""), clubs.map((c) => h("th", {}, nameOf(c))))),
      h("tbody", {}, keys.map((k) => h("tr", {}, h("th", {}, words(k)), clubs.map((c) => h("td", {class: "n"}, (c.breakdown || {})[k] ?? 0)))),
        h("tr", {class: "total"}, h("th", {}, "Total"), clubs.map((c) => h("td", {class: "n"}, c.total ?? "")))))));
}
