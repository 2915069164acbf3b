// WuXing: the challenge, the pot, the Universe card as its own tile, who still owes a card,
// each deck's count, and the what-beats-what card (the two cycles, WX-5).
import {C, h, seatLabel, names, count} from "../core.js";
import {cardTile, cardRow} from "../tiles.js";
import {stat, perSeat, seatBars, titled} from "./common.js";

const ORDER = ["wood", "fire", "earth", "metal", "water"];  // the generating cycle
const NAME = {wood: "Wood", fire: "Fire", earth: "Earth", metal: "Metal", water: "Water"};

// A pentagon: an arrow round the ring points at the card that absorbs the one it leaves; an
// arrow across points from a card to the one it destroys (WX-2).
export function cycles() {
  const R = 74, cx = 100, cy = 96;
  const pt = (i) => [cx + R * Math.sin(2 * Math.PI * i / 5), cy - R * Math.cos(2 * Math.PI * i / 5)];
  const arrow = (a, b, cls) => {
    const [x1, y1] = pt(a), [x2, y2] = pt(b);
    const k = 20 / Math.hypot(x2 - x1, y2 - y1);
    return h("svg:line", {x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k,
      class: cls, "marker-end": `url(#wx-${cls})`});
  };
  const marker = (cls) => h("svg:marker", {id: `wx-${cls}`, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "6", markerHeight: "6", orient: "auto"},
    h("svg:path", {d: "M0,0 L10,5 L0,10 z", class: cls}));
  return h("figure", {class: "cycles"},
    h("svg:svg", {viewBox: "0 0 200 192", role: "img", "aria-label": "what beats what"},
      h("svg:defs", {}, marker("gen"), marker("over")),
      ORDER.map((_, i) => arrow(i, (i + 1) % 5, "gen")),
      ORDER.map((_, i) => arrow(i, (i + 2) % 5, "over")),
      ORDER.map((el, i) => { const [x, y] = pt(i); return h("svg:g", {class: "node el-" + el},
        h("svg:circle", {cx: x, cy: y, r: 19, class: "el-" + el}),
        h("svg:text", {x, y: y + 4, "text-anchor": "middle"}, NAME[el])); })),
    // WX-7.6 and WX-7.7 in words (issue 20 §5: destroying sends the pot and the other
    // card to the Void, and the destroying card back under its owner's deck).
    h("figcaption", {}, h("span", {class: "gen-key"}, "→ round the ring: absorbs. Absorb the Universe card: win the pot."), " ",
      h("span", {class: "over-key"}, "→ across: destroys. Destroy the Universe card: the pot and the other player's card go to the Void; yours goes back under your deck.")));
}

export default function wuxing(v) {
  const ch = v.challenge || [];
  const kids = [];
  if (ch.length === 2) kids.push(h("div", {class: "challenge"}, h("b", {}, seatLabel(ch[0])), " challenges ", h("b", {}, seatLabel(ch[1]))));
  // Dragon and Star rounds: who still owes a card and where it goes once shown (``owing``,
  // ``owing_to``, C-6 rev. 3): the pot in a Dragon round, the Void in a Star round.
  const OWES = {pot: "Still to show a card in their place, then put it on the pot: ",
    void: "Still to show a card in their place, then put it into the Void: "};
  if ((v.owing || []).length) kids.push(h("p", {class: "owes"}, OWES[v.owing_to] || "Still to show a card: ", h("b", {}, names(v.owing))));
  else if ((v.awaiting || []).length) kids.push(h("p", {class: "owes"}, "Still to show a card: ", h("b", {}, names(v.awaiting))));
  const n = v.counts || {};
  kids.push(h("div", {class: "stats headline"},
    stat("in the pot", n.pot ?? (v.pot || []).length, "hero"),
    stat("in the Void", n.void ?? v.void ?? "—", "void"),
    stat("Universe cards left", n.universe ?? v.universe_left ?? "—")));
  const row = h("div", {class: "wx-row"});
  row.append(titled("Universe card", v.universe ? cardTile(v.universe) : h("p", {class: "muted"}, "none yet")));
  const shown = perSeat(v.revealed).filter(([, f]) => f);
  if (shown.length) row.append(titled("Revealed", h("div", {class: "card-row"}, shown.map(([s, f]) =>
    h("span", {class: "reveal"}, cardTile(f), h("small", {}, seatLabel(s)))))));
  kids.push(row);
  kids.push(titled("Pot, bottom to top", (v.pot || []).length ? cardRow(v.pot, {small: true}) : h("p", {class: "muted"}, "empty")));
  const decks = perSeat(v.decks);
  if (decks.length) kids.push(seatBars("Cards in each deck", v.decks, {hot: ch, out: v.out || []}));
  if (C.role !== "host") kids.push(h("details", {class: "aid", open: C.role === "public" ? true : null}, h("summary", {}, "What beats what"), cycles()));
  if (typeof v.your_known_cards === "object" && (v.your_known_cards || []).length)
    kids.push(titled(`Cards you know in your deck (${count(v.your_known_cards.length, "card")})`, cardRow(v.your_known_cards, {small: true})));
  return kids;
}
