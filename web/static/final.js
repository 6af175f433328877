// Final scoring, or a note that the game is still running.
import {fill, h, live} from "./common.js";
import {finalScoring} from "./view.js";

live((snapshot) => {
  fill(document.getElementById("final"), finalScoring(snapshot.game) ||
    h("p", {class: "big"}, snapshot.game ? "The game is still running: the final scoring appears here at its end." : "No game is running."));
});
