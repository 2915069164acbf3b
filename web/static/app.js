// Table Companion: the big screen, a seat's phone and the referee page. No build step:
// ES modules by concern (core, api, stream, forms, tiles, banner, referee, view) and one
// renderer per game in games/<game>.js, all drawn from the table's JSON snapshot.
import {C, h, $, store, seatLabel, names, plain, scrollRegions} from "./core.js";
import {api, hooks, tablePath} from "./api.js";
import {follow, refresh, closeStream} from "./stream.js";
import {renderActions, boards} from "./forms.js";
import {renderStatus, setupBanner, setupSpeech, showRefusal} from "./banner.js";
import {renderReferee, setupReferee, loadCards} from "./referee.js";
import {renderView} from "./view.js";
import {setupCameraHealth} from "./camhealth.js";
import {renderEnd} from "./end.js";
import {setupFollow, follow as followPlay} from "./follow.js";
import wuxing from "./games/wuxing.js";
import godnum from "./games/godnum.js";
import shrine from "./games/shrine.js";
import mountains, {moveBoard} from "./games/mountains.js";
import gemcomplete from "./games/gemcomplete.js";

const PANELS = {wuxing, godnum, shrine, mountains, gemcomplete};
boards.mountains = moveBoard;

function renderPanel(s) {
  const el = $("panel");
  if (!el) return;
  let kids = [];
  try { kids = (PANELS[s.game] ? PANELS[s.game](s.view || {}, s) : []).filter(Boolean); }
  catch (e) { console.error(e); kids = [h("p", {class: "muted"}, "This part of the table cannot be drawn.")]; }
  el.replaceChildren(...kids);
  el.hidden = kids.length === 0;
  el.dataset.game = s.game;
}

// ---- recent rulings, in plain words ----------------------------------------------------
function when(t) {
  return new Date(t * 1000).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}
function renderHistory(s) {
  const el = $("history");
  if (!el) return;
  // The newest record is already on the page as the ruling. After an undo it is the undo,
  // and the ruling standing again is the newest play not voided.
  const rows = (s.history || []).slice(1);
  if (s.undone) {
    const i = rows.findIndex((r) => !r.voided);
    if (i >= 0) rows.splice(i, 1);
  }
  el.parentElement.hidden = rows.length === 0;
  el.replaceChildren(...rows.map((r) => h("li", {class: r.voided ? "voided" : ""},
    h("span", {class: "when"}, when(r.time)), " ", plain(r.text).text)));
}

// ---- the turn timer ------------------------------------------------------------------------
function tickTimer() {
  const el = $("timer");
  if (!el) return;
  const s = store.snap;
  const t = s && s.timer;
  if (!t || s.finished) { el.hidden = true; return; }
  const left = t.deadline - (Date.now() / 1000 + store.skew);
  el.hidden = false;
  const sec = Math.max(0, Math.ceil(left));
  el.textContent = left > 0 ? `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}` : "time is up";
  el.className = "timer" + (left <= 0 ? " over" : left <= 10 ? " soon" : "");
}

// ---- a phone says when it is this seat's turn ---------------------------------------------
let hadActions = false;
function yourTurn(s) {
  if (C.role !== "seat") return;
  const now = (s.actions || []).some((a) => !a.why && !a.disabled);
  document.body.classList.toggle("my-turn", now);
  document.title = (now ? "● Your move · " : "") + document.title.replace(/^● Your move · /, "");
  if (now && !hadActions && navigator.vibrate) navigator.vibrate(150);
  hadActions = now;
}

// ---- the big screen's join codes: until the first play, never again (issue 18 §5) ---------
// The codes carry seat tokens: the host token that showed them leaves the address bar, and
// this tab keeps it only so a reload shows what it showed; hidden, started or over, it goes.
const BIG_KEY = () => "companion.big:" + C.table;
function forgetJoin() {
  const box = $("join");
  if (box) box.remove();
  try { sessionStorage.removeItem(BIG_KEY()); } catch (e) { /* storage off: nothing kept */ }
}
function renderJoin(s) {
  if ($("join") && (s.version > (C.opening || 0) || s.finished)) forgetJoin();
}
function setupJoin() {
  if (C.role !== "public") return;
  const q = new URLSearchParams(location.search);
  try {
    if (q.has("token")) {
      if ($("join")) sessionStorage.setItem(BIG_KEY(), q.get("token"));
      else sessionStorage.removeItem(BIG_KEY());
      history.replaceState(null, "", location.pathname);
    } else if (sessionStorage.getItem(BIG_KEY())) {  // a reload: ask for the codes again
      location.replace(location.pathname + "?token=" + encodeURIComponent(sessionStorage.getItem(BIG_KEY())));
      return;
    }
  } catch (e) {
    if (q.has("token")) history.replaceState(null, "", location.pathname);
  }
  const hide = $("join-hide");
  if (hide) hide.addEventListener("click", forgetJoin);
}

// ---- a seat's token: out of the address bar, kept in this tab for a reload (issue 18 §5) ---
const SEAT_KEY = () => `companion.seat:${C.table}:${C.seat}`;
function setupSeatToken() {
  if (C.role !== "seat") return true;
  try {
    if (C.token) sessionStorage.setItem(SEAT_KEY(), C.token);
    else C.token = sessionStorage.getItem(SEAT_KEY()) || "";
  } catch (e) { /* storage off: the token stays in the address bar */ return true; }
  if (C.token && location.search) history.replaceState(null, "", location.pathname);
  if (!C.token) { seatLost("Open your seat by scanning your QR code again (ask the referee)."); return false; }
  return true;
}
// A seat whose link the referee re-issued (a lost phone, a peek): its old token opens
// nothing; the page says so instead of "reconnecting" for ever.
function seatLost(text) {
  try { sessionStorage.removeItem(SEAT_KEY()); } catch (e) { /* nothing kept */ }
  const p = $("prompt");
  if (p) p.textContent = text;
  const l = $("live");
  if (l) { l.textContent = "closed"; l.className = "live off"; }
  for (const id of ["actions", "panel"]) { const el = $(id); if (el) el.replaceChildren(); }
}
async function checkSeat() {
  if (C.role !== "seat") return;
  const r = await api("GET", tablePath(""));
  if (r.status === 403 || r.status === 401) {
    closeStream();
    seatLost("This seat has a new link now. Ask the referee for your QR code and scan it.");
  }
}

// ---- played again: every page of this table moves to its own page at the next table ------
let moving = false;
function followNext(s) {
  const n = s.next_table;
  if (!n || moving || typeof n.url !== "string" || !n.url.startsWith("/t/")) return;
  moving = true;
  const box = $("banner");
  if (box) {
    box.className = "banner next";
    box.replaceChildren(h("p", {class: "banner-text"}, "A new game with the same players: going there…"));
    box.hidden = false;
  }
  setTimeout(() => { location.assign(n.url); }, 1500);
}

function render(s) {
  if (store.snap && s.version < store.snap.version) return;  // an older answer arriving late
  store.snap = s;
  if (s.now) store.skew = s.now - Date.now() / 1000;
  renderStatus(s);
  renderPanel(s);
  renderView(s.view);
  renderActions(s);
  renderEnd(s);
  if (C.role === "host") renderReferee(s);
  renderHistory(s);
  renderJoin(s);
  yourTurn(s);
  tickTimer();
  followNext(s);
  scrollRegions();
  followPlay(s, C.role);
  const v = $("version");
  if (v) v.textContent = "v" + s.version;
  document.body.dataset.version = String(s.version);
}

// The rules page's sentence for each ruling id, for every "why?" (issue 20 §6).
async function loadRulings() {
  try {
    const resp = await fetch(`/rules/${encodeURIComponent(C.game)}.json`);
    if (resp.ok) store.rulings = (await resp.json()).rulings || {};
  } catch (e) { /* the "why?" still links to the rules page */ }
}

async function main() {
  // A seat, watch or big-screen page: the lobby reached from this tab lists no referee link.
  if (C.role !== "host") { try { sessionStorage.setItem("companion.not-host", "1"); } catch (e) { /* none kept */ } }
  if (!setupSeatToken()) return;
  hooks.streamError = checkSeat;
  const r = await api("GET", `/api/games/${encodeURIComponent(C.game)}/faces`);
  if (r.ok) store.faces = r.data.faces;
  loadRulings();
  hooks.refused = showRefusal;  // refusals by the rules come in the snapshot (follow.js)
  setupFollow();
  hooks.stale = refresh;
  setupBanner();
  setupSpeech();
  setupJoin();
  if (C.role === "host") setupReferee();
  if (C.role !== "public") loadCards(() => { if (store.snap) render(store.snap); });
  setupCameraHealth();
  follow(render);
  setInterval(tickTimer, 250);
}
main();

