// The table camera's health (issue 26 §5). The camera posts a heartbeat once a second; the
// live stream brings each one ("camera" events) to the referee page, which shows all of it,
// and to the big screen, which shows only a small "camera on" mark. No heartbeat for
// STOPPED_MS (counted here, from when the last one came): "the camera stopped".
import {h, $, store, seatLabel} from "./core.js";
import {api, hooks, tablePath} from "./api.js";

const STOPPED_MS = 5000;
let beat = null;      // the latest heartbeat as this page may read it
let lastAt = 0;       // when it was sent (local clock, ms): received now, less its age

function secondsSince() { return Math.max(0, Math.round((Date.now() - lastAt) / 1000)); }
function stopped() { return !beat || !beat.on || Date.now() - lastAt >= STOPPED_MS; }

const ANSWERS = {"played": "played", "already there": "already there, nothing to do", "refused": "refused"};

function zoneWords(z) {
  const m = /^(seat|discard|locus):(\d+)$/.exec(z || "");
  if (!m) return {universe: "the pot", pot: "the pot", void: "the Void", lot: "the lot"}[z] || z;
  const who = seatLabel(m[2]);
  return {seat: `${who}'s place`, discard: `${who}'s discard pile`, locus: `${who}'s Locus`}[m[1]];
}

function row(term, value, cls) {
  return [h("dt", {}, term), h("dd", {class: cls || null}, value)];
}

function renderPanel() {
  const el = $("camera-health");
  if (!el) return;
  let state;
  if (!beat || beat.seen === false) state = "No camera has reported to this table yet.";
  else if (stopped()) state = `The camera stopped: nothing from it for ${secondsSince()} s.`;
  else if (!beat.mat) state = "The camera is on but cannot find the mat.";
  else state = "The camera is watching.";
  const on = beat && beat.seen !== false && !stopped();
  el.dataset.state = !beat || beat.seen === false ? "none" : on ? (beat.mat ? "watching" : "no-mat") : "stopped";
  const kids = [h("p", {class: "camera-state"}, state)];
  if (beat && beat.seen !== false && beat.fps !== undefined) {
    const last = beat.last;
    const name = last && store.cards[last.card] ? store.cards[last.card].name + " " : "";
    const card = last ? `${name}${last.card} in ${zoneWords(last.zone)}: `
      + `${ANSWERS[last.answer] || last.answer}${last.words ? " — " + last.words : ""}` : "none yet";
    kids.push(h("dl", {class: "kv camera-figures"},
      row("frames a second", String(beat.fps), "num"),
      row("mat", beat.mat ? "found" : "not found"),
      row("cards in view", String(beat.cards), "num"),
      row("last card sent", card)));
    if (beat.problems && beat.problems.length) {
      kids.push(h("ul", {class: "camera-problems"}, beat.problems.map((p) => h("li", {}, p))));
    }
  }
  el.replaceChildren(...kids);
}

function renderMark() {
  const el = $("camera-mark");
  if (el) el.hidden = stopped();
}

function show(b) {
  beat = b;
  lastAt = Date.now() - 1000 * (b.age || 0);
  renderPanel();
  renderMark();
}

export function setupCameraHealth() {
  if (!$("camera-health") && !$("camera-mark")) return;
  hooks.camera = show;
  api("GET", tablePath("/camera")).then((r) => { if (r.ok && !beat) show(r.data); });
  setInterval(() => { renderPanel(); renderMark(); }, 1000);
}
