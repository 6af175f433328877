// Final scoring, or a note that the game is still running; `?game=N`: that kept game's final scoring (a season's
// games link here).
import {fill, h, live} from "./common.js";
import {finalScoring} from "./view.js";

const game = new URLSearchParams(location.search).get("game");

async function keptGame(id) {
  const response = await fetch(`/api/games/${encodeURIComponent(id)}/final`, {credentials: "same-origin"});
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const why = typeof data?.detail === "string" ? data.detail : `There is no game ${id}.`;
    fill(document.getElementById("final"), h("p", {class: "big"}, why), h("p", {}, h("a", {href: "/seasons"}, "Seasons")));
    return;
  }
  const season = data.game.season;
  fill(document.getElementById("final"),
    h("p", {class: "hint", id: "kept-game"}, `Game ${data.game.id}, ${new Date(data.game.created).toLocaleString()}`,
      season ? [" · ", h("a", {href: `/seasons?season=${season.id}`}, `Season: ${season.name}`)] : null),
    finalScoring({final: data.final}));
}

if (game) {
  keptGame(game);
  live(() => {});
} else {
  live((snapshot) => {
    fill(document.getElementById("final"), finalScoring(snapshot.game) ||
      h("p", {class: "big"}, snapshot.game ? "The game is still running: the final scoring appears here at its end." : "No game is running."));
  });
}
