// Shrine of the Elemental Kings: the lot, the standing bid and who bids next largest; the
// pool, each player's Oinks and influence with its groups (SK-4..SK-9). The bid buttons
// (the engine's ``suggest``) and the pass with its ``confirm`` are forms.js's.
import {h, seatLabel, plain, count} from "../core.js";
import {cardRow} from "../tiles.js";
import {stat, perSeat, seatTable, titled} from "./common.js";

export default function shrine(v) {
  const kids = [];
  if ((v.lot || []).length) kids.push(titled("Lot up for auction" + ((v.lot_elements || []).length ? ` · bid in ${v.lot_elements.join(" or ")}` : ""), cardRow(v.lot)));
  kids.push(h("div", {class: "stats headline"},
    stat("standing bid", v.standing_bid ? String(v.standing_bid) : "none", "hero"),
    stat("high bidder", v.high_bidder ? seatLabel(v.high_bidder) : "—"),
    stat("bids next", v.next_bidder || (v.phase === "bidding" && v.turn ? seatLabel(v.turn) : "—"), "hero"),
    stat("cards in the deck", v.deck_count ?? "—")));
  if ((v.passed || []).length) kids.push(h("p", {}, "Passed: ", v.passed.map(seatLabel).join(", ")));
  if (v.pool) kids.push(titled("Pool", h("div", {class: "stats small"}, Object.entries(v.pool).map(([el, n]) => stat(el, n, "el-" + el)))));
  // SK-7 hidden Oinks: only the pool's size is shown, never its elements.
  else if (v.pool_total != null) kids.push(titled("Pool", h("div", {class: "stats small"}, stat("Oinks", v.pool_total))));
  const oinks = perSeat(v.oinks);
  if (oinks.length) kids.push(titled("Oinks", seatTable(oinks.map(([s, o]) => ({seat: s, ...o})),
    [["player", (r) => seatLabel(r.seat)], ...Object.keys(oinks[0][1]).map((el) => [el, (r) => r[el]]),
     ["total", (r) => (v.oinks_total || {})[r.seat]]])));
  const inf = perSeat(v.influence);
  if (inf.length) kids.push(titled("Influence", inf.map(([s, x]) =>
    h("div", {class: "influence"}, h("b", {}, `${seatLabel(s)}: ${count(x.points, "point")}`),
      (x.groups || []).map((g) => h("div", {class: "group"}, h("span", {class: "muted"}, `${plain(g.kind).text} (${count(g.points, "point")}) `),
        cardRow(g.cards || [], {small: true})))))));
  return kids;
}
