// The referee page's own parts: a card entered by hand (zone, then one tap on a tile),
// undo in two taps, the turn timer, and the event log, a page at a time.
import {C, h, $, store, seatLabel, plain} from "./core.js";
import {api, send, notice, tablePath} from "./api.js";
import {cardTile, fieldFaces} from "./tiles.js";
import {zoneWords} from "./forms.js";

const PAGE = 25;  // log rows per page
let logPage = 0;  // 0: the newest
let zone = null;  // the zone a card entered by hand goes to

function when(t) {
  return new Date(t * 1000).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
}
function whoLabel(who) {
  if (who.startsWith("seat:")) return seatLabel(who.slice(5));
  return {host: "referee", camera: "camera", companion: "companion"}[who] || who;
}

function renderLog(s) {
  const el = $("log");
  if (!el || !s.log) return;
  const rows = s.log.slice().reverse();
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  logPage = Math.min(logPage, pages - 1);
  el.replaceChildren(...rows.slice(logPage * PAGE, (logPage + 1) * PAGE).map((r) =>
    h("tr", {class: "k-" + r.kind + (r.voided ? " voided" : "")},
      h("td", {class: "num"}, r.seq), h("td", {}, when(r.time)), h("td", {}, whoLabel(r.who)),
      h("td", {}, h("span", {class: "what"}, r.ruling || r.event.type),
        r.voided ? h("small", {class: "tag"}, ` undone by #${r.voided_by}`) : null,
        r.kind === "event" ? h("code", {class: "ev"}, JSON.stringify(r.event)) : null))));
  const pager = $("log-pages");
  if (pager) {
    pager.hidden = pages < 2;
    pager.replaceChildren(
      h("button", {type: "button", class: "secondary", disabled: logPage === 0, onclick: () => { logPage--; renderLog(store.snap); }}, "Newer"),
      h("span", {}, ` page ${logPage + 1} of ${pages} (${s.log_total ?? rows.length} records) `),
      h("button", {type: "button", class: "secondary", disabled: logPage >= pages - 1, onclick: () => { logPage++; renderLog(store.snap); }}, "Older"));
  }
}

function renderUndo(s) {
  const undo = $("undo");
  if (!undo) return;
  undo.disabled = !s.can_undo;
  undo.dataset.armed = "";
  undo.textContent = s.can_undo ? "Undo: " + s.can_undo : "Nothing to undo";
}

// The zones the table waits for a card in come first; the referee may pick any other.
function dueZones(s) {
  return (s.actions || []).flatMap((a) => (a.why || a.disabled) ? [] : (a.fields || [])
    .filter((f) => f.kind === "card" && f.zone).map((f) => f.zone));
}

function renderEntry(s) {
  const box = $("entry");
  if (!box) return;
  box.hidden = !!s.finished;  // nothing to enter once the game is over
  if (s.finished) return;
  const zones = s.zones || [];
  const due = dueZones(s);
  const sig = JSON.stringify([zones, due, zone, Object.keys(store.faces).length]);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  // Start at the zone the table waits for a card in; a zone the referee picked stays picked
  // until the awaited zones change.
  if (!zone || !zones.includes(zone) || box.dataset.picked !== JSON.stringify(due)) {
    zone = due[0] || zone || zones[0];
    box.dataset.picked = JSON.stringify(due);
  }
  const label = (z) => zoneWords(z) || (/^seat:/.test(z) ? seatLabel(z.slice(5)) : z);
  const field = (s.actions || []).flatMap((a) => a.fields || []).find((f) => f.kind === "card" && f.zone === zone) || {kind: "card", zone};
  const tiles = fieldFaces(field);
  $("entry-zones").replaceChildren(...zones.map((z) => h("button", {type: "button",
    class: "zone" + (z === zone ? " on" : "") + (due.includes(z) ? " due" : ""), "data-zone": z,
    onclick: () => { zone = z; box.dataset.sig = ""; renderEntry(store.snap); }}, label(z))));
  $("entry-tiles").replaceChildren(...tiles.map((x) => cardTile(x, {small: true, onTap: () => enter(x.face)})));
}

async function enter(card) {
  const body = {type: "scan", card, zone, version: store.snap.version};
  const r = await send("/actions", body);
  if (r.ok) { notice(plain(r.data.ruling || "Card entered.").text, "ok"); }
  return r;
}

export function renderReferee(s) {
  renderLog(s);
  renderUndo(s);
  renderEntry(s);
}

export function setupReferee() {
  const undo = $("undo");
  if (undo) undo.addEventListener("click", async () => {
    if (!undo.dataset.armed) {  // two taps: an undo cannot be redone
      undo.dataset.armed = "1";
      undo.textContent = "Tap again to undo: " + (store.snap.can_undo || "");
      setTimeout(() => { if (undo.dataset.armed) renderUndo(store.snap); }, 4000);
      return;
    }
    undo.dataset.armed = "";
    undo.disabled = true;
    await send("/undo", {version: store.snap.version});
  });
  const code = $("entry-code");
  if (code) code.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("entry-card");
    const v = input.value.trim();
    if (!v) return;
    const low = v.toLowerCase();
    const face = Object.entries(store.faces).find(([id, f]) => id === low || (f.name || "").toLowerCase() === low);
    const r = await enter(face ? face[0] : v);
    if (r.ok) input.value = "";
  });
  const tf = $("timer-form");
  if (tf) tf.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await send("/timer", {seconds: parseInt($("timer-seconds").value || "0", 10), version: store.snap.version});
  });
  const copy = $("copy-referee");
  if (copy) copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); notice("Copied.", "ok"); }
    catch (e) { notice("Select the address bar and copy it.", "info"); }
  });
  for (const b of document.querySelectorAll("button.reissue")) b.addEventListener("click", () => reissue(b));
  rememberHere();
  const cam = $("camera-frame");
  if (cam) setInterval(() => {  // a fresh frame twice a second, while the page is seen
    if (!document.hidden) cam.src = cam.dataset.src + "?t=" + Date.now();
  }, 500);
}

// Serial -> face, for typing a card by its name (the datalist matches labels too).
export async function loadCards(after) {
  const r = await api("GET", tablePath("/cards"));
  const list = $("card-list");
  if (!r.ok) return;
  for (const c of r.data.cards) {
    store.cards[c.serial] = c;
    if (list) list.append(h("option", {value: c.serial}, c.name));
  }
  if (after) after();
}

// A new link for one seat (issue 18 §5): two taps, like undo; the old link stops at once.
async function reissue(b) {
  const name = b.dataset.name;
  if (!b.dataset.armed) {
    b.dataset.armed = "1";
    b.textContent = `Tap again: ${name}'s old link stops working`;
    setTimeout(() => { if (b.dataset.armed) { b.dataset.armed = ""; b.textContent = `New link for ${name}`; } }, 5000);
    return;
  }
  b.dataset.armed = "";
  b.disabled = true;
  const seat = b.dataset.seat;
  const r = await api("POST", tablePath(`/seats/${encodeURIComponent(seat)}/reissue`));
  b.disabled = false;
  b.textContent = `New link for ${name}`;
  if (!r.ok) { notice(plain(r.data.error || "No new link.").text, "error"); return; }
  const fig = $("seat-" + seat);
  const qr = h("img", {alt: `QR code of ${name}'s new seat link`, width: 164, height: 164,
    src: `/t/${encodeURIComponent(C.table)}/seat/${encodeURIComponent(seat)}/qr.svg?token=${encodeURIComponent(C.token)}&v=${Date.now()}`});
  fig.querySelector(".qr").replaceChildren(qr);
  fig.querySelector(".seat-link").href = r.data.join_url;
  notice(`${name} has a new link: scan the new code with ${name}'s phone.`, "ok");
}

// ---- "Your games" (issue 29 §2) ------------------------------------------------------------
// Opening a referee page remembers it on this device, whatever brought it here (the lobby,
// a printed link, the demo, "Play again"): the history lists the games people play. A
// referee link shows every hidden card, so the page says it is kept and offers to forget it
// (a shared computer); a table forgotten here or in the lobby is not remembered again.
const MINE = "companion.referee-links.v2";
const FORGOTTEN = "companion.referee-forgotten";

function readList(key) {
  try { const x = JSON.parse(localStorage.getItem(key) || "[]"); return Array.isArray(x) ? x : []; }
  catch (e) { return []; }
}

function rememberHere() {
  const box = $("remembered");
  if (!C.token || readList(FORGOTTEN).includes(C.table)) { if (box) box.hidden = true; return; }
  const url = new URL(`/t/${encodeURIComponent(C.table)}/referee`, location.href);
  url.searchParams.set("token", C.token);
  const title = (document.querySelector(".bar .where .title") || {}).textContent || C.game;
  const list = readList(MINE).filter((x) => x && x.table !== C.table);
  list.unshift({table: C.table, title, players: C.players || [], referee: url.href});
  try { localStorage.setItem(MINE, JSON.stringify(list.slice(0, 200))); }
  catch (e) { if (box) box.hidden = true; return; }  // private mode: nothing kept
  if (!box) return;
  box.hidden = false;
  const forget = box.querySelector("button");
  forget.addEventListener("click", () => {
    try {
      localStorage.setItem(MINE, JSON.stringify(readList(MINE).filter((x) => x && x.table !== C.table)));
      localStorage.setItem(FORGOTTEN, JSON.stringify([C.table, ...readList(FORGOTTEN)].slice(0, 200)));
    } catch (e) { /* nothing kept */ }
    box.replaceChildren("This device no longer remembers this table.");
  }, {once: true});
}
