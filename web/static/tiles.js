// Cards as pictures: a tile per face (name, colour, number), tappable where a card can be
// entered by hand. One tap sends the face id; the engine picks a copy the zone can hold (C-1).
import {h, faceOf} from "./core.js";

// A card face as a small picture. ``x``: a face id, a serial, or an engine's card object.
export function cardTile(x, opts) {
  const o = opts || {};
  const f = faceOf(x) || {name: typeof x === "object" ? (x.name || "?") : String(x)};
  const el = f.element || f.color || f.colour;
  const cls = ["card-tile"];
  if (el) cls.push("el-" + el);
  if (f.kind) cls.push("kind-" + f.kind);
  if (o.small) cls.push("small");
  if (o.down) cls.push("down");
  const num = f.number !== null && f.number !== undefined ? h("span", {class: "card-num"}, String(f.number)) : null;
  let label = o.down ? "face down" : (f.name || "?");
  // "Universe Wood" on a small tile: the deck's word above, the card's own name large.
  let deck = null;
  if (f.deck && label.toLowerCase().startsWith(f.deck.toLowerCase() + " ")) {
    deck = h("span", {class: "card-deck"}, label.slice(0, f.deck.length));
    label = label.slice(f.deck.length + 1);
  }
  // "Water 9" with its number drawn large: the name without the number again.
  if (num && label.endsWith(" " + f.number)) label = label.slice(0, -String(f.number).length - 1);
  // A long word ("Reverse", "Burden") in a small tile: smaller letters, never split.
  const longest = Math.max(...label.split(/\s+/).map((w) => w.length));
  const long = longest > 5;
  const name = h("span", {class: "card-name" + (long ? " long" : "")}, label);
  // The longest word sizes the letters to the tile's width (issue 29 §8: "ockslide" on a
  // 360 px phone): app.css divides the tile's width by it.
  if (long) name.style.setProperty("--len", String(longest));
  const kids = [deck, num, name, o.note ? h("span", {class: "card-note"}, o.note) : null];
  if (o.onTap) {
    return h("button", {type: "button", class: cls.join(" ") + (o.blocked ? " blocked" : ""),
      "data-face": f.face || "", "aria-disabled": o.blocked ? "true" : null, onclick: o.onTap}, kids);
  }
  return h("span", {class: cls.join(" "), "data-face": f.face || ""}, kids);
}

export function cardRow(list, opts) {
  return h("div", {class: "card-row"}, (list || []).map((x) => cardTile(x, opts)));
}

// The faces a card field may take now, as the engine lists them (``faces``; C-1: it picks a
// copy the zone can hold). The page guesses none of its own: a field without ``faces`` keeps
// the "type a code" field only. God Num's referee field also carries ``hints`` (where each
// legal card takes the divine number, GN-5 rev. 2): shown under the tile.
export function fieldFaces(f) {
  if (!Array.isArray(f.faces)) return [];
  const hints = Object.fromEntries((f.hints || []).map((x) => [x.value, x]));
  return f.faces.map((x) => ({...x, ok: x.ok !== false, hint: x.hint ?? (hints[x.face] || {}).hint}));
}
