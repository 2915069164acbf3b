// The snapshot stream: one EventSource while the page is in sight. A browser keeps at most
// six connections to one server; tabs left open in the background (big screen, seat pages,
// referee) would otherwise hold them all and every tap would hang. Out of sight the stream
// closes; back in sight a new one gets the current snapshot at once, so nothing is missed.
import {C, $} from "./core.js";
import {api, hooks, tablePath} from "./api.js";

let stream = null;
let onSnapshot = () => {};

function live(text, on) {
  const el = $("live");
  if (!el) return;
  el.textContent = text;
  el.className = "live " + (on ? "on" : "off");
}

export function connect() {
  if (stream) return;
  const q = C.token ? `?token=${encodeURIComponent(C.token)}` : "";
  const es = new EventSource(tablePath("/events") + q);
  stream = es;
  es.addEventListener("open", () => live("live", true));
  es.addEventListener("error", () => {
    if (stream === es) live("reconnecting…", false);
    if (hooks.streamError) hooks.streamError();  // a refused token ends the stream for good
  });
  es.addEventListener("table", (e) => onSnapshot(JSON.parse(e.data)));
}

function disconnect() {
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
  if (r.ok) onSnapshot(r.data);
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
