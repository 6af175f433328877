// Seasons: the standings of a league over several games, each game's final scoring one click away; with the PIN,
// make a season and add or take out its games.  The table ranks; the page only shows what it says.
import {fill, h, live, post, say, session, unlockForm} from "./common.js";

const $ = (id) => document.getElementById(id);
let seasons = [];
let shown = null;      // the season's standings on the page
let unlocked = false;

const wanted = () => Number(new URLSearchParams(location.search).get("season")) || null;
const ordinal = (n) => { const s = ["th", "st", "nd", "rd"], v = n % 100; return `${n}${s[(v - 20) % 10] || s[v] || s[0]}`; };

async function getJSON(path) {
  const response = await fetch(path, {credentials: "same-origin"});
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.detail || `The table answered ${response.status}.`);
  return data;
}

async function load(id = wanted()) {
  try {
    seasons = (await getJSON("/api/seasons")).seasons;
    const chosen = seasons.find((s) => s.id === id) || seasons[seasons.length - 1];
    shown = chosen ? await getJSON(`/api/seasons/${chosen.id}`) : null;
  } catch (error) {
    say($("season-msg"), error.message, false);
    return;
  }
  draw();
}

function choose(id) {
  history.replaceState(null, "", `/seasons?season=${id}`);
  load(id);
}

function draw() {
  fill($("season-tabs"), seasons.map((s) => h("a", {href: `/seasons?season=${s.id}`, class: "tab",
    "aria-current": shown?.id === s.id ? "page" : null,
    onclick: (event) => { event.preventDefault(); choose(s.id); }}, s.name, h("span", {class: "badge"}, String(s.games)))));
  fill($("season"), shown ? [standingsTable(shown), gameList(shown), exports(shown)]
    : h("p", {class: "big", id: "no-season"}, "No season yet. " + (unlocked ? "Make one below." : "The owner makes one with the PIN.")));
  drawOwner();
}

function standingsTable(season) {
  const counted = season.games.filter((g) => g.counted);
  if (!season.standings.length) {
    return h("p", {class: "big", id: "no-standings"}, season.games.length
      ? "No game of this season is over yet: the standings start with the first final scoring."
      : "No games in this season yet.");
  }
  return h("div", {class: "scroll"}, h("table", {class: "standings", id: "standings"},
    h("thead", {}, h("tr", {},
      h("th", {class: "n"}, "Pos"), h("th", {}, "Club"), h("th", {class: "n"}, "Played"), h("th", {class: "n"}, "VP"),
      h("th", {class: "n"}, "Wins"), h("th", {class: "n", title: "Average rank over the games played"}, "Avg rank"),
      counted.map((g) => h("th", {class: "n game"}, h("a", {href: g.link, title: `Final scoring of game ${g.id}`}, `Game ${g.id}`))))),
    h("tbody", {}, season.standings.map((c) => h("tr", {class: c.position === 1 ? "leader" : null},
      h("td", {class: "n"}, String(c.position)), h("th", {}, c.club), h("td", {class: "n"}, String(c.played)),
      h("td", {class: "n vp"}, String(c.vp)), h("td", {class: "n"}, String(c.wins)),
      h("td", {class: "n"}, c.average_rank.toFixed(2)),
      counted.map((g) => {
        const place = c.games[String(g.id)];
        return h("td", {class: "n place"}, place ? [h("span", {class: place.rank === 1 ? "rank won" : "rank"}, ordinal(place.rank)),
          " ", h("small", {}, `${place.vp} VP`)] : h("span", {class: "hint", title: "Did not play this game"}, "–"));
      }))))),
    h("p", {class: "hint"}, "Order: most VP, then most wins, then the better average rank; clubs level on all three share their position."));
}

function gameList(season) {
  return [
    h("h3", {}, "Games"),
    h("ol", {class: "season-games", id: "season-games"}, season.games.map((g) => h("li", {class: g.counted ? "counted" : "uncounted", dataset: {game: g.id}},
      g.counted ? h("a", {href: g.link}, `Game ${g.id}: final scoring`) : h("span", {}, `Game ${g.id}`),
      " ", h("span", {class: "meta"}, new Date(g.created).toLocaleDateString()),
      g.counted ? h("span", {class: "winners"}, ` · ${g.winners.length > 1 ? "Shared victory" : "Winner"}: ${g.winners.join(" and ")}`)
        : h("span", {class: "badge warn"}, g.note),
      unlocked ? h("button", {type: "button", class: "quiet remove", onclick: () => change(`/api/seasons/${season.id}/remove`, {games: [g.id]},
        `Game ${g.id} taken out of ${season.name} (the game itself is kept).`)}, "Take out") : null))),
  ];
}

function exports(season) {
  return h("p", {class: "row exports"}, "Export the season: ",
    h("a", {href: `/api/seasons/${season.id}/export?format=csv`, download: ""}, "CSV"),
    h("a", {href: `/api/seasons/${season.id}/export?format=json`, download: ""}, "JSON"));
}

async function change(path, body, done) {
  const r = await post(path, body);
  if (!r.ok) { say($("season-msg"), r.message, false); return null; }
  await load(r.data?.id ?? shown?.id);
  say($("season-msg"), done, true);  // once the season is drawn again, so the next click lands on what is shown
  return r;
}

async function drawOwner() {
  const box = $("owner");
  if (!unlocked) {
    fill(box, h("h3", {}, "Make a season, add games"), unlockForm(async () => { unlocked = true; await load(shown?.id); }));
    return;
  }
  const name = h("input", {id: "new-season-name", maxlength: 60, placeholder: "e.g. Autumn league", required: true});
  const parts = [];
  if (shown) {
    let games = [];
    try { games = (await getJSON("/api/games")).games; } catch (error) { say($("season-msg"), error.message, false); }
    const free = games.filter((g) => !g.season);
    const pick = h("select", {id: "add-games", multiple: true, size: Math.min(6, Math.max(2, free.length))},
      free.map((g) => h("option", {value: g.id},
        `Game ${g.id} · ${g.status} · ${new Date(g.created).toLocaleDateString()}${g.clubs.length ? ` · ${g.clubs.join(", ")}` : ""}`)));
    parts.push(h("h3", {}, `Add games to ${shown.name}`),
      free.length ? h("form", {class: "row wrap", id: "add-form", onsubmit: (event) => {
        event.preventDefault();
        const chosen = [...pick.selectedOptions].map((o) => Number(o.value)).sort((a, b) => a - b);  // in the order played
        if (!chosen.length) { say($("season-msg"), "Pick at least one game to add.", false); return; }
        change(`/api/seasons/${shown.id}/games`, {games: chosen}, `Added to ${shown.name}: game ${chosen.join(", ")}.`);
      }}, h("label", {}, "Games not in a season yet ", pick), h("button", {type: "submit", class: "primary"}, "Add"))
        : h("p", {class: "hint"}, "Every kept game is in a season already."));
  }
  parts.push(h("h3", {}, "New season"),
    h("form", {class: "row wrap", id: "new-season", onsubmit: async (event) => {
      event.preventDefault();
      const r = await post("/api/seasons", {name: name.value});
      if (!r.ok) { say($("season-msg"), r.message, false); return; }
      name.value = "";
      history.replaceState(null, "", `/seasons?season=${r.data.id}`);
      await load(r.data.id);
      say($("season-msg"), `Season ${r.data.name} made: add its games above.`, true);
    }}, h("label", {}, "Name ", name), h("button", {type: "submit", class: "primary"}, "Make the season")));
  if (shown) {
    parts.push(h("p", {class: "row"}, h("button", {type: "button", class: "quiet", id: "delete-season", onclick: (event) => {
      const button = event.target;
      if (button.dataset.sure !== "yes") { button.dataset.sure = "yes"; button.textContent = `Really forget ${shown.name}? (its games are kept)`; return; }
      change(`/api/seasons/${shown.id}/delete`, {}, `Season ${shown.name} forgotten; its games are kept.`)
        .then(() => { history.replaceState(null, "", "/seasons"); });
    }}, "Forget this season")));
  }
  // A name typed while the owner's part was drawn again (after a change, or a game ending) is kept, with its focus.
  const typed = $("new-season-name");
  if (typed) { name.value = typed.value; }
  const focused = typed !== null && document.activeElement === typed;
  fill(box, parts);
  if (focused) { name.focus(); }
}

// A game that ends while the page is open brings its final scoring into the standings (and one whose end is undone
// takes it out again).
let stage;
live((snapshot) => {
  const now = snapshot.game?.stage ?? null;
  if (stage !== undefined && now !== stage && (now === "over" || stage === "over")) load(shown?.id);
  stage = now;
});

session().then((s) => { unlocked = s.unlocked; load(); });
