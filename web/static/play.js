// The Play page: what the table waits for, and the steps only the page can give.
import {cardNames, fill, live, session, unlockForm} from "./common.js";
import {drawAsks} from "./turn.js";
import {status} from "./view.js";

const $ = (id) => document.getElementById(id);

await cardNames();
live(async (snapshot) => {
  fill($("play-status"), status(snapshot.game));
  await drawAsks($("asks"), $("asks-msg"));
  $("nothing").hidden = !$("asks").hidden || !snapshot.game;
});
session().then((s) => { if (!s.unlocked) fill($("play-lock"), unlockForm(() => fill($("play-lock")))); });
