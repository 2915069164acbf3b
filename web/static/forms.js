// The moves this page may make, drawn from the snapshot's ``actions`` (Rules.actions) for
// every game: one button per choice, card tiles, a stepper for numbers, a confirm where the
// engine asks for one, and the reason on tap for what is not allowed now (like BGA).
import {C, h, $, store, seatLabel, plain, why} from "./core.js";
import {send, notice} from "./api.js";
import {cardTile, fieldFaces} from "./tiles.js";

const MANY = 12;  // more choices than this: a list to pick from, not a wall of buttons

function bodyOf(a, extra) {
  const body = {type: a.type, ...extra, version: store.snap.version};
  if (a.seat !== null && a.seat !== undefined) body.seat = a.seat;
  return body;
}

// A sentence to agree to before a move that cannot be taken back quietly (a pass, a skill).
export function confirmFirst(text, yes) {
  return new Promise((resolve) => {
    const dlg = h("dialog", {class: "confirm"},
      h("p", {}, plain(text).text),
      h("div", {class: "buttons"},
        h("button", {type: "button", class: "yes", onclick: () => { dlg.close(); dlg.remove(); resolve(true); }}, yes || "Yes"),
        h("button", {type: "button", class: "secondary", onclick: () => { dlg.close(); dlg.remove(); resolve(false); }}, "Cancel")));
    document.body.append(dlg);
    dlg.showModal();
  });
}

async function post(a, extra, btn) {
  // A proposed effect (Gem Complete, GC-3 rev. 2) shows its sentence by the button: the tap
  // on "Yes" is the confirmation, no second dialog.
  if (a.confirm && !a.proposed && !(await confirmFirst(a.confirm, a.label))) return null;
  if (btn) btn.disabled = true;
  const r = await send("/actions", bodyOf(a, extra));
  if (btn && btn.isConnected) btn.disabled = false;
  return r;
}

// Not allowed now: greyed, and a tap says why (phones cannot hover).
function refusedTap(reason) {
  return (ev) => { ev.preventDefault(); notice(plain(reason).text, "info"); };
}

function head(a, text) {
  const who = (C.role === "host" && a.seat) ? h("span", {class: "for"}, "for " + seatLabel(a.seat)) : null;
  return h("div", {class: "action-head"}, text === null ? null : plain(text ?? a.label).text, who,
    C.role === "host" && a.rule ? h("span", {class: "rule"}, a.rule) : why(a.rule ? [a.rule] : []));
}

// One button per choice. Choices that are card faces (God Num's chips) are card pictures,
// legion by legion when the engine gives a ``group`` (GN-2 rev. 2), each with its ``hint``
// in visible words ("→ 35: you win", GN-5 rev. 2) or, when ``disabled``, why not, said again
// on a tap (GN-6). ``wrap`` turns the value into the field's value (a one-card discard: [v]).
function choiceButtons(a, f, base, wrap) {
  const put = wrap || ((v) => v);
  const one = (c) => {
    const blocked = c.disabled || (c.ok === false ? (c.why || "not allowed now") : null);
    const tap = blocked ? refusedTap(blocked) : (ev) => post(a, {...base, [f.name]: put(c.value)}, ev.currentTarget);
    const copies = c.copies > 1 ? `×${c.copies}` : null;
    if (typeof c.value === "string" && store.faces[c.value]) {
      // A blocked card's reason is its row's heading (faceRows): said once, not per tile.
      const note = [copies, c.hint ? plain(c.hint).text : null].filter(Boolean).join(" · ");
      const tile = cardTile(c.value, {blocked, note: note || null, onTap: tap});
      tile.classList.add("choice");
      tile.dataset.action = a.type;
      tile.dataset.value = JSON.stringify(c.value);
      return tile;
    }
    return h("button", {type: "button", class: "choice" + (blocked ? " blocked" : ""),
      "data-action": a.type, "data-value": JSON.stringify(c.value), "aria-disabled": blocked ? "true" : null, onclick: tap},
      plain(c.label ?? String(c.value)).text, copies ? h("small", {class: "hint"}, copies) : null,
      c.hint ? h("small", {class: "hint"}, plain(c.hint).text) : null);
  };
  const choices = f.choices || [];
  const groups = [...new Set(choices.map((c) => c.group).filter(Boolean))];
  const row = (list) => faceChoices(f) ? faceRows(list, one) : h("div", {class: "buttons"}, list.map(one));
  if (groups.length < 2) return row(choices);
  // Several legions (God Num before one is bound, GN-2 rev. 2): a tap chooses the legion,
  // then only its cards show (issue 20), not 120 faces in sideways rows.
  return legionPicker(groups, (g) => row(choices.filter((c) => c.group === g)));
}

// Card faces to choose from (God Num's hand, issue 29 §1): what can be played first, as
// small tiles four to a phone's row; then the others under their shared reason, said once
// ("Not now: needs a number above 10"), not on every tile.
function faceRows(list, one) {
  const reason = (c) => c.disabled || (c.ok === false ? (c.why || "not allowed now") : null);
  const now = list.filter((c) => !reason(c));
  const later = new Map();
  for (const c of list.filter(reason)) {
    const r = plain(reason(c)).text;
    later.set(r, [...(later.get(r) || []), c]);
  }
  const tiles = (xs) => h("div", {class: "card-tiles legal many"}, xs.map(one));
  return h("div", {class: "face-rows"}, now.length ? tiles(now) : null,
    [...later].map(([r, xs]) => h("div", {class: "not-now"}, h("p", {class: "not-now-why"}, `Not now: ${r}`), tiles(xs))));
}

// Several cards to choose (God Num's discard, issue 29 §1): a tap on a card's tile takes it
// (a second tap another copy, past the last copy none), then one button sends them all.
function faceTaps(a, f, base) {
  const picked = new Map();
  const send = h("button", {type: "button", class: "send-picked", disabled: true, "data-action": a.type}, "Choose cards first");
  const words = () => {
    const n = [...picked.values()].reduce((x, y) => x + y, 0);
    send.disabled = n === 0;
    send.textContent = n ? `${plain(a.label).text.replace(/\s*\(.*\)$/, "")}: ${n} card${n === 1 ? "" : "s"}` : "Choose cards first";
  };
  const tile = (c) => {
    const copies = c.copies || 1;
    const t = cardTile(c.value, {note: copies > 1 ? `×${copies}` : null, onTap: () => {
      const n = ((picked.get(c.value) || 0) + 1) % (copies + 1);
      if (n) picked.set(c.value, n); else picked.delete(c.value);
      t.setAttribute("aria-pressed", String(n > 0));
      t.dataset.picked = String(n);
      const note = t.querySelector(".card-note");
      if (note) note.textContent = n ? `${n} of ${copies}` : `×${copies}`;
      words();
    }});
    t.classList.add("choice");
    t.setAttribute("aria-pressed", "false");
    t.dataset.value = JSON.stringify(c.value);
    return t;
  };
  send.addEventListener("click", async (ev) => {
    const cards = [...picked].flatMap(([v, n]) => Array(n).fill(v));
    const r = await post(a, {...base, [f.name]: cards}, ev.currentTarget);
    if (r && r.ok) { picked.clear(); words(); }
  });
  return [h("div", {class: "card-tiles legal many picks"}, (f.choices || []).map(tile)), send];
}

// Exactly ``count`` of several choices (Gem Complete's Complete Declaration, GC-4: six Locus
// positions): a tap on each, drawn as the card that lies there when this page knows it
// (issue 29 §8: not bare numbered checkboxes with the cards far below), then one button.
function countTaps(a, f, base) {
  const picked = new Set();
  const me = ((store.snap && store.snap.view && store.snap.view.seats) || []).find((x) => x.seat === (a.seat || C.seat));
  const at = Object.fromEntries(((me && me.locus) || []).map((x) => [x.position, x]));
  const send = h("button", {type: "button", class: "send-picked", disabled: true, "data-action": a.type}, `Choose ${f.count}`);
  const words = () => {
    send.disabled = picked.size !== f.count;
    send.textContent = picked.size === f.count ? `${plain(a.label).text}: ${[...picked].sort((x, y) => x - y).join(", ")}`
      : `Choose ${f.count - picked.size} more`;
  };
  const tile = (c) => {
    const card = C.game === "gemcomplete" && f.name === "positions" ? at[c.value] : null;
    const note = `position ${c.value}`;
    const t = card && card.face ? cardTile(card.face, {note, onTap: () => toggle()})
      : cardTile({name: plain(c.label ?? String(c.value)).text}, {note: card ? note + " · face down" : null, onTap: () => toggle()});
    const toggle = () => {
      if (picked.has(c.value)) picked.delete(c.value);
      else if (picked.size < f.count) picked.add(c.value);
      else { notice(`${f.count} already chosen: tap one to take it back.`, "info"); return; }
      t.setAttribute("aria-pressed", String(picked.has(c.value)));
      words();
    };
    t.classList.add("choice");
    t.setAttribute("aria-pressed", "false");
    t.dataset.value = JSON.stringify(c.value);
    return t;
  };
  send.addEventListener("click", (ev) => post(a, {...base, [f.name]: [...picked].sort((x, y) => x - y)}, ev.currentTarget));
  return [h("div", {class: "card-tiles legal many picks"}, (f.choices || []).map(tile)), send];
}

// The legion this page looks at (God Num): kept across redraws until it is no choice any more.
export const legionShown = {name: null};
export function legionPicker(groups, cardsOf) {
  const box = h("div", {class: "groups"});
  const draw = () => {
    const g = groups.includes(legionShown.name) ? legionShown.name : null;
    box.replaceChildren(
      h("div", {class: "legion-pick", role: "group", "aria-label": "choose a legion"}, groups.map((x) =>
        h("button", {type: "button", "aria-pressed": String(x === g), "data-group": x,
          onclick: () => { legionShown.name = x; draw(); }}, plain(x).text))),
      g ? h("div", {class: "choice-group", "data-group": g}, cardsOf(g))
        : h("p", {class: "muted"}, "Choose a legion: its cards show here."));
  };
  draw();
  return box;
}

// A choice among card faces: drawn as pictures, however many there are.
function faceChoices(f) {
  const list = f.choices || [];
  return list.length > 0 && list.every((c) => typeof c.value === "string" && store.faces[c.value]);
}

function cardPicker(a, f, base) {
  const list = fieldFaces(f);
  const kids = [];
  if (list.length) {
    // Many faces (a Shrine lot card from a whole deck): smaller tiles, four to a phone's row.
    kids.push(h("div", {class: "card-tiles" + (list.length > MANY ? " many" : "")}, list.map((x) => {
      const blocked = x.ok === false ? (x.why || "not allowed now") : null;
      return cardTile(x, {blocked, note: x.hint ? plain(x.hint).text : (blocked ? plain(blocked).text : null),
        onTap: blocked ? refusedTap(blocked) : (ev) => post(a, {...base, ...cardBody(a, f, x.face)}, ev.currentTarget)});
    })));
  }
  kids.push(codeField(a, f, list.length > 0, base));
  return kids;
}

function cardBody(a, f, card) {
  const body = {[f.name]: card};
  if (a.type === "scan" && f.zone && !(a.fields || []).some((g) => g.name === "zone")) body.zone = f.zone;
  return body;
}

// Serials and face ids stay possible: the printed code's text, "K2F9-01A", or "wood".
function codeField(a, f, folded, base) {
  const input = h("input", {type: "text", name: f.name, list: "card-list", autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", placeholder: "card name or code", "aria-label": "card code"});
  const form = h("form", {class: "code-field"}, input, h("button", {type: "submit", class: "secondary"}, "Enter"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = input.value.trim();
    if (!v) return;
    const r = await post(a, {...base, ...cardBody(a, f, byName(v))}, form.querySelector("button"));
    if (r && r.ok) input.value = "";
  });
  return folded ? h("details", {class: "type-code"}, h("summary", {}, "type a code"), form) : form;
}

// A card typed by its name ("Metal", "metal") means its face id.
function byName(v) {
  const low = v.toLowerCase();
  for (const [id, f] of Object.entries(store.faces)) if (id === low || (f.name || "").toLowerCase() === low) return id;
  return v;
}

// Every legal amount up to what the player may bid (issue 29 §8: Shrine's buttons stopped at
// the engine's few suggestions, 11, when 17 was allowed): min..max without the forbidden
// last digits, when that is a row of buttons a phone can hold.
const ALL_AMOUNTS = 30;
function amounts(f) {
  if (!Array.isArray(f.suggest) || !f.suggest.length) return [];
  if (f.min === undefined || f.max === undefined || f.max - f.min >= ALL_AMOUNTS * 2) return f.suggest;
  const banned = new Set(f.forbidden_units || []);
  const all = [];
  for (let n = f.min; n <= f.max; n++) if (!banned.has(n % 10)) all.push(n);
  return all.length <= ALL_AMOUNTS ? all : f.suggest;
}

function intPicker(a, f, base) {
  const list = amounts(f);
  if (list.length && (list.length <= MANY || list.length > f.suggest.length)) {
    return h("div", {class: "buttons amounts"}, list.map((n) => h("button", {type: "button", class: "choice",
      "data-action": a.type, "data-value": String(n), onclick: (ev) => post(a, {...base, [f.name]: n}, ev.currentTarget)},
      sayNumber(f, n))));
  }
  return null;
}

// A number's button in the engine's words ("bid {n} Oinks"), or the number alone.
function sayNumber(f, n) {
  return typeof f.say === "string" ? plain(f.say.replace("{n}", String(n))).text : String(n);
}

function intInput(f) {
  const limits = [];
  if (f.min !== undefined && f.max !== undefined) limits.push(`${f.min} to ${f.max}`);
  else if (f.min !== undefined) limits.push(`at least ${f.min}`);
  else if (f.max !== undefined) limits.push(`at most ${f.max}`);
  const units = f.forbidden_units || [];
  if (units.length) limits.push("not ending in " + units.join(" or "));
  // Empty unless the engine proposes a value: a tap without typing must not send a die
  // roll or a bid nobody made.
  const input = h("input", {type: "number", name: f.name, min: f.min, max: f.max, value: f.default ?? null,
    required: !f.optional, inputmode: "numeric", placeholder: limits[0] || null});
  const step = (d) => () => {
    const n = input.value === "" ? (d > 0 ? (f.min ?? 0) : (f.max ?? 0)) : parseInt(input.value, 10) + d;
    if ((f.min === undefined || n >= f.min) && (f.max === undefined || n <= f.max)) input.value = String(n);
  };
  return h("label", {}, plain(f.label || f.name).text,
    h("span", {class: "stepper"}, h("button", {type: "button", class: "secondary", "aria-label": "less", onclick: step(-1)}, "−"),
      input, h("button", {type: "button", class: "secondary", "aria-label": "more", onclick: step(1)}, "+")),
    limits.length ? h("small", {class: "hints"}, limits.join(" · ")) : null);
}

function fieldInput(f, a) {
  const name = f.name;
  if (f.kind === "int") return intInput(f);
  if (f.kind === "choice" && !f.optional && (f.choices || []).length === 1) {
    const c = f.choices[0];
    const hidden = h("input", {type: "hidden", name, value: JSON.stringify(c.value)});
    if ((c.label ?? String(c.value)) === a.label) return hidden;  // the heading says it
    return h("div", {class: "fixed"}, h("span", {class: "muted"}, plain(f.label || name).text + ": "),
      plain(c.label ?? String(c.value)).text, hidden);
  }
  if (f.kind === "choice" && !f.optional && (f.choices || []).length <= 6) {
    // A few choices: buttons side by side (a radio group), not a list to open.
    const dflt = f.default !== undefined ? JSON.stringify(f.default) : null;
    return h("fieldset", {class: "segmented", "data-name": name}, h("legend", {}, plain(f.label || name).text),
      (f.choices || []).map((c) => h("label", {class: "seg" + (c.disabled ? " blocked" : "")},
        h("input", {type: "radio", name, value: JSON.stringify(c.value), required: true, disabled: !!c.disabled,
          checked: dflt === JSON.stringify(c.value)}),
        h("span", {}, plain(c.label ?? String(c.value)).text))));
  }
  if (f.kind === "choice") {
    // An optional choice starts empty (MR-7: a second weapon is not a must), unless the
    // engine lists its own "none" (a null value) among the choices.
    const none = f.optional && !(f.choices || []).some((c) => c.value === null) ? [h("option", {value: ""}, "— none —")] : [];
    const dflt = f.default !== undefined ? JSON.stringify(f.default) : null;
    return h("label", {}, plain(f.label || name).text, h("select", {name}, none, (f.choices || []).map((c) =>
      h("option", {value: JSON.stringify(c.value), disabled: !!c.disabled, selected: dflt === JSON.stringify(c.value)},
        plain(c.label ?? String(c.value)).text + (c.hint ? " · " + plain(c.hint).text : "")))));
  }
  if (f.kind === "choices") {
    const dflt = new Set((f.default || []).map((x) => JSON.stringify(x)));
    const box = (c) => h("label", {class: "check"},
      h("input", {type: "checkbox", value: JSON.stringify(c.value), checked: dflt.has(JSON.stringify(c.value))}),
      plain(c.label ?? String(c.value)).text, c.copies > 1 ? h("small", {class: "hint"}, ` ×${c.copies}`) : null);
    const choices = f.choices || [];
    const groups = [...new Set(choices.map((c) => c.group).filter(Boolean))];
    // Several legions (God Num before one is chosen, GN-2 rev. 2): each folded under its name.
    const body = groups.length < 2 ? choices.map(box) : groups.map((g) => h("details", {class: "choice-group", "data-group": g},
      h("summary", {}, plain(g).text), choices.filter((c) => c.group === g).map(box)));
    return h("fieldset", {class: "choices", "data-name": name},
      h("legend", {}, plain(f.label || name).text + (f.count ? ` (choose ${f.count})` : "")), body);
  }
  if (f.kind === "card") {
    const list = fieldFaces(f).filter((x) => x.ok !== false);
    const input = h("input", {type: "text", name, list: f.multiple ? null : "card-list", required: !f.optional,
      value: f.default ?? null, placeholder: f.multiple ? "cards, separated by spaces" : "card name or code"});
    const tiles = list.length && !f.multiple ? h("div", {class: "card-tiles"}, list.map((x) =>
      cardTile(x, {small: true, onTap: () => { input.value = x.face; }}))) : null;
    return h("label", {}, plain(f.label || name).text + (zoneWords(f.zone) ? ` · ${zoneWords(f.zone)}` : ""), tiles, input);
  }
  return h("label", {}, plain(f.label || name).text, h("input", {type: "text", name, maxlength: 200, value: f.default ?? null}));
}

export function zoneWords(z) {
  // "seat:2" -> "Ben's seat"; nothing on Ben's own phone, where it goes without saying.
  const m = /^(seat|locus):(\d+)$/.exec(z || "");
  if (!m) return z === "universe" ? "the Universe" : (z || "");
  if (Number(m[2]) === C.seat) return m[1] === "seat" ? "" : "your Locus";
  return `${seatLabel(m[2])}'s ${m[1] === "seat" ? "seat" : "Locus"}`;
}

function collect(form, a) {
  const body = {};
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
    } else if (f.kind === "choice") {
      if (input.value === "") continue;  // an optional choice left empty
      body[f.name] = JSON.parse(input.value);
    } else if (f.optional && !input.value.trim()) continue;
    else body[f.name] = f.kind === "card" ? byName(input.value.trim()) : input.value.trim();
    if (f.kind === "card" && f.multiple) body[f.name] = input.value.split(/[\s,;]+/).filter(Boolean);
    if (f.kind === "card") Object.assign(body, cardBody(a, f, body[f.name]));
  }
  return body;
}

// Every field proposed by the engine (Gem Complete: a card's own effect): one confirming tap.
function allDefaults(fields) {
  return fields.length > 0 && fields.every((f) => f.default !== undefined && f.default !== null);
}

function actionBox(a) {
  const fields = a.fields || [];
  const blocked = a.disabled || a.why;
  if (blocked) {  // listed so people see it exists, but not allowed now: the reason on tap
    return h("div", {class: "action unavailable"}, head(a, null),
      h("button", {type: "button", class: "blocked", "data-action": a.type, "aria-disabled": "true",
        onclick: refusedTap(blocked)}, plain(a.label).text),
      h("small", {class: "muted"}, plain(blocked).text));
  }
  // Fields with one possible value go with the tap (a skill's own slot); what is left to
  // choose decides the shape: one button, buttons per choice, card tiles, number buttons.
  const fixed = fields.filter((f) => f.kind === "choice" && !f.optional && (f.choices || []).length === 1 && f.default === undefined);
  const base = Object.fromEntries(fixed.map((f) => [f.name, f.choices[0].value]));
  const open = fields.filter((f) => !fixed.includes(f));
  const weapon = fields.find((f) => f.name === "card" && (f.choices || []).some((c) => Array.isArray(c.strikes)));
  if (weapon) {
    // One weapon at one target is one tap (MR-7), and so are two weapons at one target;
    // two weapons at two targets: the form, folded.
    const strike = (key, label, body) => h("button", {type: "button", class: "choice", "data-action": a.type,
      "data-strike": JSON.stringify(key), onclick: (ev) => post(a, {...base, ...body}, ev.currentTarget)}, plain(label).text);
    const ws = weapon.choices.filter((c) => Array.isArray(c.strikes));
    const both = fields.length > 2 ? ws.flatMap((c, i) => ws.slice(i + 1).flatMap((d) => c.strikes
      .filter((st) => d.strikes.some((x) => x.target === st.target))
      .map((st) => {
        // "Wind Bow (…) at Ben: 3 damage": the weapon before " at ", the player after it.
        const [mine, rest] = st.label.split(" at ");
        const other = d.strikes.find((x) => x.target === st.target).label.split(" at ")[0];
        return strike([c.value, d.value, st.target], `${mine} and ${other} at ${(rest || "").split(":")[0]}`,
          {card: c.value, target: st.target, card2: d.value, target2: st.target});
      }))) : [];
    return h("div", {class: "action", "data-action": a.type}, head(a),
      h("div", {class: "buttons strikes"}, ws.flatMap((c) => c.strikes.map((st) =>
        strike([c.value, st.target], st.label, {card: c.value, target: st.target}))), both),
      fields.length > 2 ? h("details", {class: "type-code"}, h("summary", {}, "two weapons at two players"), fieldForm(a, true)) : null);
  }
  if (open.length === 0) {
    return h("div", {class: "action", "data-action": a.type}, head(a, null), h("div", {class: "buttons"},
      h("button", {type: "button", "data-action": a.type, onclick: (ev) => post(a, base, ev.currentTarget)}, plain(a.label).text)));
  }
  if (a.dice && open.length >= 1 && open.every((f) => f.kind === "int")) {
    // Real dice rolled at the table (MR-11): one tile per outcome, one tap (issue 20).
    return h("div", {class: "action", "data-action": a.type}, head(a), diceTiles(a, open, base));
  }
  if (open.length === 1 && a.type === "move" && open[0].on_board && boards[C.game]) {
    // The board is the picker (MR-5), right under the prompt: tap a highlighted tile; the
    // list stays for a keyboard.
    return h("div", {class: "action", "data-action": a.type}, head(a, plain(a.label).text + ": tap a highlighted tile"),
      boards[C.game](store.snap),
      h("details", {class: "type-code"}, h("summary", {}, "or pick from a list"), choiceButtons(a, open[0], base)));
  }
  const tileField = open.find((f) => f.name === "tile" && f.kind === "choice");
  const others = open.filter((f) => f !== tileField);
  if (tileField && boards[C.game] && others.length <= 1 && others.every((f) => f.kind === "choice" && (f.choices || []).length)) {
    // A tile to choose (Mountains' skill 3, issue 29 §8): tapped on the board, not found in
    // a list of 72 codes; a player to move first, as buttons (the first one chosen).
    const other = others[0];
    let chosen = other ? other.choices[0].value : null;
    const who = other ? h("div", {class: "buttons", role: "group", "aria-label": plain(other.label).text},
      other.choices.map((c, i) => h("button", {type: "button", class: "choice secondary", "data-value": JSON.stringify(c.value),
        "aria-pressed": i === 0 ? "true" : "false", onclick: (ev) => {
          chosen = c.value;
          for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-pressed", String(b === ev.currentTarget));
        }}, plain(c.label).text))) : null;
    const pick = {tiles: (tileField.choices || []).map((c) => c.value), word: "choose this tile",
      onPick: (tile) => post(a, {...base, ...(other ? {[other.name]: chosen} : {}), [tileField.name]: tile}, null)};
    // Folded: the turn's own move board stays the one in sight; a tap opens this one.
    const fold = h("details", {class: "board-pick"}, h("summary", {}, "Tap the tile on the board"));
    fold.addEventListener("toggle", () => {
      if (fold.open && !fold.querySelector("svg")) fold.append(boards[C.game](store.snap, pick));
    });
    return h("div", {class: "action", "data-action": a.type},
      head(a, plain(a.label).text + (other ? ": pick the player, then tap a tile on the board" : ": tap a tile on the board")),
      who, fold,
      h("details", {class: "type-code"}, h("summary", {}, "or type it in a form"), fieldForm(a, true)));
  }
  if (open.length === 1) {
    const f = open[0];
    if (f.kind === "choice" && !f.optional && ((f.choices || []).length <= MANY || faceChoices(f)) && f.default === undefined) {
      return h("div", {class: "action", "data-action": a.type}, head(a), choiceButtons(a, f, base));
    }
    if (f.kind === "choices" && f.count === 1 && f.default === undefined) {
      // One card to choose (God Num's Burden, GN-3): one tap on it.
      return h("div", {class: "action", "data-action": a.type}, head(a), choiceButtons(a, f, base, (v) => [v]));
    }
    if (f.kind === "choices" && !f.count && f.default === undefined && faceChoices(f)
        && !(f.choices || []).some((c) => c.group)) {
      return h("div", {class: "action", "data-action": a.type}, head(a), faceTaps(a, f, base));
    }
    if (f.kind === "choices" && f.count > 1 && f.default === undefined && !faceChoices(f)) {
      return h("div", {class: "action", "data-action": a.type}, head(a), countTaps(a, f, base));
    }
    if (f.kind === "card" && f.multiple && fieldFaces(f).length) {
      // One card at a time from a known set (Gem Complete's reveal, GC-4): a tile is a tap;
      // the typed field still takes several.
      return h("div", {class: "action", "data-action": a.type}, head(a), cardTiles(a, f, base, (x) => [x]),
        h("details", {class: "type-code"}, h("summary", {}, "type a code"), fieldForm(a)));
    }
    if (f.kind === "card" && !f.multiple) {
      const where = zoneWords(f.zone);
      return h("div", {class: "action", "data-action": a.type},
        head(a, plain(a.label).text + (where && !a.label.includes(where) ? ` · ${where}` : "")), cardPicker(a, f, base));
    }
    if (f.kind === "int") {
      const buttons = intPicker(a, f, base);
      // Buttons for the likely numbers; any other legal one typed under "another amount".
      const more = buttons && f.max !== undefined && Math.max(...amounts(f)) < f.max
        ? h("details", {class: "type-code"}, h("summary", {}, "another amount"), fieldForm(a, true)) : null;
      if (buttons) return h("div", {class: "action", "data-action": a.type}, head(a), buttons, more);
    }
  }
  return fieldForm(a);
}

// The cards a proposed effect takes, by name (issue 29 §8: Excavate's "Yes, do it" took a
// pre-ticked card its sentence did not name).
function proposedPicks(fields) {
  const lines = fields.filter((f) => f.kind === "choices" && Array.isArray(f.default) && f.default.length).map((f) => {
    const label = (v) => { const c = (f.choices || []).find((x) => JSON.stringify(x.value) === JSON.stringify(v)); return plain(c ? (c.label ?? String(v)) : String(v)).text; };
    return h("li", {}, h("b", {}, plain(f.label || f.name).text + ": "), f.default.map(label).join(", "));
  });
  return lines.length ? h("ul", {class: "proposal-picks"}, lines) : null;
}

// The whole action as a form: each field's input, one button that says what it sends.
function fieldForm(a, unfolded) {
  const fields = a.fields || [];
  const proposed = allDefaults(fields) && !unfolded;
  const form = h("form", {class: "action" + (a.proposed ? " proposed" : ""), "data-action": a.type}, head(a),
    a.proposed && a.confirm ? h("p", {class: "proposal"}, plain(a.confirm).text) : null,
    a.proposed ? proposedPicks(fields) : null,
    proposed ? h("details", {class: "change"}, h("summary", {}, "change"), fields.map((f) => fieldInput(f, a)))
      : fields.map((f) => fieldInput(f, a)),
    h("button", {type: "submit"}, a.proposed ? "Yes, do it" : plain(a.label).text));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await post(a, collect(form, a), form.querySelector("button[type=submit]"));
    if (r && r.ok) form.reset();
  });
  const ints = fields.filter((f) => f.kind === "int");
  if (!a.proposed && ints.length === 1 && fields.length === 1) {
    // A number's button says the number it sends ("Ana: bid 7", issue 20).
    const input = form.elements[ints[0].name];
    const submit = form.querySelector("button[type=submit]");
    const say = () => {
      submit.textContent = input.value === "" ? plain(a.label).text
        : (ints[0].say ? sayNumber(ints[0], input.value) : plain(a.label).text + " " + input.value);
    };
    form.addEventListener("input", say);
    form.addEventListener("click", () => setTimeout(say, 0));
    form.addEventListener("reset", () => setTimeout(say, 0));
    say();
  }
  return form;
}

// Every outcome of the dice as its own tile: 1-6 for one die, the 21 pairs for two.
const PIPS = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
function diceTiles(a, fields, base) {
  let outcomes = [[]];
  for (let i = 0; i < fields.length; i++) {
    outcomes = outcomes.flatMap((o) => [1, 2, 3, 4, 5, 6].filter((n) => !o.length || n >= o[o.length - 1]).map((n) => [...o, n]));
  }
  return h("div", {class: "dice-tiles" + (fields.length > 1 ? " pairs" : "")}, outcomes.map((o) =>
    h("button", {type: "button", class: "choice die", "data-action": a.type, "data-dice": JSON.stringify(o),
      // No aria-label: the visible "1 + 2" is the name (label-content-name-mismatch).
      onclick: (ev) => post(a, {...base, ...Object.fromEntries(fields.map((f, i) => [f.name, o[i]]))}, ev.currentTarget)},
    o.map((n) => h("span", {class: "pip", "aria-hidden": "true"}, PIPS[n - 1])), h("b", {}, o.join(" + ")))));
}

// Card tiles that each send one card; ``wrap`` shapes the value (a list of one).
function cardTiles(a, f, base, wrap) {
  return h("div", {class: "card-tiles"}, fieldFaces(f).map((x) => {
    const blocked = x.ok === false ? (x.why || "not allowed now") : null;
    return cardTile(x, {blocked, note: x.hint ? plain(x.hint).text : (blocked ? plain(blocked).text : null),
      onTap: blocked ? refusedTap(blocked) : (ev) => post(a, {...base, [f.name]: wrap(x.face)}, ev.currentTarget)});
  }));
}

// A game's board drawn inside its move (Mountains & Rivers): set by app.js, so this module
// needs no game module.
export const boards = {};

export function renderActions(s) {
  const el = $("actions");
  if (!el) return;
  const list = s.actions || [];
  if (!list.length) {
    // Forget the last list: the same move may be due again next (a second challenger's
    // reveal, a re-draw), and it must then be drawn again (issue 11, bug 1).
    delete el.dataset.sig;
    el.replaceChildren(h("p", {class: "muted"}, s.finished ? "The game is over." : waitingWords(s)));
    return;
  }
  // Keep a half-typed form if nothing about the actions changed.
  const sig = JSON.stringify(list);
  if (el.dataset.sig === sig) return;
  el.dataset.sig = sig;
  el.dataset.game = C.game;  // a game's own look for its moves (app.css)
  // Moves the engine marks ``by_hand`` (a card effect typed in, not the step's own move)
  // fold under one heading below the rest: the main step stays in sight (issue 20).
  const hand = list.filter((a) => a.by_hand);
  // What can be done now comes first; what cannot (greyed, with its reason) after it, so
  // the next move is on the first screen (issue 20).
  const now = list.filter((a) => !a.by_hand && !a.why && !a.disabled);
  const later = list.filter((a) => !a.by_hand && (a.why || a.disabled));
  el.replaceChildren(...now.map(actionBox), ...later.map(actionBox),
    ...(hand.length ? [h("details", {class: "by-hand"}, h("summary", {}, "Card effects, entered by hand"), hand.map(actionBox))] : []));
}

function waitingWords(s) {
  const v = s.view || {};
  if (Array.isArray(v.awaiting) && v.awaiting.length) return "Waiting for " + v.awaiting.map(seatLabel).join(" and ") + ".";
  if (v.turn && v.turn !== C.seat) return `Waiting for ${seatLabel(v.turn)}.`;
  return "Nothing to do right now.";
}


// A play a game panel offers directly (a God Num chip, a board tile): the page's own action
// of that type, posted with ``extra``. Returns null when this page has no such action now.
export function playFromPanel(type, extra, btn) {
  const a = ((store.snap && store.snap.actions) || []).find((x) => x.type === type && !x.why && !x.disabled);
  if (!a) return null;
  const body = {...extra};
  const card = (a.fields || []).find((f) => f.kind === "card" && f.name in body);
  if (card) Object.assign(body, cardBody(a, card, body[card.name]));
  return post(a, body, btn);
}
