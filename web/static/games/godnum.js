// God Num: the divine number and its attribute largest, the seats' karma, the last cards,
// and the cards of your legion as buttons: tap one to play it; a card that may not be played
// says why in words on the chip, not in a tooltip a phone cannot show (GN-5, GN-6).
import {h, plain} from "../core.js";
import {cardTile, cardRow} from "../tiles.js";
import {playFromPanel} from "../forms.js";
import {notice} from "../api.js";
import {stat, seatTable, titled} from "./common.js";

export default function godnum(v) {
  const kids = [h("div", {class: "stats headline"},
    stat("divine number", v.divine_number ?? "—", "hero"),
    stat("attribute", v.attribute ? h("span", {class: "chip card el-" + v.attribute}, v.attribute[0].toUpperCase() + v.attribute.slice(1)) : "none", "hero"),
    stat("to reach", v.target ?? "—"),
    stat("direction", v.direction === -1 ? "reversed" : "clockwise"))];
  if (v.seats) kids.push(seatTable(v.seats, [["player", (r) => r.name], ["legion", (r) => r.legion_name],
    ["deck", (r) => r.deck], ["hand", (r) => r.hand], [`karma (of ${v.karma_limit ?? "?"})`, (r) => r.karma + (r.eliminated ? " · out" : "")]],
    {hot: v.turn}));
  kids.push(titled("Last cards played, newest first", (v.pile || []).length ? cardRow((v.pile || []).slice().reverse(), {small: true}) : h("p", {class: "muted"}, "none yet")));
  if (Array.isArray(v.legal)) {
    const mine = v.turn === v.you;
    // Out of turn every card is "not now" for the same reason: the heading says it once.
    kids.push(titled(mine ? "Your cards: tap one to play it" : "Your legion's cards (wait for your turn)", h("div", {class: "card-tiles" + (mine ? " legal" : "")},
      v.legal.map((x) => {
        const note = !mine ? null : x.hint ? plain(x.hint).text : (x.ok ? null : whyNot(x));
        return cardTile({face: x.value, name: x.label}, {note, small: !mine, blocked: !x.ok || !mine,
          onTap: (ev) => {
            if (!mine) { notice("Wait for your turn.", "info"); return; }
            if (!x.ok) { ev.currentTarget.classList.add("shake"); notice(whyNot(x), "info"); return; }
            playFromPanel("play", {card: x.value}, ev.currentTarget);
          }});
      }))));
  }
  return kids;
}

// "Metal 1: the divine number is Water; ..." -> the reason without the card's own name.
function whyNot(x) {
  const t = plain(x.why || "not allowed now").text;
  return t.startsWith(x.label + ":") ? t.slice(x.label.length + 1).trim() : t;
}
