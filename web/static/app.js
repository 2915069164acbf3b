// Table Companion: live table, seat and referee pages. No build step, no dependencies.
// Everything is drawn from the table's JSON snapshot (GET /api/tables/<id>, then SSE).
"use strict";

const C = window.COMPANION;
let snap = null;        // the latest snapshot
let faces = {};         // face id -> {name, element, number, kind, deck}
let cards = {};         // serial -> {face, name} (referee only)
let clockSkew = 0;      // server time - local time, seconds

// ---- tiny DOM helpers --------------------------------------------------------------
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
const $ = (id) => document.getElementById(id);
function setText(id, text) { const el = $(id); if (el) el.textContent = text || ""; }
function show(id, on) { const el = $(id); if (el) el.hidden = !on; }

// ---- API ---------------------------------------------------------------------------
async function api(method, path, body) {
  const headers = {"Accept": "application/json"};
  if (C.token) headers["Authorization"] = "Bearer " + C.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp;
  try {
    resp = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    return {ok: false, status: 0, data: {error: "The server cannot be reached. Is the Wi-Fi on?"}};
  }
  let data = {};
  try { data = await resp.json(); } catch (e) { data = {error: resp.statusText}; }
  return {ok: resp.ok, status: resp.status, data};
}
const tablePath = (rest) => `/api/tables/${encodeURIComponent(C.table)}${rest || ""}`;

let noticeTimer = null;
function notice(text, kind) {
  const el = $("notice");
  if (!el) return;
  el.textContent = text;
  el.className = "notice " + (kind || "info");
  el.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 9000 : 4000);
}

async function send(path, body) {
  const r = await api("POST", tablePath(path), body);
  if (!r.ok) {
    notice(r.data.error || `Refused (${r.status})`, "error");
    if (r.data.code === "stale_version") refresh();
  } else if (r.data.undone) {
    notice("Undone: " + r.data.undone, "info");
  }
  return r;
}

// ---- names and cards ---------------------------------------------------------------
function playerName(seat) {
  const n = Number(seat);
  if (Number.isInteger(n) && n >= 1 && n <= C.players.length) return C.players[n - 1];
  return String(seat);
}
function seatLabel(seat) {
  const n = Number(seat);
  if (Number.isInteger(n) && n >= 1 && n <= C.players.length) return `${C.players[n - 1]}`;
  return String(seat);
}
function humanKey(k) {
  if (/^\d+$/.test(k) && Number(k) >= 1 && Number(k) <= C.players.length) return seatLabel(k);
  return k.replace(/_/g, " ");
}
const SERIAL = /^[0-9A-Z]{4}-[0-9A-Z]{3}$/;
function cardChip(text) {
  let face = faces[text];
  let label = face ? face.name : text;
  let title = face ? face.text || "" : "";
  if (!face && SERIAL.test(text) && cards[text]) {
    face = faces[cards[text].face];
    label = `${cards[text].name} · ${text}`;
  }
  if (!face) return null;
  const cls = ["chip", "card"];
  if (face.element) cls.push("el-" + face.element);
  if (face.kind) cls.push("kind-" + face.kind);
  return h("span", {class: cls.join(" "), title}, label);
}

// ---- generic view rendering --------------------------------------------------------
const SEATISH = /^(seat|seats|turn|you|winner|winners|awaiting|declarer|current|leader|bidder|starting|first|out|challenge|eliminated|order|target_seat|player)$/;
function value(v, key) {
  if (v === null || v === undefined) return h("span", {class: "muted"}, "—");
  if (typeof v === "boolean") return h("span", {}, v ? "yes" : "no");
  if (typeof v === "number") {
    if (SEATISH.test(key || "") && Number.isInteger(v) && v >= 1 && v <= C.players.length) return h("span", {}, seatLabel(v));
    return h("span", {class: "num"}, String(v));
  }
  if (typeof v === "string") {
    const chip = cardChip(v);
    if (chip) return chip;
    if (SEATISH.test(key || "") && /^\d+$/.test(v)) return h("span", {}, seatLabel(v));
    return h("span", {}, v);
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return h("span", {class: "muted"}, "none");
    if (v.every((x) => x === null || typeof x !== "object")) {
      const seatish = SEATISH.test(key || "");
      return h("span", {class: "chips"}, v.map((x) => {
        if (seatish && Number.isInteger(x)) return h("span", {class: "chip"}, seatLabel(x));
        return cardChip(String(x)) || h("span", {class: "chip"}, String(x));
      }));
    }
    if (v.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      const cols = [...new Set(v.flatMap((x) => Object.keys(x)))];
      return h("table", {class: "grid"},
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", {}, humanKey(c))))),
        h("tbody", {}, v.map((row) => h("tr", {}, cols.map((c) => h("td", {}, value(row[c], c)))))));
    }
    return h("span", {class: "chips"}, v.map((x) => value(x, key)));
  }
  return dl(v, key);
}
function grouped(obj) {
  // A big map of serial -> place: group the serials by place, counts first.
  const groups = {};
  for (const [k, v] of Object.entries(obj)) (groups[v] = groups[v] || []).push(k);
  return h("div", {class: "groups"}, Object.entries(groups).map(([place, keys]) =>
    h("details", {}, h("summary", {}, `${place}: ${keys.length}`),
      h("span", {class: "chips"}, keys.map((k) => cardChip(k) || h("span", {class: "chip"}, k))))));
}
function dl(obj, parentKey) {
  const entries = Object.entries(obj);
  if (entries.length > 16 && entries.every(([, v]) => typeof v === "string")) return grouped(obj);
  if (entries.length === 0) return h("span", {class: "muted"}, "none");
  const seatKeys = Object.keys(obj).length > 0 && Object.keys(obj).every((k) => /^\d+$/.test(k));
  return h("dl", {class: "kv" + (seatKeys ? " seats" : "")},
    Object.entries(obj).flatMap(([k, v]) => [
      h("dt", {}, humanKey(k)), h("dd", {}, value(v, seatKeys ? parentKey : k))]));
}
const SKIP = new Set(["prompt", "ruling"]);
function renderView(view) {
  const el = $("view");
  if (!el) return;
  const rest = {};
  for (const [k, v] of Object.entries(view || {})) if (!SKIP.has(k)) rest[k] = v;
  el.replaceChildren(dl(rest, ""));
  const more = $("more");  // the raw figures fold away when a game panel shows the main ones
  if (more && !more.dataset.touched) more.open = !FULL_PANELS.has(C.game);
}

// ---- game panels: the figures people look at first ---------------------------------
function stat(label, v, cls) {
  return h("div", {class: "stat " + (cls || "")}, h("div", {class: "stat-v"}, v), h("div", {class: "stat-l"}, label));
}
function perSeat(obj) {
  // {"1": 12, "2": 9} or [12, 9] -> [[seat, value]...]
  if (Array.isArray(obj)) return obj.map((v, i) => [i + 1, v]);
  if (obj && typeof obj === "object") return Object.entries(obj).map(([k, v]) => [Number(k), v]);
  return [];
}
function seatRow(label, obj, opts) {
  const rows = perSeat(obj);
  if (!rows.length) return null;
  const max = Math.max(1, ...rows.map(([, v]) => (typeof v === "number" ? v : 0)));
  return h("div", {class: "seat-bars"}, h("h3", {}, label), rows.map(([s, v]) =>
    h("div", {class: "seat-bar" + ((opts && opts.hot && opts.hot.includes(s)) ? " hot" : "") +
      ((opts && opts.out && opts.out.includes(s)) ? " out" : "") + (s === C.seat ? " me" : "")},
      h("span", {class: "who"}, seatLabel(s)),
      typeof v === "number" ? h("span", {class: "meter"}, h("span", {style: `width:${Math.round(100 * v / max)}%`})) : null,
      h("span", {class: "num"}, typeof v === "object" ? value(v, "seat") : String(v)))));
}
function cardRow(label, list, note) {
  return h("div", {class: "cardrow"}, h("h3", {}, label, note ? h("small", {}, " " + note) : null),
    (list && list.length) ? h("div", {class: "chips big"}, list.map((x) => cardChip(String(x)) || h("span", {class: "chip"}, String(x))))
      : h("p", {class: "muted"}, "empty"));
}
// Games whose panel shows everything a player needs; their raw figures start folded.
const FULL_PANELS = new Set(["wuxing", "godnum", "shrine", "mountains", "gemcomplete"]);
function cardObj(c) {
  // Engines describe shown cards as {serial|card, face, name, ...}: one chip.
  if (!c || typeof c !== "object") return cardChip(String(c)) || h("span", {class: "chip"}, String(c));
  const f = faces[c.face] || {};
  const cls = ["chip", "card"];
  if (c.element || f.element) cls.push("el-" + (c.element || f.element));
  return h("span", {class: cls.join(" "), title: [c.serial || c.card, f.text].filter(Boolean).join(" · ")},
    c.name || f.name || c.face || c.serial || c.card);
}
function cards_(label, list, note) {
  return h("div", {class: "cardrow"}, h("h3", {}, label, note ? h("small", {}, " " + note) : null),
    (list && list.length) ? h("div", {class: "chips big"}, list.map(cardObj)) : h("p", {class: "muted"}, "none"));
}
function seatTable(rows, cols, opts) {
  // rows: per-seat objects; cols: [[header, fn(row)]]
  return h("table", {class: "grid seats-table"},
    h("thead", {}, h("tr", {}, cols.map(([c]) => h("th", {}, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {class: [(r.seat === C.seat) ? "me" : "", (opts && opts.hot === r.seat) ? "hot" : "",
      (r.eliminated || r.alive === false) ? "out" : ""].join(" ")},
      cols.map(([, fn]) => { const v = fn(r); return h("td", {}, v instanceof Node ? v : (v ?? "—")); })))));
}
const PANELS = {
  wuxing(v) {
    const ch = v.challenge || [];
    const kids = [];
    if (ch.length === 2) kids.push(h("div", {class: "challenge"}, h("b", {}, seatLabel(ch[0])), h("span", {}, " challenges "), h("b", {}, seatLabel(ch[1]))));
    kids.push(h("div", {class: "stats"},
      stat("in the pot", (v.pot || []).length),
      stat("in the Void", v.void ?? "—", "void"),
      stat("Universe cards left", v.universe_left ?? "—")));
    kids.push(cardRow("Pot", v.pot, "bottom → top"));
    const shown = perSeat(v.revealed).filter(([, f]) => f);
    if (shown.length) kids.push(h("div", {class: "cardrow"}, h("h3", {}, "Revealed this challenge"),
      h("div", {class: "chips big"}, shown.map(([s, f]) => h("span", {class: "reveal"}, seatLabel(s) + " ", cardChip(String(f)) || String(f))))));
    kids.push(seatRow("Cards in each deck", v.decks, {hot: ch, out: v.out || []}));
    return kids;
  },
  godnum(v) {
    const kids = [h("div", {class: "stats"},
      stat("divine number", v.divine_number ?? "—"), stat("target", v.target ?? "—"),
      stat("attribute", v.attribute ? h("span", {class: "chip card el-" + v.attribute}, v.attribute) : "none"),
      stat("direction", v.direction === -1 ? "reversed" : "clockwise"))];
    if (v.seats) kids.push(seatTable(v.seats, [["player", (r) => r.name], ["legion", (r) => r.legion_name],
      ["deck", (r) => r.deck], ["hand", (r) => r.hand], [`karma (of ${v.karma_limit ?? "?"})`, (r) => r.karma + (r.eliminated ? " · out" : "")]],
      {hot: v.turn}));
    kids.push(cards_("Last cards played", (v.pile || []).slice().reverse(), "newest first"));
    if (Array.isArray(v.legal)) {
      const ok = v.legal.filter((x) => x.ok);
      kids.push(h("div", {class: "cardrow"}, h("h3", {}, "Cards of your legion you may play now"),
        ok.length ? h("div", {class: "chips big"}, ok.map((x) => h("span", {class: "chip card ok", title: x.why || ""}, x.label)))
          : h("p", {class: "muted"}, v.turn !== v.you ? "Wait for your turn." : "None: discard instead (GN-5).")));
    }
    return kids;
  },
  shrine(v) {
    const kids = [];
    kids.push(cards_("Lot up for auction", v.lot || [], (v.lot_elements || []).length ? "bid in " + v.lot_elements.join(" or ") : ""));
    kids.push(h("div", {class: "stats"},
      stat("standing bid", v.standing_bid ? `${v.standing_bid}` : "none"),
      stat("high bidder", v.high_bidder ? seatLabel(v.high_bidder) : "—"),
      stat("to bid", v.turn ? seatLabel(v.turn) : "—"),
      stat("deck", v.deck_count ?? "—")));
    if (v.passed && v.passed.length) kids.push(h("p", {}, "Passed: ", v.passed.map(seatLabel).join(", ")));
    if (v.pool) kids.push(h("div", {}, h("h3", {}, "Pool"), dl(v.pool, "pool")));
    const oinks = perSeat(v.oinks);
    if (oinks.length) kids.push(h("div", {}, h("h3", {}, "Oinks"), seatTable(oinks.map(([s, o]) => ({seat: s, ...o})),
      [["player", (r) => seatLabel(r.seat)], ...Object.keys(oinks[0][1]).map((el) => [el, (r) => r[el]]),
       ["total", (r) => (v.oinks_total || {})[r.seat]]])));
    const inf = perSeat(v.influence);
    if (inf.length) kids.push(h("div", {}, h("h3", {}, "Influence"), inf.map(([s, x]) =>
      h("div", {class: "influence"}, h("b", {}, `${seatLabel(s)}: ${x.points} point${x.points === 1 ? "" : "s"}`),
        (x.groups || []).map((g) => h("div", {class: "group"}, h("span", {class: "muted"}, `${g.kind} (${g.points}) `),
          h("span", {class: "chips"}, (g.cards || []).map(cardObj))))))));
    return kids;
  },
  mountains(v, s) {
    const kids = [];
    if (v.players) kids.push(seatTable(v.players, [["player", (r) => r.name], ["character", (r) => r.character_name],
      ["HP", (r) => r.hp], ["tile", (r) => r.tile],
      ["weapons", (r) => h("span", {class: "chips"}, (r.weapons || []).map(cardObj))]], {hot: v.turn}));
    if (v.board && v.board.tiles) kids.push(board(v, s));
    if (v.piles) kids.push(h("div", {}, h("h3", {}, "Piles"), dl(v.piles, "piles")));
    if (v.actions_left) kids.push(h("div", {}, h("h3", {}, "Left this turn"), dl(v.actions_left, "left")));
    return kids;
  },
  gemcomplete(v) {
    const kids = [];
    if (v.step) kids.push(h("div", {class: "challenge"}, h("b", {}, seatLabel(v.turn)), ` · turn ${v.turn_number} · ${v.step} step`));
    for (const st of v.seats || []) {
      kids.push(h("div", {class: "gem-seat" + (st.seat === C.seat ? " me" : "")},
        h("h3", {}, `${st.name} · ${st.deck_name}`),
        h("div", {class: "stats"}, stat("deck", st.deck), stat("hand", st.hand),
          stat("discard", (st.discard || []).length + (st.discard_unknown || 0)), stat("Locus", (st.locus || []).length)),
        h("div", {class: "locus"}, (st.locus || []).map((c) => h("span", {class: "slot" + (c.gem ? " gem" : "") + (c.known ? "" : " down"),
          title: c.public ? "face up" : (c.known ? "you know this card" : "face down")},
          h("small", {}, c.position), " ", c.name || "?"))),
        (st.discard || []).length ? h("div", {class: "chips"}, h("small", {class: "muted"}, "discard pile: "), st.discard.map(cardObj)) : null));
    }
    if (v.declaration) kids.push(h("div", {class: "declaration"}, h("h3", {}, "Complete Declaration by " + seatLabel(v.declaration.declarer)),
      h("p", {}, "Positions: " + (v.declaration.positions || []).join(", ")),
      cards_("Revealed", v.declaration.revealed || [])));
    return kids;
  },
};
function board(v, s) {
  const size = v.board.size || 9;
  // Tap a highlighted tile to move there, when this page may move (MR-4).
  const move = ((s && s.actions) || []).find((a) => a.type === "move" && !a.why && (a.fields || []).length === 1);
  const canGo = new Set(move ? (move.fields[0].choices || []).map((c) => c.value) : []);
  const at = {};
  for (const p of v.players || []) if (p.tile && p.alive !== false) (at[p.tile] = at[p.tile] || []).push(p);
  const reach = new Set((v.reachable || []).map((r) => r.tile || r.to || r));
  const grid = h("div", {class: "board", style: `grid-template-columns: repeat(${size}, 1fr)`});
  for (const t of v.board.tiles) {
    const go = canGo.has(t.id) ? () => {
      const body = {type: "move", [move.fields[0].name]: t.id, version: snap.version};
      if (move.seat !== null && move.seat !== undefined) body.seat = move.seat;
      send("/actions", body);
    } : null;
    grid.append(h("div", {class: `tile c-${t.colour} k-${t.kind}` + (reach.has(t.id) ? " reach" : "") + (go ? " go" : ""),
      onclick: go, role: go ? "button" : null, "data-tile": t.id,
      title: `${t.id} ${t.colour} ${t.kind}${t.exit ? " → " + t.exit : ""}`, style: `grid-row:${t.row};grid-column:${t.col}`},
      h("small", {}, t.id), t.kind !== "plain" ? h("span", {class: "kind"}, t.kind[0].toUpperCase()) : null,
      at[t.id] ? h("span", {class: "tokens"}, at[t.id].map((p) =>
        h("b", {class: "token" + (p.seat === C.seat ? " me" : ""), title: p.name}, p.name.slice(0, 2)))) : null));
  }
  // What the tile letters mean, for the kinds on this board.
  const kinds = [...new Set(v.board.tiles.map((t) => t.kind).filter((k) => k && k !== "plain"))].sort();
  const legend = kinds.length ? h("p", {class: "board-legend"}, kinds.map((k, i) =>
    [i ? " · " : "", h("b", {}, k[0].toUpperCase()), " " + k])) : null;
  return h("div", {}, h("h3", {}, "Board", reach.size ? h("small", {}, " · highlighted: reachable") : null), grid, legend);
}
function renderPanel(s) {
  const el = $("panel");
  const fn = PANELS[s.game];
  let kids = [];
  try { kids = fn ? fn(s.view || {}, s).filter(Boolean) : []; } catch (e) { console.error(e); kids = []; }
  el.replaceChildren(...kids);
  el.hidden = kids.length === 0;
}

// ---- actions: forms and buttons from Rules.actions ---------------------------------
function fieldInput(f, a) {
  const name = f.name;
  const required = !f.optional;
  if (f.kind === "int") {
    // Say the limits before the player sends: the range, and unit digits a rule forbids (SK-4).
    const limits = [];
    if (f.min !== undefined && f.max !== undefined) limits.push(`${f.min} to ${f.max}`);
    else if (f.min !== undefined) limits.push(`at least ${f.min}`);
    else if (f.max !== undefined) limits.push(`at most ${f.max}`);
    const units = f.forbidden_units || [];
    if (units.length) limits.push("not ending in " + units.join(" or "));
    // Empty unless the engine proposes a value: a tap without typing must not send a die
    // roll or a bid nobody made.
    return h("label", {}, f.label || name, h("input", {type: "number", name, min: f.min, max: f.max, value: f.default ?? null, required,
      inputmode: "numeric", placeholder: limits[0] || null}),
      limits.length ? h("small", {class: "hints"}, limits.join(" · ")) : null);
  }
  if (f.kind === "choice" && !f.optional && (f.choices || []).length === 1) {
    // Nothing to choose: say what it is, and send it (a select of one is a puzzle on a phone).
    const c = f.choices[0];
    const hidden = h("input", {type: "hidden", name, value: JSON.stringify(c.value)});
    if ((c.label ?? String(c.value)) === (a && a.label)) return hidden;  // the heading says it
    return h("div", {class: "fixed"}, h("span", {class: "muted"}, (f.label || name) + ": "), c.label ?? String(c.value),
      hidden);
  }
  if (f.kind === "choice") {
    // An optional choice starts empty (MR-7: a second weapon is not a must), unless the
    // engine lists its own "none" (a null value) among the choices.
    const none = f.optional && !(f.choices || []).some((c) => c.value === null) ? [h("option", {value: ""}, "— none —")] : [];
    return h("label", {}, f.label || name, h("select", {name}, none, (f.choices || []).map((c) => h("option", {value: JSON.stringify(c.value), title: c.why || ""}, c.label ?? String(c.value)))));
  }
  if (f.kind === "choices") {
    return h("fieldset", {class: "choices", "data-name": name, "data-count": f.count ?? ""},
      h("legend", {}, (f.label || name) + (f.count ? ` (choose ${f.count})` : "")),
      (f.choices || []).map((c) => h("label", {class: "check", title: c.why || ""},
        h("input", {type: "checkbox", value: JSON.stringify(c.value)}), c.label ?? String(c.value))));
  }
  if (f.kind === "card") {
    const hints = (f.hints || []).filter((x) => x.ok !== false);
    const where = zoneWords(f.zone);
    return h("label", {}, (f.label || name) + (where ? ` · ${where}` : ""),
      h("input", {type: "text", name, list: f.multiple ? null : "card-list", required, "data-zone": f.zone || "",
        placeholder: f.multiple ? "serials, separated by spaces" : "card serial or code text"}),
      hints.length ? h("small", {class: "hints"}, "Allowed now: ", hints.map((x) => x.label).join(", ")) : null);
  }
  return h("label", {}, f.label || name, h("input", {type: "text", name, maxlength: 200}));
}
function zoneWords(z) {
  // "seat:2" -> "Ben's seat"; nothing on Ben's own phone, where it goes without saying.
  const m = /^(seat|locus):(\d+)$/.exec(z || "");
  if (!m) return z || "";
  if (Number(m[2]) === C.seat) return m[1] === "seat" ? "" : "your Locus";
  return `${seatLabel(m[2])}'s ${m[1] === "seat" ? "seat" : "Locus"}`;
}
function collect(form, a) {
  const body = {type: a.type};
  if (a.seat !== null && a.seat !== undefined) body.seat = a.seat;
  for (const f of a.fields || []) {
    if (f.kind === "choices") {
      const box = form.querySelector(`fieldset[data-name="${CSS.escape(f.name)}"]`);
      body[f.name] = [...box.querySelectorAll("input:checked")].map((i) => JSON.parse(i.value));
      continue;
    }
    const input = form.elements[f.name];
    if (!input) continue;
    if (f.kind === "int") {
      if (input.value.trim() === "") continue;  // optional and left empty (required ones cannot be)
      body[f.name] = parseInt(input.value, 10);
    }
    else if (f.kind === "choice") {
      if (input.value === "") continue;  // an optional choice left empty
      body[f.name] = JSON.parse(input.value);
    }
    else if (f.optional && !input.value.trim()) continue;
    else body[f.name] = input.value.trim();
    if (f.kind === "card" && f.multiple) body[f.name] = input.value.split(/[\s,;]+/).filter(Boolean);
    if (f.kind === "card" && f.zone && a.type === "scan" && !(a.fields || []).some((g) => g.name === "zone")) body.zone = f.zone;
  }
  body.version = snap.version;
  return body;
}
function actionBox(a) {
  const who = (C.role === "host" && a.seat) ? h("span", {class: "for"}, "for " + seatLabel(a.seat)) : null;
  const rule = a.rule ? h("span", {class: "rule"}, a.rule) : null;
  const fields = a.fields || [];
  if (a.why) {  // listed so people see it exists, but not allowed now: say why
    return h("div", {class: "action unavailable"}, h("div", {class: "action-head"}, a.label, who, rule),
      h("p", {class: "muted"}, a.why));
  }
  const post = async (body, btn) => {
    if (btn) btn.disabled = true;
    const r = await send("/actions", body);
    if (btn) btn.disabled = false;
    return r;
  };
  // One choice and nothing else: one button per choice, one tap to play.
  if (fields.length === 1 && fields[0].kind === "choice" && (fields[0].choices || []).length <= 12) {
    const f = fields[0];
    // A single choice worded like the action itself (a skill): the button alone says it.
    const same = f.choices.length === 1 && (f.choices[0].label ?? String(f.choices[0].value)) === a.label;
    return h("div", {class: "action"}, h("div", {class: "action-head"}, same ? null : a.label, who, rule),
      h("div", {class: "buttons"}, f.choices.map((c) => h("button", {type: "button", title: c.why || "", disabled: c.ok === false,
        "data-action": a.type, "data-value": JSON.stringify(c.value),
        onclick: (ev) => { const body = {type: a.type, [f.name]: c.value, version: snap.version};
          if (a.seat !== null && a.seat !== undefined) body.seat = a.seat; post(body, ev.currentTarget); }},
        c.label ?? String(c.value)))));
  }
  const form = h("form", {class: "action", "data-action": a.type},
    h("div", {class: "action-head"}, a.label, who, rule),
    fields.map((f) => fieldInput(f, a)),
    h("button", {type: "submit"}, a.label));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = collect(form, a);
    const r = await post(body, form.querySelector("button[type=submit]"));
    if (r.ok) form.reset();
  });
  return form;
}
function renderActions(s) {
  const el = $("actions");
  if (!el) return;
  const list = s.actions || [];
  if (!list.length) {
    el.replaceChildren(h("p", {class: "muted"}, s.finished ? "The game is over." : "Nothing to do right now."));
    return;
  }
  // Keep a half-typed form if nothing about the actions changed.
  const sig = JSON.stringify(list);
  if (el.dataset.sig === sig) return;
  el.dataset.sig = sig;
  el.replaceChildren(...list.map(actionBox));
}

// ---- referee extras ----------------------------------------------------------------
function when(t) {
  const d = new Date(t * 1000);
  return d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
}
function whoLabel(who) {
  if (who.startsWith("seat:")) return seatLabel(who.slice(5));
  return {host: "referee", camera: "camera", companion: "companion"}[who] || who;
}
function renderLog(s) {
  const el = $("log");
  if (!el || !s.log) return;
  el.replaceChildren(...s.log.slice().reverse().map((r) =>
    h("tr", {class: "k-" + r.kind + (r.voided ? " voided" : "")},
      h("td", {class: "num"}, r.seq), h("td", {}, when(r.time)), h("td", {}, whoLabel(r.who)),
      h("td", {}, h("span", {class: "what"}, r.ruling || r.event.type),
        r.voided ? h("small", {class: "tag"}, ` undone by #${r.voided_by}`) : null,
        r.kind === "event" ? h("code", {class: "ev"}, JSON.stringify(r.event)) : null))));
  const undo = $("undo");
  if (undo) {
    undo.disabled = !s.can_undo;
    undo.dataset.armed = "";
    undo.textContent = s.can_undo ? "Undo: " + s.can_undo : "Nothing to undo";
    undo.title = s.can_undo || "";
  }
  const zone = $("scan-zone");
  if (zone && zone.dataset.sig !== JSON.stringify(s.zones)) {
    zone.dataset.sig = JSON.stringify(s.zones);
    zone.replaceChildren(...(s.zones || []).map((z) => {
      const m = /^(\w+):(\d+)$/.exec(z);
      return h("option", {value: z}, m ? `${m[1]} of ${seatLabel(m[2])} (${z})` : z);
    }));
  }
  // Start at the zone the table waits for a card in; a zone the referee picked stays
  // picked until the awaited zones change.
  const due = (s.actions || []).flatMap((a) => a.why ? [] : (a.fields || [])
    .filter((f) => f.kind === "card" && f.zone).map((f) => f.zone));
  if (zone && zone.dataset.due !== JSON.stringify(due)) {
    zone.dataset.due = JSON.stringify(due);
    if (due.length && [...zone.options].some((o) => o.value === due[0])) zone.value = due[0];
  }
}
function setupReferee() {
  const undo = $("undo");
  if (undo) undo.addEventListener("click", async () => {
    if (!undo.dataset.armed) {  // two taps: an undo cannot be redone
      undo.dataset.armed = "1";
      undo.textContent = "Tap again to undo: " + (snap.can_undo || "");
      setTimeout(() => { if (undo.dataset.armed) { undo.dataset.armed = ""; if (snap) renderLog(snap); } }, 4000);
      return;
    }
    undo.dataset.armed = "";
    undo.disabled = true;
    await send("/undo", {version: snap.version});
  });
  const sf = $("scan-form");
  if (sf) sf.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {type: "scan", card: $("scan-card").value.trim(), zone: $("scan-zone").value, version: snap.version};
    if ($("scan-override").checked) body.override = true;
    const r = await send("/actions", body);
    if (r.ok) { $("scan-card").value = ""; $("scan-override").checked = false; notice(r.data.ruling || "Card entered.", "ok"); }
  });
  const tf = $("timer-form");
  if (tf) tf.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await send("/timer", {seconds: parseInt($("timer-seconds").value || "0", 10), version: snap.version});
  });
  loadCards();
  const cam = $("camera-frame");
  if (cam) setInterval(() => {  // a fresh frame twice a second, while the page is seen
    if (!document.hidden) cam.src = cam.dataset.src + "?t=" + Date.now();
  }, 500);
}
function loadCards() {
  // Serial -> face, for typing a card by its name (the datalist matches labels too).
  api("GET", tablePath("/cards")).then((r) => {
    const list = $("card-list");
    if (!r.ok || !list) return;
    for (const c of r.data.cards) {
      cards[c.serial] = c;
      list.append(h("option", {value: c.serial}, `${c.name} (${c.deck})`));
    }
    if (snap) render(snap);
  });
}

// ---- timer -------------------------------------------------------------------------
function tickTimer() {
  const el = $("timer");
  if (!el) return;
  const t = snap && snap.timer;
  if (!t || snap.finished) { el.hidden = true; return; }
  const left = t.deadline - (Date.now() / 1000 + clockSkew);
  el.hidden = false;
  const s = Math.max(0, Math.ceil(left));
  el.textContent = left > 0 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left` : "time is up";
  el.className = "timer" + (left <= 0 ? " over" : left <= 10 ? " soon" : "");
}

// ---- recent rulings, in public words -------------------------------------------------
function renderHistory(s) {
  const el = $("history");
  if (!el) return;
  // The newest record is already on the page as the ruling. After an undo it is the undo
  // (shown as "Undone: ..."), and the ruling standing again is the newest play not voided.
  const rows = (s.history || []).slice(1);
  if (s.undone) {
    const i = rows.findIndex((r) => !r.voided);
    if (i >= 0) rows.splice(i, 1);
  }
  el.parentElement.hidden = rows.length === 0;
  el.replaceChildren(...rows.map((r) => h("li", {class: r.voided ? "voided" : ""},
    h("span", {class: "when"}, when(r.time)), " ", r.text)));
}

// ---- a phone says when it is this seat's turn ----------------------------------------
let hadActions = false;
function yourTurn(s) {
  if (C.role !== "seat") return;
  const now = (s.actions || []).some((a) => !a.why);
  document.body.classList.toggle("my-turn", now);
  document.title = (now ? "● Your move · " : "") + document.title.replace(/^● Your move · /, "");
  if (now && !hadActions && navigator.vibrate) navigator.vibrate(150);
  hadActions = now;
}

// ---- render everything ---------------------------------------------------------------
function render(s) {
  if (snap && s.version < snap.version) return;  // an older answer arriving late
  snap = s;
  if (s.now) clockSkew = s.now - Date.now() / 1000;
  const v = s.view || {};
  setText("version", "v" + s.version);
  setText("prompt", v.prompt || (s.finished ? "The game is over." : ""));
  setText("ruling", v.ruling || "");
  const w = $("winner");
  if (w) {
    w.hidden = !s.finished;
    if (s.finished) w.textContent = s.winners.length ? "Winner: " + s.winners.map(playerName).join(" and ") : "The game is over: no winner.";
  }
  show("undone", !!s.undone);
  setText("undone", s.undone ? "Undone: " + s.undone : "");
  renderPanel(s);
  renderView(v);
  renderActions(s);
  renderLog(s);
  renderHistory(s);
  yourTurn(s);
  tickTimer();
  document.body.dataset.version = String(s.version);
}

async function refresh() {
  const r = await api("GET", tablePath(""));
  if (r.ok) render(r.data);
}

// One event stream while the page is in sight. A browser keeps at most six connections to
// one server; tabs left open in the background (big screen, seat pages, referee) would
// otherwise hold them all and every tap would hang. Out of sight the stream is closed; back
// in sight a new one gets the current snapshot at once, so nothing is missed.
let stream = null;
function connect() {
  if (stream) return;
  const q = C.token ? `?token=${encodeURIComponent(C.token)}` : "";
  const es = new EventSource(tablePath("/events") + q);
  stream = es;
  const live = $("live");
  es.addEventListener("open", () => { live.textContent = "live"; live.className = "live on"; });
  es.addEventListener("error", () => { if (stream === es) { live.textContent = "reconnecting…"; live.className = "live off"; } });
  es.addEventListener("table", (e) => render(JSON.parse(e.data)));
}
function disconnect() {
  if (!stream) return;
  stream.close();
  stream = null;
  const live = $("live");
  live.textContent = "paused";
  live.className = "live off";
}

async function main() {
  const r = await api("GET", `/api/games/${encodeURIComponent(C.game)}/faces`);
  if (r.ok) faces = r.data.faces;
  if (C.role === "host") setupReferee();
  if (C.role === "seat") loadCards();
  connect();
  setInterval(tickTimer, 250);
  // A phone back from sleep, or a tab back in front, reconnects and catches up.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { disconnect(); return; }
    connect();
    refresh();
  });
}
main();
