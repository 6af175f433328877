// The table view: status, League table, clubs and the latest announcements, redrawn on every snapshot.
import {cardNames, fill, h, live, nameOf} from "./common.js";
import {betBoard, club, clubMatches, epicLeague, finalScoring, league, logItem, panels, readable, seatColour, status} from "./view.js";

let seatsShown = "";

/** A link and a QR code to each club's own page (its address only: what the page shows needs the seat's tap). */
function seatLinks(game) {
  const clubs = (game?.clubs || []).map((c) => ({seat: c.seat, name: nameOf(c)}));
  const key = JSON.stringify(clubs);
  if (key === seatsShown) return;
  seatsShown = key;
  document.getElementById("seat-pages").hidden = !clubs.length;
  fill(document.getElementById("seat-links"), clubs.map((c) => h("figure", {class: "seat-link", dataset: {seat: c.seat}},
    h("img", {src: `/api/seat/${c.seat}/qr.svg`, alt: `QR code of seat ${c.seat}'s own page`, width: 132, height: 132,
      dataset: {seat: c.seat}}),
    h("figcaption", {}, h("a", {href: `/seat/${c.seat}`, style: `border-color: ${seatColour(c.seat)}`}, `Seat ${c.seat}: ${c.name}`)))));
}

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
  seatLinks(game);
  fill(document.getElementById("clubs"), (game?.clubs || []).map((c) => club(c, game)));
  fill(document.getElementById("recent"), (snapshot.log || []).filter(readable).slice(-6).reverse().map(logItem));
});
