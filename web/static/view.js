// Drawing the game view: status line, League table, clubs, log entries and final scoring.
// Every field may be missing (a game not started, a club with no Sponsors): nothing here assumes it is there.
import {cardName, h, nameOf, seatColour, words} from "./common.js";

export {seatColour};

export const ZONE_ORDER = ["fwd_left", "fwd_centre", "fwd_right", "mid_left", "mid_centre", "mid_right",
  "def_left", "def_centre", "def_right"];

/** A seat's club by its name, as players call it ("Seat 3" only before the club has one). */
export function clubOf(game, seat) {
  return nameOf((game?.clubs || []).find((c) => c.seat === seat)) || `Seat ${seat}`;
}

/** "Week 2 of 8 · Monday · Riverside's turn" and what the table waits for. */
export function status(game) {
  if (!game) {
    return [h("p", {class: "big", id: "when"}, "No game is running."),
      h("p", {}, "Start one on the ", h("a", {href: "/admin"}, "Admin page"), " (it needs the table's PIN).")];
  }
  const parts = [];
  if (game.week) parts.push(`Week ${game.week}${game.weeks ? ` of ${game.weeks}` : ""}`);
  const stage = game.stage_name ?? words(game.stage ?? "");
  if (stage) parts.push(stage);
  if (game.turn) parts.push(`${clubOf(game, game.turn)}'s turn`);
  const waits = (game.awaiting || []).filter((w) => waitText(w, game));
  const ownPage = (w) => location.pathname === `/seat/${w.seat}` ? null : [" ", h("a", {href: `/seat/${w.seat}`}, `Open seat ${w.seat}'s own page`)];
  const onPage = (w) => (["arrange", "winter_objective", "bet"].includes(w.need) && w.seat ? ownPage(w) : ["lineup", "kickoff"].includes(w.need) ? [" ", h("a", {href: "/lineup"}, "Open the Lineup page")]
    : (w.page || ["action", "suspensions", "objective_result", "bet", "betting_cards", "winter_tokens", "winter_pick", "winter_place"].includes(w.need)) && document.body.dataset.page !== "play"
      && !document.getElementById("asks") ? [" ", h("a", {href: "/play"}, "Open the Play page")] : null);
  // Which rules the game plays (the engine's own line): the Table page and the TV say it under the stage.
  const rules = game.game?.titles?.length ? h("p", {class: "rules", id: "game-rules"}, game.game.text) : null;
  return [h("p", {class: "big", id: "when"}, parts.join(" · ")), rules,
    waits.length ? h("ul", {class: "waiting"}, waits.map((w) => h("li", {}, waitText(w, game), onPage(w)))) : null];
}

const HALF_WORDS = {1: "first half", 2: "second half"};
const MOMENT_WORDS = {after_reveal: "after the reveal", before_match: "before the match"};

/** One sentence for one thing the table waits for (``game``: the view, to name the club). */
export function waitText(wait, game) {
  if (!wait) return "";
  if (wait.text) return wait.text;
  const who = wait.seat ? clubOf(game, wait.seat) : "The table";
  switch (wait.need) {
    case "card": return `${who}: tap a ${wait.what || (wait.kinds || ["card"]).map(words).join(" or ").toLowerCase() + " card"}.`;
    case "roll": return `${who}: press the button to roll the ${wait.die || "die"}${wait.purpose ? ` (${words(wait.purpose).toLowerCase()})` : ""}${wait.team ? ` for ${words(wait.team)}` : ""}.`;
    // As the table reads its buttons: a second press soon after the roll rerolls it; waiting (or doing anything else)
    // keeps it. A hold keeps it too, and then counts as a hold (on a turn day: ending the turn).
    case "keep_or_reroll": return `${who}: rolled ${wait.value}${wait.rerollable === false ? "" : " — press again within a few seconds to reroll (1 Fanbase), or wait and it is kept"}.`;
    case "action": return wait.free_only
      ? `${who}: a free action (tap a card) or hold the button to end the turn.`
      : `${who}: take an action — tap a card, or build, move on the Office track or raise a Stat on the page — or hold the button to pass.`;
    case "lineup": return `${who}: set the lineup on the Lineup page.`;
    case "kickoff": return `${who}: kick off on the Lineup page.`;
    case "suspensions": return `${who}: ${wait.count} € of Maintenance missing — choose cards to suspend.`;
    case "objective_result": return `${who}: say how far the Objective ${cardName(wait.card)} was fulfilled.`;
    case "first_player": return "Choose the First player.";
    case "formation": return `${who}: declare the formation for the ${HALF_WORDS[wait.half] || "half"} (the button steps through them, a hold declares; or the Play page).`;
    case "arrange": return `${who}: arrange the jersey markers for the ${HALF_WORDS[wait.half] || "half"} in secret${wait.shape ? ` (a ${wait.shape})` : ""}.`;
    case "abilities": return `${who}: use an ability ${MOMENT_WORDS[wait.timing] || ""} (tap the card) or hold the button to pass.`;
    case "half": return `${who}: use abilities during the ${HALF_WORDS[wait.half] || "half"}, then hold the button when ready.`;
    default: return `${who}: ${words(wait.need || "")}`.trim();
  }
}

/** The score breakdown row of a seat (its VP so far, or at the end). */
export function scoreOf(game, seat) {
  return (game?.final || game?.scores || []).find((row) => row.seat === seat);
}

/** The League table: every club and Opponent team. */
export function league(game) {
  const rows = [...(game?.league || [])].sort((a, b) => (a.position ?? 99) - (b.position ?? 99));
  if (!rows.length) return h("p", {class: "hint"}, "The League table appears once a game starts.");
  return h("table", {class: "league"},
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Team"), h("th", {class: "n"}, "Pts"),
      h("th", {class: "n"}, "VP now"), h("th", {}, ""))),
    h("tbody", {}, rows.map((row) => h("tr", {class: [row.kind === "club" || row.seat ? "clubrow" : "opponent", row.inactive ? "inactive" : ""].join(" "),
      dataset: {team: nameOf(row)}, style: row.seat ? `--seat:${seatColour(row.seat)}` : undefined},
    h("td", {}, row.position ?? ""),
    h("td", {}, row.name ?? nameOf(row), row.seat ? h("span", {class: "seat"}, ` seat ${row.seat}`) : ""),
    h("td", {class: "n"}, row.points ?? 0), h("td", {class: "n"}, row.vp ?? ""),
    h("td", {class: "tag"}, row.inactive ? "inactive" : row.kind === "opponent" ? "active" : "")))));
}

function dl(obj, cls) {
  const entries = Object.entries(obj || {}).filter(([, v]) => v === null || typeof v !== "object");
  if (!entries.length) return h("p", {class: "hint"}, "—");
  return h("dl", {class: cls || "kv"}, entries.map(([k, v]) => [h("dt", {}, words(k)), h("dd", {dataset: {key: k}}, v ?? "–")]));
}

function chips(list, empty) {
  if (!list.length) return h("p", {class: "hint"}, empty);
  return h("ul", {class: "chips"}, list.map((item) => h("li", {}, item)));
}

function sponsors(s) {
  if (Array.isArray(s)) return chips(s.map(nameOf), "No Sponsors yet.");
  const list = [];
  if (s?.shirt) list.push([cardName(s.shirt), h("small", {}, " shirt")]);
  for (const id of s?.adboards || []) list.push([cardName(id), h("small", {}, " adboard")]);
  for (const id of s?.megaphones || []) list.push([cardName(id), h("small", {}, " megaphone")]);
  return chips(list, "No Sponsors yet.");
}

function staffBySet(staff) {
  const list = Array.isArray(staff) ? staff : [];
  if (!list.length) return h("p", {class: "hint"}, "No Staff yet.");
  const sets = {};
  for (const s of list) (sets[s.set || "other"] ||= []).push(s);
  return h("dl", {class: "kv staff"}, Object.entries(sets).map(([set, members]) => [h("dt", {}, words(set)),
    h("dd", {}, members.map((m) => [nameOf(m), m.profession ? h("small", {}, ` ${m.profession}`) : "",
      m.suspension ? h("span", {class: "badge warn"}, `suspended ${m.suspension}`) : ""]).flatMap((x, i) => (i ? [", ", x] : [x])))]));
}

/** A footballer's symbol in letters: attackers score, defenders block (no emoji font needed). */
export function side(style) {
  return h("span", {class: `side ${style}`, title: style === "attack" ? "attacker (scores)" : "defender (blocks)"},
    style === "attack" ? "ATT" : "DEF");
}

function players(list) {
  if (!list || !list.length) return h("p", {class: "hint"}, "No Player cards yet (jersey markers play at Strength 1).");
  return h("table", {class: "players"},
    h("thead", {}, h("tr", {}, h("th", {class: "n"}, "#"), h("th", {}, "Player"), h("th", {class: "n"}, "Str"), h("th", {}, ""))),
    h("tbody", {}, [...list].sort((a, b) => (a.jersey ?? 99) - (b.jersey ?? 99)).map((p) => h("tr", {dataset: {card: p.id}},
      h("td", {class: "n"}, p.jersey ?? ""),
      h("td", {}, nameOf(p), p.style ? side(p.style) : "",
        (p.sections || []).length ? h("small", {}, ` ${(p.sections || []).join("/")}`) : "", p.trained ? h("small", {}, " trained") : ""),
      h("td", {class: "n"}, p.strength ?? ""),
      h("td", {}, p.injury ? h("span", {class: "badge bad"}, `injured ${p.injury}w`) : "",
        p.suspension ? h("span", {class: "badge warn"}, `suspended ${p.suspension}w`) : "",
        p.vp ? h("span", {class: "badge"}, `${p.vp} VP`) : "")))));
}

/** One club's card: everything a player would otherwise track by hand. */
export function club(c, game) {
  const score = scoreOf(game, c.seat);
  const vp = score ? score.total : (c.vp_tokens ?? 0);
  const maintenance = c.maintenance && typeof c.maintenance === "object" ? c.maintenance : {total: c.maintenance};
  return h("article", {class: "club", dataset: {seat: c.seat}},
    h("header", {}, h("h3", {}, nameOf(c)), h("span", {class: "seat"}, `Seat ${c.seat}`),
      h("span", {class: "vp", title: "VP so far (the final scoring if the game ended now)"}, `${vp} VP`)),
    h("p", {class: "directors"},
      (c.directors || []).length ? ["Directors: ", c.directors.map(nameOf).join(", ")] : null,
      c.opponent ? [h("br"), "This week: ", nameOf(c.opponent)] : null,
      c.league_points !== undefined ? [h("br"), `League points: ${c.league_points}`] : null),
    h("div", {class: "grid2"},
      h("div", {}, h("h4", {}, "Resources"), dl(c.resources, "kv resources")),
      h("div", {}, h("h4", {}, "Stat levels"), dl(c.stats, "kv stats"))),
    h("div", {class: "grid2"},
      h("div", {}, h("h4", {}, "Maintenance due"), dl(maintenance)),
      h("div", {}, h("h4", {}, "Office"), h("p", {class: "office"}, `Step ${typeof c.office === "object" ? (c.office?.step ?? 0) : (c.office ?? 0)}`,
        score?.office !== undefined ? h("small", {}, ` (${score.office} VP)`) : ""),
      c.vp_tokens !== undefined ? h("p", {}, `VP tokens: ${c.vp_tokens}`) : null)),
    h("h4", {}, "Sponsors"), sponsors(c.sponsors),
    h("h4", {}, "Staff by set"), staffBySet(c.staff),
    h("h4", {}, "Infrastructure"), chips((c.infrastructure || []).map(nameOf), "Nothing built yet."),
    moduleNotes(game, c.seat),
    h("h4", {}, "Players"), players(c.players),
    (c.objective || (c.tactics || []).length) ? h("p", {class: "hint"},
      c.objective ? `Objective: ${cardName(c.objective)}${c.objective_result ? ` (${c.objective_result})` : ""}. ` : "",
      (c.tactics || []).length ? `Tactics: ${c.tactics.map(cardName).join(", ")}.` : "") : null);
}

/** What the game's rule modules say about one club (its Unique Setup cards...), in the engine's words. */
function moduleNotes(game, seat) {
  const out = [];
  for (const part of Object.values(game?.modules || {})) {
    for (const note of part?.clubs?.[String(seat)] || []) {
      out.push(h("div", {class: "module-note"}, h("h4", {}, note.title), h("ul", {class: "notes"}, (note.items || []).map((i) => h("li", {}, i)))));
    }
  }
  return out;
}

/** What the game's rule modules show the whole table (the Market deck, the new tokens), in the engine's words. */
export function panels(game) {
  return Object.entries(game?.modules || {}).filter(([, part]) => part?.panel).map(([name, part]) =>
    h("section", {class: "module-panel", dataset: {module: name}}, h("h2", {}, part.panel.title),
      h("ul", {class: "notes"}, (part.panel.items || []).map((i) => h("li", {}, i)))));
}

function strengths(list) { return list && list.length ? list.join("+") : "–"; }

/** The zone-by-zone breakdown of a match, the way the rulebook's example reads. */
export function zones(list) {
  const rows = [...list].sort((a, b) => ZONE_ORDER.indexOf(a.zone) - ZONE_ORDER.indexOf(b.zone));
  return h("div", {class: "scroll"}, h("table", {class: "zones"},
    h("thead", {}, h("tr", {}, h("th", {}, "Zone"), h("th", {title: "our attackers' Strength v their defenders'"}, "We attack"),
      h("th", {title: "their attackers' Strength v our defenders'"}, "They attack"), h("th", {class: "n"}, "Goals"))),
    h("tbody", {}, rows.map((z) => h("tr", {dataset: {zone: z.zone}},
      h("th", {}, words(z.zone)),
      h("td", {}, z.text ?? `${strengths(z.our_attack)} v ${strengths(z.their_defence)}`),
      h("td", {}, z.text ? "" : `${strengths(z.their_attack)} v ${strengths(z.our_defence)}`),
      h("td", {class: "n"}, `${z.scored ?? 0}–${z.conceded ?? 0}`))))));
}

/** Announcements worth a line of their own in the log (a match's zones are shown inside its result). */
export function readable(item) { return item && item.kind !== "zone"; }

/** One announcement as a readable log entry. */
export function logItem(item) {
  const details = [];
  if (item.votes && typeof item.votes === "object") {
    details.push(h("ul", {class: "votes"}, Object.entries(item.votes).map(([who, vote]) =>
      h("li", {}, `${cardName(who)}: `, h("span", {class: `vote ${vote}`}, String(vote))))));
  }
  if (Array.isArray(item.zones) && item.zones.length) details.push(zones(item.zones));
  const roll = item.roll ?? (item.kind === "roll" || item.kind === "opponent_die" ? item.value : undefined);
  return h("li", {class: `entry ${item.kind || ""}`, dataset: {kind: item.kind || ""}},
    h("span", {class: "meta"}, [item.week ? `Week ${item.week}` : "", item.club || (item.seat ? `Seat ${item.seat}` : ""), words(item.kind || "")].filter(Boolean).join(" · ")),
    roll !== undefined && roll !== null ? h("span", {class: "die", title: "die result"}, String(roll)) : null,
    h("span", {class: "text"}, item.text || ""), details);
}

/** Who won and, when points were level, how the tie was broken. */
export function verdict(rows) {
  const winners = rows.filter((r) => r.winner || r.rank === 1);
  if (!winners.length) return {winners: [], tieBreak: ""};
  const best = winners[0].total;
  const level = rows.filter((r) => r.total === best);
  let tieBreak = "";
  if (level.length > 1 && winners.length === 1) {
    tieBreak = `${level.map(nameOf).join(" and ")} both scored ${best} VP; ${nameOf(winners[0])} finished higher in the League (position ${winners[0].position}).`;
  } else if (winners.length > 1) {
    tieBreak = `${winners.map(nameOf).join(" and ")} are level on VP and League position, so they share the victory.`;
  }
  return {winners, tieBreak};
}

const PARTS = ["league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget"];

/** The final scoring: breakdown per club, the winner, and the tie-break when it decided. */
export function finalScoring(game) {
  const rows = Array.isArray(game?.final) ? game.final : game?.final?.clubs;
  if (!rows || !rows.length) return null;
  const keys = PARTS.filter((k) => rows.some((r) => k in r));
  const {winners, tieBreak} = verdict(rows);
  return h("div", {class: "final"},
    h("h2", {}, "Final scoring"),
    winners.length ? h("p", {class: "winner", id: "winner"}, winners.length > 1 ? `Shared victory: ${winners.map(nameOf).join(" and ")}` : `Winner: ${nameOf(winners[0])}`) : null,
    tieBreak ? h("p", {class: "tiebreak", id: "tiebreak"}, `Tie-break: ${tieBreak}`) : null,
    h("div", {class: "scroll"}, h("table", {class: "breakdown"},
      h("thead", {}, h("tr", {}, h("th", {}, ""), rows.map((r) => h("th", {class: "n"}, nameOf(r))))),
      h("tbody", {}, keys.map((k) => h("tr", {}, h("th", {}, words(k)), rows.map((r) => h("td", {class: "n"}, r[k] ?? 0)))),
        h("tr", {class: "total"}, h("th", {}, "Total"), rows.map((r) => h("td", {class: "n"}, r.total ?? "")))))));
}

/** The Bet board of the Betting module: its spaces as laid out, the bets as this viewer may see them, the cards with
 * the remaining tokens and last week's winning space (null when the game does not play Betting). */
export function betBoard(game) {
  const b = game?.modules?.betting;
  if (!b) return null;
  const settled = b.settled;
  const covered = {};  // space -> seats whose shown bet covers it
  for (const bet of b.bets || []) for (const space of bet.on || []) (covered[space] ||= []).push(bet.seat);
  const width = Math.max(...(b.rows || [[]]).map((r) => r.length));
  const grid = h("table", {class: "betboard", id: "betboard"}, h("tbody", {}, (b.rows || []).map((row) => h("tr", {},
    Array.from({length: width}, (_, i) => row[i] || "").map((space) => space
      ? h("td", {class: [settled?.space === space ? "won" : "", covered[space] ? "bet" : ""].join(" ").trim(), dataset: {space}},
        space, (covered[space] || []).map((seat) => h("span", {class: "token", style: `--seat:${seatColour(seat)}`, title: `Seat ${seat}'s token`}, String(seat))))
      : h("td", {class: "gap"}))))));
  const clubName = (seat) => clubOf(game, seat);
  const betLine = (bet) => {
    if (bet.on) return `${clubName(bet.seat)}: ${bet.on_token} € on ${bet.label}`;
    if (bet.secret) return `${clubName(bet.seat)}: token placed (secret until every club has answered)`;
    if (bet.answered) return `${clubName(bet.seat)}: no bet this week`;
    return `${clubName(bet.seat)}: still to answer`;
  };
  const open = b.open || (b.bets || []).some((x) => x.placed);
  return [
    h("h2", {}, "Bet board"),
    h("p", {class: "hint"}, `A space pays ×${b.pay?.space}, the border of two ×${b.pay?.border}, the corner of four ×${b.pay?.corner} of every € on the token.`),
    (b.cards || []).length ? h("p", {id: "bet-tokens"}, "Betting tokens also on: ", b.cards.map((c) => c.name).join(", ")) : null,
    h("div", {class: "scroll"}, grid),
    open ? h("ul", {class: "bets", id: "bets"}, (b.bets || []).map((bet) => h("li", {dataset: {seat: bet.seat}}, betLine(bet)))) : null,
    settled ? h("p", {class: "settled", id: "bet-settled"}, `Week ${settled.week}: the winning space was ${settled.space} (`,
      (settled.results || []).map((r) => `${r.name} ${r.result}`).join(", "), "). ",
      (settled.bets || []).map((x) => x.gain ? `${clubName(x.seat)} won ${x.gain} €` : `${clubName(x.seat)} lost ${x.on_token} €`).join("; ")) : null,
  ];
}

/** This week's matches between clubs (the League matches between clubs module): Host and Visitor, where each match
 * stands, each half's five pairs of sections zone by zone, and the tie-break; null when the game plays none now. */
export function clubMatches(game) {
  const part = game?.modules?.club_matches;
  const fixtures = part?.fixtures || [];
  if (!fixtures.length) return null;
  const clubName = (seat) => clubOf(game, seat);
  return [h("h2", {}, "Matches between clubs"), fixtures.map((f) => {
    const goals = (seat) => f.halves.reduce((n, half) => n + (half.goals?.[String(seat)] ?? 0), 0);
    const shapes = Object.keys(f.shapes || {}).length
      ? h("p", {class: "shapes"}, `${HALF_WORDS[f.half] ? HALF_WORDS[f.half][0].toUpperCase() + HALF_WORDS[f.half].slice(1) : ""}: `,
        `${clubName(f.host)} ${f.shapes[String(f.host)] ?? "?"}, ${clubName(f.visitor)} ${f.shapes[String(f.visitor)] ?? "?"}`) : null;
    return h("article", {class: "fixture", dataset: {host: f.host, visitor: f.visitor}},
      h("h3", {}, h("span", {style: `--seat:${seatColour(f.host)}`, class: "seatname"}, `${clubName(f.host)} (Host, seat ${f.host})`),
        f.halves.length ? h("b", {class: "score"}, ` ${goals(f.host)}–${goals(f.visitor)} `) : " v ",
        h("span", {style: `--seat:${seatColour(f.visitor)}`, class: "seatname"}, `${clubName(f.visitor)} (Visitor, seat ${f.visitor})`)),
      h("p", {class: "step"}, fixtureStep(f, clubName)), shapes,
      f.halves.map((half) => h("section", {class: "half", dataset: {half: half.half}},
        h("h4", {}, `${half.half === 1 ? "First" : "Second"} half: ${clubName(f.host)} ${half.goals[String(f.host)]}–${half.goals[String(f.visitor)]} ${clubName(f.visitor)}`),
        h("div", {class: "scroll"}, h("table", {class: "pairs"},
          h("thead", {}, h("tr", {}, h("th", {}, "Pair"), h("th", {}, "Zone"),
            h("th", {title: `${clubName(half.first)}'s attackers v ${clubName(half.second)}'s defenders`}, `${clubName(half.first)} attacks`),
            h("th", {title: `${clubName(half.second)}'s attackers v ${clubName(half.first)}'s defenders`}, `${clubName(half.second)} attacks`),
            h("th", {class: "n"}, "Goals"))),
          h("tbody", {}, half.sections.flatMap((sec) => sec.zones.map((z, i) => h("tr", {dataset: {section: sec.section, zone: z.zone}},
            i === 0 ? h("th", {rowspan: sec.zones.length}, sec.words) : null,
            h("td", {}, `${words(z.zone)} v ${words(z.facing)}`),
            h("td", {}, `${strengths(z.attack)} v ${strengths(z.their_defence)}${z.saved ? ` (${z.saved} blocked)` : ""}`),
            h("td", {}, `${strengths(z.their_attack)} v ${strengths(z.defence)}${z.blocked ? ` (${z.blocked} blocked)` : ""}`),
            h("td", {class: "n"}, `${z.scored}–${z.conceded}`))))))))),
      (f.tiebreaks || []).length ? h("p", {class: "tiebreak"}, "Tie-break: ", f.tiebreaks.map((round) =>
        round.map((r) => `${clubName(r.seat)} rolled ${r.die} → ${r.score}`).join(", ")).join("; then "),
      f.winner ? ` — ${clubName(f.winner)} wins.` : "") : null);
  })];
}

/** Where a match between clubs stands, in words. */
function fixtureStep(f, clubName) {
  const half = HALF_WORDS[f.half] || "half";
  switch (f.step) {
    case "formation": return `${clubName(f.declarer)} declares its formation for the ${half}.`;
    case "arrange": return `The ${half}${f.shape ? `: ${clubName(f.declarer)} plays a ${f.shape}` : ""}; arranged in secret so far: ${
      (f.arranged || []).length ? f.arranged.map(clubName).join(", ") : "nobody"}.`;
    case "after_reveal": case "before_match": return `Abilities ${MOMENT_WORDS[f.step]}: ${clubName(f.turn)}'s turn.`;
    case "half": return `The ${half} is being played: ready so far: ${(f.passed || []).map(clubName).join(", ") || "nobody"}.`;
    case "tiebreak": return "Level: each club rolls a d6 minus the other's Goalkeeper's luck.";
    case "played": return "Played.";
    default: return words(f.step || "");
  }
}

/** The Epic League (its module's view): the Winter Break's step, the tokens revealed, taken and on the clubs' cards,
 * the Objectives scored at the break, and the VP by League position; null when the game is not an Epic League. */
export function epicLeague(game) {
  const e = game?.modules?.epic_league;
  if (!e) return null;
  const names = Object.fromEntries((e.tokens || []).map((t) => [t.id, t]));
  const tokenName = (k) => names[k]?.name || k;
  const clubName = (seat) => clubOf(game, seat);
  const STEP = {objectives: "Objectives", transfer: `the Transfer Window, round ${e.round} of 3`,
    tokens: `Winter Training, round ${e.round} of 3: the tokens to reveal`, draft: `Winter Training, round ${e.round} of 3: the draft`,
    place: "Winter Training: the tokens go on the Player cards", done: "over"};
  const vp = (e.league_vp || []).map((v, i) => `${i + 1}: ${v}`).concat(`${(e.league_vp || []).length + 1}+: ${e.league_vp_beyond}`);
  return [
    h("h2", {}, "Epic League"),
    h("p", {class: "hint"}, `Ten weeks, a Winter Break after week 5; VP by League position — ${vp.join(", ")}.`),
    e.step ? h("p", {id: "winter-step"}, `Winter Break: ${STEP[e.step] || words(e.step)}.`) : null,
    (e.revealed || []).length ? h("p", {id: "winter-revealed"}, "Tokens revealed: ", e.revealed.map(tokenName).join(", ")) : null,
    (e.winter || []).length ? h("ul", {class: "notes", id: "winter-objectives"}, e.winter.map((w) => h("li", {},
      `${clubName(w.seat)}: ${w.result === "missed" ? "no Objective fulfilled before the break (one discarded)"
        : `${cardName(w.card)} ${w.result === "perfect" ? "fulfilled perfectly (6 VP)" : "fulfilled (3 VP)"}`}`))) : null,
    (e.drafted || []).length ? h("p", {id: "winter-drafted"}, "Taken, to place: ",
      e.drafted.map((d) => `${clubName(d.seat)} ${tokenName(d.token)}`).join(", ")) : null,
    (e.placed || []).length ? h("ul", {class: "notes", id: "winter-placed"}, e.placed.map((p) => h("li", {},
      `${clubName(p.seat)}: ${tokenName(p.token)} on ${cardName(p.card)} — it ${names[p.token]?.does || ""}`))) : null,
  ];
}
