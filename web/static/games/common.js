// Pieces the game renderers share: big numbers, per-seat bars, a table of seats.
import {C, h, seatLabel} from "../core.js";

export function stat(label, v, cls) {
  return h("div", {class: "stat " + (cls || "")}, h("div", {class: "stat-v"}, v), h("div", {class: "stat-l"}, label));
}
export function perSeat(obj) {
  // {"1": 12, "2": 9} or [12, 9] -> [[seat, value]...]
  if (Array.isArray(obj)) return obj.map((v, i) => [i + 1, v]);
  if (obj && typeof obj === "object") return Object.entries(obj).map(([k, v]) => [Number(k), v]);
  return [];
}
export function seatBars(label, obj, opts) {
  const rows = perSeat(obj);
  if (!rows.length) return null;
  const o = opts || {};
  const max = Math.max(1, ...rows.map(([, v]) => (typeof v === "number" ? v : 0)));
  return h("div", {class: "seat-bars"}, h("h3", {}, label), rows.map(([s, v]) => {
    const meter = h("span", {class: "meter"}, h("span", {}));
    meter.firstChild.style.width = `${Math.round(100 * v / max)}%`;
    return h("div", {class: "seat-bar" + ((o.hot || []).includes(s) ? " hot" : "") + ((o.out || []).includes(s) ? " out" : "") + (s === C.seat ? " me" : "")},
      h("span", {class: "who"}, seatLabel(s)), meter, h("span", {class: "num"}, String(v)));
  }));
}
export function seatTable(rows, cols, opts) {
  // rows: per-seat objects; cols: [[header, fn(row)]]
  return h("div", {class: "scroll"}, h("table", {class: "grid seats-table"},
    h("thead", {}, h("tr", {}, cols.map(([c]) => h("th", {}, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {class: [(r.seat === C.seat) ? "me" : "", (opts && opts.hot === r.seat) ? "hot" : "",
      (r.eliminated || r.alive === false) ? "out" : ""].join(" ")},
      cols.map(([, fn]) => { const v = fn(r); return h("td", {}, v instanceof Node ? v : (v ?? "—")); }))))));
}
export function titled(label, ...kids) {
  return h("div", {class: "cardrow"}, h("h3", {}, label), ...kids);
}
