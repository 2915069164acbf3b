// The JSON API: one fetch helper, the notice at the foot of the screen, posting a play.
import {C, $} from "./core.js";

export const tablePath = (rest) => `/api/tables/${encodeURIComponent(C.table)}${rest || ""}`;

export async function api(method, path, body) {
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

let noticeTimer = null;
export function notice(text, kind) {
  const el = $("notice");
  if (!el) return;
  el.textContent = text;
  el.className = "notice " + (kind || "info");
  el.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 9000 : 4000);
}

// Hooks set by the page: what to do after a refusal (show it), after a stale version (reload).
// ``camera``: a heartbeat of the table camera came on the stream (camhealth.js).
export const hooks = {refused: null, stale: null, streamError: null, camera: null};

export async function send(path, body) {
  const r = await api("POST", tablePath(path), body);
  if (!r.ok) {
    if (hooks.refused) hooks.refused(r.data, body);
    else notice(r.data.error || `Refused (${r.status})`, "error");
    if (r.data.code === "stale_version" && hooks.stale) hooks.stale();
  }
  return r;
}
