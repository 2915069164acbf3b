// Shared by every table page: the page's configuration, the latest snapshot, DOM helpers,
// names and plain words (C-8). No build step: the browser loads these ES modules as they are.

const conf = document.getElementById("companion-config");
export const C = conf ? JSON.parse(conf.textContent) : {};

// What the page knows: the latest snapshot, the game's card faces, the printed cards.
export const store = {
  snap: null,   // the latest snapshot (GET /api/tables/<id> or the event stream)
  faces: {},    // face id -> {name, element, number, kind, deck, text}
  cards: {},    // serial -> {face, name, deck}
  skew: 0,      // server clock - local clock, seconds
  rulings: {},  // ruling id (lower case) -> {text, href}: the rules page's plain sentence
};

// h("button", {class: "x", onclick: fn}, "kids"): listeners are attached in JS, never as
// attributes (the pages run under a Content-Security-Policy without inline script).
export function h(tag, attrs, ...kids) {
  const svg = tag.startsWith("svg:");
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.setAttribute("class", v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
export const $ = (id) => document.getElementById(id);
export function setText(id, text) { const el = $(id); if (el) el.textContent = text || ""; }
export function show(id, on) { const el = $(id); if (el) el.hidden = !on; }

// ---- names ---------------------------------------------------------------------------
export function seatLabel(seat) {
  const n = Number(seat);
  if (Number.isInteger(n) && n >= 1 && n <= (C.players || []).length) return C.players[n - 1];
  return String(seat);
}
export function names(list) {
  const xs = list.map(seatLabel);
  return xs.length <= 1 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}
export function count(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

// ---- plain words (C-8) ---------------------------------------------------------------
// Ruling ids ("(WX-4)", "(C-1, logged)") are for the referee and the docs: a player's page
// shows the sentence, and a small "why?" opens the ids.
const RULE_ID = /[A-Z]{1,3}-\d+[a-z]?/g;
const RULE_PAREN = /\s*\((?:[^()]*?\b[A-Z]{1,3}-\d+[a-z]?\b[^()]*?)\)/g;
export function plain(text) {
  const s = String(text ?? "");
  const rules = [...new Set(s.match(RULE_PAREN)?.flatMap((p) => p.match(RULE_ID) || []) || [])];
  let out = s.replace(RULE_PAREN, "")
    .replace(/\bcard\(s\)/g, "cards")
    .replace(/\bseat:(\d+)\b/g, (m, n) => seatLabel(n))
    .replace(/\b(deck|hand|discard|locus):(\d+)\b/g, (m, w, n) => `${seatLabel(n)}'s ${w === "locus" ? "Locus" : w}`)
    .replace(/\b(pile|discard):([a-z]+)\b/g, (m, w, kind) => w === "pile" ? `${kind} pile` : `${kind} discard pile`)
    .replace(/\bseat \d+ \(([^()]+)\)/g, "$1")
    .replace(/'([a-z][a-z0-9-]*)'/g, (m, id) => store.faces[id] ? store.faces[id].name : m)
    .replace(/'([0-9A-Z]{4}-[0-9A-Z]{3})'/g, (m, serial) => store.cards[serial]
      ? (C.role === "host" ? `${store.cards[serial].name} (${serial})` : store.cards[serial].name)
      : (C.role === "host" ? m : "that card"))
    .replace(/\s+([.,;:])/g, "$1");
  return {text: out, rules};
}
export function plainText(text) { return plain(text).text; }

// A "why?" that opens to each ruling in a plain sentence, with a link to its section of the
// rules page this server serves (issue 20 §6); phones cannot hover, so it opens on a tap.
function whyLines(ids, extra) {
  const out = extra ? [h("span", {}, extra + " ")] : [];
  for (const id of ids) {
    const key = id.toLowerCase();
    const r = store.rulings[key] || store.rulings[key.split(".")[0]];
    const href = r ? r.href : `/rules/${encodeURIComponent(C.game || "common")}#${key}`;
    out.push(h("span", {class: "why-rule"}, r && r.text ? r.text + " " : "",
      h("a", {href, target: "_blank", rel: "noopener"}, `Rule ${id} on the rules page`)));
  }
  return out;
}
export function why(rules, extra) {
  const ids = (Array.isArray(rules) ? rules : [rules]).filter(Boolean);
  if (!ids.length && !extra) return null;
  const body = h("span", {class: "why-body"}, whyLines(ids, extra));
  const box = h("details", {class: "why"}, h("summary", {}, "why?"), body);
  // The sentences may arrive after the page drew the "why?": filled again when opened.
  box.addEventListener("toggle", () => { if (box.open) body.replaceChildren(...whyLines(ids, extra)); });
  return box;
}

// The sentence and its "why?", as one element.
export function sentence(text, rule, cls) {
  const p = plain(text);
  const ids = [...new Set([...(rule ? [rule] : []), ...p.rules])];
  return h("span", {class: cls || ""}, p.text, ids.length ? " " : null, why(ids));
}

// ---- card faces ------------------------------------------------------------------------
export function faceOf(x) {
  if (!x) return null;
  if (typeof x === "object") return {...(store.faces[x.face] || {}), ...x};
  if (store.faces[x]) return {face: x, ...store.faces[x]};
  const c = store.cards[x];
  if (c && store.faces[c.face]) return {face: c.face, serial: x, ...store.faces[c.face]};
  return null;
}

// A table that scrolls inside itself is a region a keyboard can reach (axe, issue 20 §7),
// named by the heading of its box.
export function scrollRegions() {
  for (const el of document.querySelectorAll(".scroll:not([tabindex])")) {
    el.tabIndex = 0;
    el.setAttribute("role", "region");
    const head = el.closest("section, .panel, details")?.querySelector("h2, h3, summary");
    el.setAttribute("aria-label", head ? head.textContent.trim() : "table");
  }
}
