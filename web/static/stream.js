// The snapshot stream: one EventSource while the page is in sight. A browser keeps at most
// six connections to one server; tabs left open in the background (big screen, seat pages,
// referee) would otherwise hold them all and every tap would hang. Out of sight the stream
// closes; back in sight a new one gets the current snapshot at once, so nothing is missed.
//
// A refused play comes as a small "refused" notice (the referee, the big screen and the
// refused phone hear of it), merged into the last snapshot: no snapshot is sent for it.
// A "camera" event is the table camera's heartbeat (the referee page and the big screen).
// A stream the server refuses (503: it holds as many live pages as it can) is not retried
// by the browser: this page tries again itself, later each time, with jitter, and says so.
import {C, $} from "./core.js";
import {api, hooks, tablePath} from "./api.js";

let stream = null;
let onSnapshot = () => {};
let last = null;     // the newest snapshot, for merging a notice into
let tries = 0;       // refused or failed connections in a row
let retryTimer = null;

function live(text, on) {
  const el = $("live");
  if (!el) return;
  el.textContent = text;
  el.className = "live " + (on ? "on" : "off");
}

function show(s) {
  last = s;
  onSnapshot(s);
}

// 2, 4, 8 ... 60 s, each between half and all of it, so the phones of a café spread out.
function backoff() {
  const top = Math.min(60, 2 ** Math.min(tries, 6));
  return Math.round((top / 2 + Math.random() * top / 2) * 1000);
}

function retryLater() {
  if (retryTimer || document.hidden) return;
  tries++;
  const wait = backoff();
  live(`server busy, trying again in ${Math.ceil(wait / 1000)} s`, false);
  retryTimer = setTimeout(() => { retryTimer = null; connect(); refresh(); }, wait);
}

export function connect() {
  if (stream || retryTimer) return;
  const q = C.token ? `?token=${encodeURIComponent(C.token)}` : "";
  const es = new EventSource(tablePath("/events") + q);
  stream = es;
  es.addEventListener("open", () => { tries = 0; live("live", true); });
  es.addEventListener("error", () => {
    if (stream !== es) return;
    if (es.readyState === EventSource.CLOSED) {  // refused (503) or not a stream: ours to retry
      stream = null;
      api("GET", tablePath("")).then((r) => {
        if (r.status === 404 || r.status === 410) { live("this table is closed", false); return; }
        // A refused token (a re-issued seat) ends the stream for good: the page says why.
        if (r.status === 401 || r.status === 403) { if (hooks.streamError) hooks.streamError(); return; }
        if (r.ok) show(r.data);  // the table as it is now, while the stream waits its turn
        retryLater();
      });
      return;
    }
    live("reconnecting…", false);
    if (hooks.streamError) hooks.streamError();
  });
  es.addEventListener("table", (e) => show(JSON.parse(e.data)));
  es.addEventListener("camera", (e) => { if (hooks.camera) hooks.camera(JSON.parse(e.data)); });
  es.addEventListener("refused", (e) => {
    const n = JSON.parse(e.data);
    if (last && n.version === last.version) show({...last, refused: n.refused});
  });
}

function disconnect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (!stream) return;
  stream.close();
  stream = null;
  live("paused", false);
}

export function closeStream() {
  if (stream) stream.close();
  stream = null;
}

export async function refresh() {
  const r = await api("GET", tablePath(""));
  if (r.ok) show(r.data);
}

export function follow(fn) {
  onSnapshot = fn;
  connect();
  // A phone back from sleep, or a tab back in front, reconnects and catches up.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { disconnect(); return; }
    connect();
    refresh();
  });
}
