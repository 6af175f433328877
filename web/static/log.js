// The full log of announcements, newest first.
import {cardNames, fill, h, live} from "./common.js";
import {logItem, readable} from "./view.js";

await cardNames();
live((snapshot) => {
  const items = (snapshot.log || []).filter(readable).reverse();
  fill(document.getElementById("log"), items.length ? items.map(logItem) : h("li", {class: "hint"}, "Nothing has happened yet."));
});
