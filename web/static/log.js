// The full log of announcements, newest first.
import {fill, h, live} from "./common.js";
import {logItem} from "./view.js";

live((snapshot) => {
  const items = (snapshot.log || []).slice().reverse();
  fill(document.getElementById("log"), items.length ? items.map(logItem) : h("li", {class: "hint"}, "Nothing has happened yet."));
});
