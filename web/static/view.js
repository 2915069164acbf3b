// Every figure of the view, folded away behind a toggle (the game panel shows the main ones).
// Keys and values are put in words: names for seats, card names for face ids.
import {C, h, $, seatLabel, plain, faceOf} from "./core.js";

const SEATISH = /^(seat|seats|turn|you|winner|winners|awaiting|declarer|current|leader|bidder|starting|first|out|challenge|eliminated|order|target_seat|player|high_bidder|passed)$/;
const SKIP = new Set(["prompt", "ruling", "rule", "game", "options", "last_adjudication", "legal", "board", "you"]);

function humanKey(k) {
  if (/^\d+$/.test(k) && Number(k) >= 1 && Number(k) <= C.players.length) return seatLabel(k);
  return plain(k).text.replace(/_/g, " ");
}
function chip(text) {
  const f = faceOf(text);
  return h("span", {class: "chip" + (f ? " card" + (f.element ? " el-" + f.element : "") : "")}, f ? f.name : plain(text).text);
}
function value(v, key) {
  if (v === null || v === undefined) return h("span", {class: "muted"}, "—");
  if (typeof v === "boolean") return h("span", {}, v ? "yes" : "no");
  if (typeof v === "number") {
    if (SEATISH.test(key || "") && Number.isInteger(v) && v >= 1 && v <= C.players.length) return h("span", {}, seatLabel(v));
    return h("span", {class: "num"}, String(v));
  }
  if (typeof v === "string") return faceOf(v) ? chip(v) : h("span", {}, plain(v).text);
  if (Array.isArray(v)) {
    if (v.length === 0) return h("span", {class: "muted"}, "none");
    if (v.every((x) => x === null || typeof x !== "object")) {
      return h("span", {class: "chips"}, v.map((x) => SEATISH.test(key || "") && Number.isInteger(x)
        ? h("span", {class: "chip"}, seatLabel(x)) : chip(String(x))));
    }
    return h("span", {class: "chips"}, v.map((x) => value(x, key)));
  }
  return dl(v, key);
}
function dl(obj, parentKey) {
  const entries = Object.entries(obj).filter(([k]) => !SKIP.has(k));
  if (entries.length === 0) return h("span", {class: "muted"}, "none");
  const seatKeys = entries.every(([k]) => /^\d+$/.test(k));
  return h("dl", {class: "kv"}, entries.flatMap(([k, v]) => [
    h("dt", {}, humanKey(k)), h("dd", {}, value(v, seatKeys ? parentKey : k))]));
}

export function renderView(view) {
  const el = $("view");
  if (el) el.replaceChildren(dl(view || {}, ""));
}
