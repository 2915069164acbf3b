// The Classic of Mountains & Rivers: the board as an SVG drawn from the view's board data
// (the engine's tiles, stairs, one-way arrows; each tile's ``mark`` when the engine gives
// it, else the printed board's marks), big pawns with the characters' initials, reachable
// tiles highlighted and tapped to move (MR-4, MR-5), a legend in words; the players' HP,
// weapons, and what is left this turn.
import {C, h, seatLabel, plain} from "../core.js";
import {cardRow} from "../tiles.js";
import {playFromPanel} from "../forms.js";
import {seatTable, titled} from "./common.js";

// The printed board's marks (printables KIND_MARK), for a view without ``mark`` per tile.
const MARK = {weapon: "W", challenge: "?", chance: "!", blessing: "+1", hazard: "−1", stairs: "S", plain: ""};
const KIND_WORDS = {weapon: "draw a weapon card", challenge: "draw a challenge card", chance: "draw a chance card",
  blessing: "gain 1 HP", hazard: "lose 1 HP", stairs: "stairs: follow the arrow to the exit tile"};
const PAWN = ["#ffd54f", "#ef5350", "#42a5f5", "#66bb6a", "#ab47bc", "#ff7043"];
const CELL = 40;

function initials(p) {
  const n = p.initials || p.character_name || p.name || "?";
  return n.split(/[\s-]+/).filter(Boolean).map((w) => w[0].toUpperCase()).join("").slice(0, 2);
}

function board(v, s) {
  const b = v.board;
  const size = b.size || 9;
  const move = ((s && s.actions) || []).find((a) => a.type === "move" && !a.why && !a.disabled && (a.fields || []).length === 1);
  const canGo = new Set(move ? (move.fields[0].choices || []).map((c) => c.value) : []);
  const reach = new Set((v.reachable || []).map((r) => r.tile || r));
  const pos = {};
  for (const t of b.tiles) pos[t.id] = [(t.col - 0.5) * CELL, (t.row - 0.5) * CELL];
  const svg = h("svg:svg", {viewBox: `0 0 ${size * CELL} ${size * CELL}`, class: "mr-board", role: "img", "aria-label": "the board"},
    h("svg:defs", {}, h("svg:marker", {id: "mr-arrow", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto"},
      h("svg:path", {d: "M0,0 L10,5 L0,10 z", class: "arrowhead"}))));
  for (const t of b.tiles) {
    const go = canGo.has(t.id);
    const g = h("svg:g", {class: "tile t-" + (t.colour || "none") + " k-" + t.kind + (reach.has(t.id) || go ? " reach" : "") + (go ? " go" : ""),
      "data-tile": t.id, role: go ? "button" : null, tabindex: go ? "0" : null},
      h("svg:rect", {x: (t.col - 1) * CELL + 1, y: (t.row - 1) * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 4}),
      h("svg:text", {x: (t.col - 1) * CELL + 4, y: (t.row - 1) * CELL + 11, class: "tid"}, t.id),
      (t.mark ?? MARK[t.kind]) ? h("svg:text", {x: (t.col - 0.5) * CELL, y: (t.row - 0.5) * CELL + 8, class: "mark", "text-anchor": "middle"}, t.mark ?? MARK[t.kind]) : null);
    if (go) g.addEventListener("click", (ev) => playFromPanel("move", {[move.fields[0].name]: t.id}, null));
    svg.append(g);
  }
  // Stairs (tile -> its exit) and the one-way arrows, over the tiles.
  const line = (a, z, cls) => {
    if (!pos[a] || !pos[z]) return null;
    const [x1, y1] = pos[a], [x2, y2] = pos[z];
    const k = 12 / Math.hypot(x2 - x1, y2 - y1);
    return h("svg:line", {x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k,
      class: cls, "marker-end": "url(#mr-arrow)"});
  };
  for (const t of b.tiles) if (t.exit) svg.append(line(t.id, t.exit, "stairs"));
  for (const a of b.arrows || []) svg.append(line(a.from, a.to, "oneway"));
  // Pawns: big, coloured per seat, the character's initials; several on a tile side by side.
  const at = {};
  for (const p of v.players || []) if (p.tile && p.alive !== false && pos[p.tile]) (at[p.tile] = at[p.tile] || []).push(p);
  for (const [tile, ps] of Object.entries(at)) {
    ps.forEach((p, i) => {
      const [cx, cy] = pos[tile];
      const off = ps.length === 1 ? [0, 0] : [(i % 2 ? 1 : -1) * 9, (i < 2 ? -1 : 1) * (ps.length > 2 ? 9 : 0)];
      const r = ps.length === 1 ? 13 : 9;
      svg.append(h("svg:g", {class: "pawn" + (p.seat === C.seat ? " me" : ""), "data-seat": p.seat},
        h("svg:circle", {cx: cx + off[0], cy: cy + off[1], r, fill: p.colour || PAWN[(p.seat - 1) % PAWN.length]}),
        h("svg:text", {x: cx + off[0], y: cy + off[1] + r * 0.35, "text-anchor": "middle", class: "pawn-i"}, initials(p)),
        h("svg:title", {}, `${p.name}${p.character_name ? " (" + p.character_name + ")" : ""}`)));
    });
  }
  const kinds = [...new Set(b.tiles.map((t) => t.kind).filter((k) => k && k !== "plain"))].sort();
  const legend = h("ul", {class: "board-legend"},
    kinds.map((k) => h("li", {}, h("b", {class: "mark-key"}, (b.tiles.find((t) => t.kind === k) || {}).mark ?? MARK[k]), " " + (KIND_WORDS[k] || k))),
    (b.arrows || []).length ? h("li", {}, h("b", {class: "mark-key"}, "→"), " one way only") : null,
    canGo.size ? h("li", {}, h("b", {class: "mark-key reach-key"}, "▢"), " tap a highlighted tile to move there") : null,
    (v.players || []).filter((p) => p.tile).map((p) => h("li", {}, h("b", {class: "pawn-key", "data-seat": p.seat}, initials(p)), ` ${p.name}`)));
  for (const el of legend.querySelectorAll(".pawn-key")) el.style.background = PAWN[(Number(el.dataset.seat) - 1) % PAWN.length];
  return h("div", {class: "mr"}, svg, legend);
}

export default function mountains(v, s) {
  const kids = [];
  if (v.board && v.board.tiles) kids.push(board(v, s));
  if (v.players) kids.push(seatTable(v.players, [["player", (r) => r.name], ["character", (r) => r.character_name || "—"],
    ["HP", (r) => r.hp], ["tile", (r) => r.tile || "—"],
    ["weapons", (r) => (r.weapons || []).length ? cardRow(r.weapons, {small: true}) : "—"]], {hot: v.turn}));
  if (v.actions_left) kids.push(h("p", {class: "left"}, "Left this turn: ",
    Object.entries(v.actions_left).filter(([, ok]) => ok).map(([k]) => k).join(", ") || "nothing"));
  if ((v.pending || []).length) kids.push(titled("Waiting for", h("ul", {}, v.pending.map((p) => h("li", {}, plain(p.text).text)))));
  return kids;
}
