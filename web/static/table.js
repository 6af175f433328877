// The table view: status, League table, clubs and the latest announcements, redrawn on every snapshot.
import {cardNames, fill, live} from "./common.js";
import {betBoard, club, clubMatches, epicLeague, finalScoring, league, logItem, panels, readable, status} from "./view.js";

await cardNames();
live((snapshot) => {
  const game = snapshot.game;
  fill(document.getElementById("status"), status(game));
  const fin = document.getElementById("final");
  const scoring = finalScoring(game);
  fin.hidden = !scoring;
  fill(fin, scoring);
  fill(document.getElementById("league"), league(game));
  const bets = betBoard(game);
  document.getElementById("betting").hidden = !bets;
  fill(document.getElementById("betting"), bets);
  const modulePanels = panels(game);
  const box = document.getElementById("panels");
  box.hidden = !modulePanels.length;
  fill(box, modulePanels);
  const epic = epicLeague(game);
  document.getElementById("epic-league").hidden = !epic;
  fill(document.getElementById("epic-league"), epic);
  const matches = clubMatches(game);
  document.getElementById("club-matches").hidden = !matches;
  fill(document.getElementById("club-matches"), matches);
  fill(document.getElementById("clubs"), (game?.clubs || []).map((c) => club(c, game)));
  fill(document.getElementById("recent"), (snapshot.log || []).filter(readable).slice(-6).reverse().map(logItem));
});
