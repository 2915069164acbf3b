// Table Companion: the big screen, a seat's phone and the referee page. No build step:
// ES modules by concern (core, api, stream, forms, tiles, banner, referee, view) and one
// renderer per game in games/<game>.js, all drawn from the table's JSON snapshot.
import {C, h, $, store, seatLabel, names, plain} from "./core.js";
import {api, hooks} from "./api.js";
import {follow, refresh} from "./stream.js";
import {renderActions, boards} from "./forms.js";
import {renderStatus, setupBanner, showRefusal} from "./banner.js";
import {renderReferee, setupReferee, loadCards} from "./referee.js";
import {renderView} from "./view.js";
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

// ---- the big screen's join codes: until the game starts, and on request --------------------
function renderJoin(s) {
  const box = $("join");
  if (!box) return;
  const started = s.version > (C.opening || 0);
  if (!box.dataset.touched) box.hidden = started || s.finished;
  const again = $("join-again");
  if (again) again.hidden = !box.hidden;
}
function setupJoin() {
  const box = $("join");
  if (!box) return;
  // The join codes carry seat links: the host token that showed them leaves the address bar.
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname);
  const again = $("join-again");
  if (again) again.addEventListener("click", () => { box.dataset.touched = "1"; box.hidden = false; again.hidden = true; });
  const hide = $("join-hide");
  if (hide) hide.addEventListener("click", () => { box.dataset.touched = "1"; box.hidden = true; if (again) again.hidden = false; });
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
  followPlay(s, C.role);
  const v = $("version");
  if (v) v.textContent = "v" + s.version;
  document.body.dataset.version = String(s.version);
}

async function main() {
  const r = await api("GET", `/api/games/${encodeURIComponent(C.game)}/faces`);
  if (r.ok) store.faces = r.data.faces;
  hooks.refused = showRefusal;  // refusals by the rules come in the snapshot (follow.js)
  setupFollow();
  hooks.stale = refresh;
  setupBanner();
  setupJoin();
  if (C.role === "host") setupReferee();
  if (C.role !== "public") loadCards(() => { if (store.snap) render(store.snap); });
  follow(render);
  setInterval(tickTimer, 250);
}
main();

