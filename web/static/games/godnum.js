// God Num: the divine number and its attribute largest, the seats' karma and legions, the
// last cards. The cards to play are the page's own "Play a card" action (the engine's
// ``choice`` with a ``hint`` or a ``disabled`` reason per card, GN-5, GN-6; forms.js draws
// them as card pictures); out of turn this panel shows the legion's cards, not tappable.
import {C, h, seatLabel} from "../core.js";
import {cardTile, cardRow} from "../tiles.js";
import {legionPicker} from "../forms.js";
import {stat, seatTable, titled} from "./common.js";

export default function godnum(v, s) {
  const kids = [h("div", {class: "stats headline"},
    stat("divine number", v.divine_number ?? "—", "hero"),
    stat("attribute", v.attribute ? h("span", {class: "chip card el-" + v.attribute}, v.attribute[0].toUpperCase() + v.attribute.slice(1)) : "none", "hero"),
    stat("to reach", v.target ?? "—"),
    stat("direction", v.direction === -1 ? "reversed" : "clockwise"))];
  if (v.burdened && v.turn) {
    kids.push(h("p", {class: "owes"}, h("b", {}, v.turn === C.seat ? "You" : seatLabel(v.turn)),
      " must discard one card first (Burden)."));
  }
  if (v.seats) kids.push(seatTable(v.seats, [["player", (r) => r.name], ["legion", (r) => r.legion ? r.legion_name : h("i", {class: "muted"}, r.legion_name)],
    ["deck", (r) => r.deck], ["hand", (r) => r.hand], [`karma (of ${v.karma_limit ?? "?"})`, (r) => r.karma + (r.eliminated ? " · out" : "")]],
    {hot: v.turn}));
  kids.push(titled("Last cards played, newest first", (v.pile || []).length ? cardRow((v.pile || []).slice().reverse(), {small: true}) : h("p", {class: "muted"}, "none yet")));
  const playing = ((s && s.actions) || []).some((a) => a.type === "play" || a.type === "discard");
  if (Array.isArray(v.legal) && v.legal.length && !playing) {
    // Out of turn: every card is "not now" for the same reason, said once in the heading.
    // Before a legion is chosen the list spans every free legion ("Metal 1 (Metal-Water)"):
    // a tap picks the legion to look at, then only its cards show (GN-2 rev. 2, issue 20).
    const legion = (x) => (/\(([^()]+)\)$/.exec(x.label || "") || [])[1] || "";
    const groups = [...new Set(v.legal.map(legion))];
    const row = (list) => h("div", {class: "card-tiles"}, list.map((x) => cardTile({face: x.value}, {small: true})));
    kids.push(titled(groups.length > 1 ? "Your cards, by legion (wait for your turn)" : "Your legion's cards (wait for your turn)",
      groups.length > 1 ? legionPicker(groups, (g) => row(v.legal.filter((x) => legion(x) === g))) : row(v.legal)));
  }
  return kids;
}
