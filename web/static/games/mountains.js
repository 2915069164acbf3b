// The Classic of Mountains & Rivers: the board as an SVG drawn only from the engine's
// ``view.board`` (issue 11, point 7): each tile's ``fill``, ``mark``, ``mark_colour``,
// ``disc`` and ``word``, the ``stairs``, the one-way ``arrows`` in ``arrow_colour``, the
// ``pawns`` with their colours and initials, the ``reachable`` tiles, and the ``legend``.
// The same module (companion/games/mountains/marks.py) draws the printed board, so the
// screen and the paper show one set of marks. Reachable tiles are tapped to move (MR-5).
import {C, h, plain} from "../core.js";
import {cardRow} from "../tiles.js";
import {playFromPanel} from "../forms.js";
import {seatTable, titled} from "./common.js";

const CELL = 40;
const LIGHTEN = 0.78;  // the printed board's tile tint (printables.board): the marks stay readable

// "#a0661c" -> the same colour mixed with white, as the printed board's tiles.
function tint(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#e0e0e0";
  const c = m.slice(1).map((x) => Math.round(parseInt(x, 16) * (1 - LIGHTEN) + 255 * LIGHTEN));
  return "#" + c.map((x) => x.toString(16).padStart(2, "0")).join("");
}

// A kind's mark: white in a disc of its colour, or in its colour (as printed).
function markOf(x, y, m, r) {
  if (!m.mark) return null;
  const size = m.mark.length < 2 ? r * 1.15 : r * 0.95;
  if (m.disc) {
    return h("svg:g", {class: "mark"}, h("svg:circle", {cx: x, cy: y, r, fill: m.mark_colour || m.colour}),
      h("svg:text", {x, y: y + size * 0.36, "text-anchor": "middle", fill: "#fff", "font-size": size}, m.mark));
  }
  return h("svg:text", {x, y: y + size * 0.4, "text-anchor": "middle", class: "mark", fill: m.mark_colour || m.colour,
    "font-size": size * 1.2}, m.mark);
}

function arrowLine(pos, a, z, cls, colour, marker, clear) {
  if (!pos[a] || !pos[z]) return null;
  const [x1, y1] = pos[a], [x2, y2] = pos[z];
  const d = Math.hypot(x2 - x1, y2 - y1);
  const k1 = clear / d, k2 = Math.min(0.45, 8 / d);
  return h("svg:line", {x1: x1 + (x2 - x1) * k1, y1: y1 + (y2 - y1) * k1, x2: x2 - (x2 - x1) * k2, y2: y2 - (y2 - y1) * k2,
    class: cls, stroke: colour, "marker-end": `url(#${marker})`, "data-from": a, "data-to": z});
}

// This page's move, if it has one now (one tap on a highlighted tile, MR-5).
function moveOf(s) {
  return ((s && s.actions) || []).find((a) => a.type === "move" && !a.why && !a.disabled && (a.fields || []).length === 1);
}

// The part of the board a move is about: the reachable tiles and the pawn, with one tile
// of margin, in tiles [col, row, width, height] from the top left.
function cropOf(b, tiles, size) {
  const byId = Object.fromEntries(b.tiles.map((t) => [t.id, t]));
  const list = tiles.map((id) => byId[id]).filter(Boolean);
  if (!list.length) return [0, 0, size, size];
  const c0 = Math.max(1, Math.min(...list.map((t) => t.col)) - 1), c1 = Math.min(size, Math.max(...list.map((t) => t.col)) + 1);
  const r0 = Math.max(1, Math.min(...list.map((t) => t.row)) - 1), r1 = Math.min(size, Math.max(...list.map((t) => t.row)) + 1);
  return [c0 - 1, r0 - 1, c1 - c0 + 1, r1 - r0 + 1];
}

const TAP_PX = 48;  // a tile's size on a phone while moving: above the 44 px minimum

// ``pick``: a tile to choose for another action (skill 3's tile, issue 29 §8):
// {tiles, onPick, word}; else this page's move.
function board(v, s, zoom, pick) {
  const b = v.board;
  const size = b.size || 9;
  const move = pick ? null : moveOf(s);
  const canGo = new Set(pick ? pick.tiles : move ? (move.fields[0].choices || []).map((c) => c.value) : []);
  const reach = new Set(b.reachable || []);
  const pos = {};
  for (const t of b.tiles) pos[t.id] = [(t.col - 0.5) * CELL, (t.row - 0.5) * CELL];
  const arrowColour = b.arrow_colour || "#000";
  const mk = "mr-";
  const mine = (b.pawns || []).filter((p) => p.turn || p.seat === C.seat).map((p) => p.tile);
  const svg = h("svg:svg", {viewBox: `0 0 ${size * CELL} ${size * CELL}`, class: "mr-board" + (zoom ? " zoomed" : ""),
    role: "group", "aria-label": "the board"},
    h("svg:defs", {},
      h("svg:marker", {id: mk + "oneway", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto"},
        h("svg:path", {d: "M0,0 L10,5 L0,10 z", fill: arrowColour})),
      h("svg:marker", {id: mk + "stairs", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto"},
        h("svg:path", {d: "M0,0 L10,5 L0,10 z", class: "stairs-head"}))));
  const corners = new Set(b.corners || []);
  for (const t of b.tiles) {
    const go = canGo.has(t.id);
    const x = (t.col - 1) * CELL, y = (t.row - 1) * CELL;
    const g = h("svg:g", {class: "tile k-" + t.kind + (reach.has(t.id) || go ? " reach" : "") + (go ? " go" : ""),
      "data-tile": t.id, "data-mark": t.mark || "", role: go ? "button" : null, tabindex: go ? "0" : null,
      // The name starts with what the tile shows (axe label-content-name-mismatch, issue 29 §6).
      "aria-label": go ? [t.id, t.mark, corners.has(t.id) ? "start/end" : null].filter(Boolean).join(" ")
        + `: ${pick ? pick.word : "move here"} (${t.word})` : null},
      h("svg:rect", {x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: tint(t.fill), "data-fill": t.fill}),
      h("svg:text", {x: x + 3, y: y + 9, class: "tid"}, t.id),
      corners.has(t.id) ? h("svg:text", {x: x + CELL / 2, y: y + CELL - 3, class: "corner", "text-anchor": "middle"}, "start/end") : null,
      markOf(x + CELL / 2, y + CELL / 2 + 2, t, 9));
    if (go) {
      const tap = () => (pick ? pick.onPick(t.id) : playFromPanel("move", {[move.fields[0].name]: t.id}, null));
      g.addEventListener("click", tap);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tap(); } });
    }
    svg.append(g);
  }
  // Stairs: dashed, in the entrance's quadrant colour, from the rim of its disc (as printed);
  // one-way passages: a short arrow in the engine's arrow colour.
  const fillOf = Object.fromEntries(b.tiles.map((t) => [t.id, t.fill]));
  for (const st of b.stairs || []) svg.append(arrowLine(pos, st.from, st.to, "stairs", fillOf[st.from], mk + "stairs", 12));
  for (const a of b.arrows || []) svg.append(arrowLine(pos, a.from, a.to, "oneway", arrowColour, mk + "oneway", 8));
  // Pawns: big, in the engine's colour, the character's initials; several on a tile side by side.
  const at = {};
  for (const p of b.pawns || []) if (pos[p.tile]) (at[p.tile] = at[p.tile] || []).push(p);
  for (const [tile, ps] of Object.entries(at)) {
    ps.forEach((p, i) => {
      const [cx, cy] = pos[tile];
      const off = ps.length === 1 ? [0, 0] : [(i % 2 ? 1 : -1) * 9, (i < 2 ? -1 : 1) * (ps.length > 2 ? 9 : 0)];
      const r = ps.length === 1 ? 14 : 9;
      svg.append(h("svg:g", {class: "pawn" + (p.seat === C.seat ? " me" : "") + (p.turn ? " turn" : ""), "data-seat": p.seat},
        h("svg:circle", {cx: cx + off[0], cy: cy + off[1], r, fill: p.colour}),
        h("svg:text", {x: cx + off[0], y: cy + off[1] + r * 0.35, "text-anchor": "middle", class: "pawn-i"}, p.initials),
        h("svg:title", {}, p.name)));
    });
  }
  if (zoom) {
    // Each tile TAP_PX wide: a board wider than the phone pans inside its own frame, which
    // opens on the pawn and the tiles it can reach.
    svg.setAttribute("width", String(size * TAP_PX));
    svg.setAttribute("height", String(size * TAP_PX));
    const pan = h("div", {class: "mr-pan"}, svg);
    const [cx, cy, cw, ch] = cropOf(b, [...canGo, ...mine], size);
    const home = b.tiles.find((t) => t.id === mine[0]) || {col: cx + 1, row: cy + 1};
    const [px, py] = [home.col - 0.5, home.row - 0.5];
    requestAnimationFrame(() => {
      // The reachable tiles centred when they fit the frame, else the pawn: never cut off.
      const fitsX = cw * TAP_PX <= pan.clientWidth, fitsY = ch * TAP_PX <= pan.clientHeight;
      pan.scrollLeft = (fitsX ? cx + cw / 2 : px) * TAP_PX - pan.clientWidth / 2;
      pan.scrollTop = (fitsY ? cy + ch / 2 : py) * TAP_PX - pan.clientHeight / 2;
    });
    return pan;
  }
  return h("div", {class: "mr"}, svg, legend(b, canGo.size > 0));
}

// The board inside the move (forms.js): tiles large enough to tap, opened on the pawn.
export function moveBoard(s, pick) {
  const v = (s && s.view) || {};
  return v.board && v.board.tiles ? board(v, s, true, pick) : null;
}

// The legend in words, from the engine's own ``legend`` (the printed board's marks and texts).
function legend(b, tapToMove) {
  const key = (m) => {
    const el = h("b", {class: "mark-key" + (m.disc ? " disc" : ""), "data-mark": m.mark}, m.mark);
    if (m.disc) el.style.background = m.colour; else el.style.color = m.colour;
    return el;
  };
  const discs = new Set(b.tiles.filter((t) => t.disc).map((t) => t.kind));
  const oneway = h("b", {class: "mark-key"}, "→");
  oneway.style.color = b.arrow_colour || "";
  return h("ul", {class: "board-legend"},
    (b.legend || []).filter((m) => m.mark).map((m) => h("li", {"data-kind": m.kind}, key({...m, disc: discs.has(m.kind)}),
      " ", h("span", {}, h("b", {}, m.word), ": " + plain(m.text).text))),
    (b.arrows || []).length ? h("li", {}, oneway, " one way only") : null,
    tapToMove ? h("li", {}, h("b", {class: "mark-key reach-key"}, "▢"), " tap a highlighted tile to move there") : null,
    (b.pawns || []).map((p) => {
      const el = h("b", {class: "pawn-key"}, p.initials);
      el.style.background = p.colour;
      return h("li", {}, el, ` ${p.name}`);
    }));
}

export default function mountains(v, s) {
  const kids = [];
  // While this page moves, the board is drawn inside the move, right under the prompt
  // (forms.js); the panel keeps its legend.
  if (v.board && v.board.tiles) kids.push(moveOf(s) ? legend(v.board, true) : board(v, s, false));
  if (v.players) kids.push(seatTable(v.players, [["player", (r) => r.name], ["character", (r) => r.character_name || "—"],
    ["HP", (r) => r.hp], ["tile", (r) => r.tile || "—"],
    ["weapons", (r) => (r.weapons || []).length ? cardRow(r.weapons, {small: true}) : "—"]], {hot: v.turn}));
  if (v.actions_left) kids.push(h("p", {class: "left"}, "Left this turn: ",
    Object.entries(v.actions_left).filter(([, ok]) => ok).map(([k]) => k).join(", ") || "nothing"));
  if (v.two_dice) kids.push(h("p", {class: "left"}, "This turn: roll two dice for movement and use either."));
  if ((v.pending || []).length) kids.push(titled("Waiting for", h("ul", {}, v.pending.map((p) => h("li", {}, plain(p.text).text)))));
  return kids;
}
