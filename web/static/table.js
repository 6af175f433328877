// The table view: status, League table, clubs and the latest announcements, redrawn on every snapshot.
import {fill, live} from "./common.js";
import {club, finalScoring, league, logItem, status} from "./view.js";

live((snapshot) => {
  const game = snapshot.game;
  fill(document.getElementById("status"), status(game));
  const fin = document.getElementById("final");
  const scoring = finalScoring(game);
  fin.hidden = !scoring;
  fill(fin, scoring);
  fill(document.getElementById("league"), league(game));
  fill(document.getElementById("clubs"), (game?.clubs || []).map(club));
  fill(document.getElementById("recent"), (snapshot.log || []).slice(-6).reverse().map(logItem));
});
