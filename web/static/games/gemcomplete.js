// Gem Complete: whose turn and step, each seat's deck, hand, discard and Locus (face-down
// cards drawn as backs), and a Complete Declaration with its revealed cards (GC-3..GC-9).
import {C, h, seatLabel, plain} from "../core.js";
import {cardRow} from "../tiles.js";
import {stat, titled} from "./common.js";

export default function gemcomplete(v) {
  const kids = [];
  if (v.step) kids.push(h("div", {class: "challenge"}, h("b", {}, seatLabel(v.turn)), ` · turn ${v.turn_number} · ${v.step} step`));
  for (const st of v.seats || []) {
    kids.push(h("div", {class: "gem-seat" + (st.seat === C.seat ? " me" : "")},
      h("h3", {}, `${st.name} · ${st.deck_name}`),
      h("div", {class: "stats small"}, stat("deck", st.deck), stat("hand", st.hand),
        stat("discard", (st.discard || []).length + (st.discard_unknown || 0)), stat("Locus", (st.locus || []).length)),
      h("div", {class: "locus"}, (st.locus || []).map((c) => h("span", {class: "slot" + (c.gem ? " gem" : "") + (c.known ? "" : " down")},
        h("small", {}, c.position), " ", c.name || "face down"))),
      (st.discard || []).length ? titled("Discard pile", cardRow(st.discard, {small: true})) : null));
  }
  // The played card's effects still to apply, in words: the page's action applies the first
  // with one confirming tap (GC-3 rev. 2).
  if ((v.pending || []).length) kids.push(titled("The card's effect, still to do", h("ul", {class: "pending"},
    v.pending.map((p) => h("li", {}, plain(typeof p === "string" ? p : p.text || "").text)))));
  if (v.declaration) kids.push(h("div", {class: "declaration"}, h("h3", {}, "Complete Declaration by " + seatLabel(v.declaration.declarer)),
    h("p", {}, "Positions: " + (v.declaration.positions || []).join(", ")),
    cardRow(v.declaration.revealed || [])));
  return kids;
}
