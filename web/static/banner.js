// The ruling is the moment: what a play did, large, with its cards as pictures and what to
// do with the physical cards (``last_play``, per viewer: hidden cards stay hidden); what an
// undo means at the table; and a refusal, with who and why, until the next accepted play.
import {C, h, $, store, plain, sentence} from "./core.js";
import {send, notice} from "./api.js";
import {cardRow} from "./tiles.js";

const BANNER_MS = 9000;  // several seconds: long enough to read across the table
let bannerTimer = null;
let lastSeen = null;     // the version whose play the banner last showed
let previous = null;     // the previous snapshot's last_play (what an undo voids)

function playWords(s) {
  const lp = s.last_play;
  if (lp && lp.text) return {text: lp.text, rule: lp.rule, physical: lp.physical || [], cards: lp.cards || [], outcome: lp.outcome};
  const v = s.view || {};
  return {text: v.ruling || "", rule: v.rule, physical: [], cards: [], outcome: ""};
}

// What to do at the table when a play is undone: the engine's own lines (``undo``), else
// its card movements reversed ("take Chen's Metal back out of the Void").
function undoLines(lp) {
  if (!lp) return [];
  if (Array.isArray(lp.undo) && lp.undo.length) return lp.undo;
  return (lp.movements || []).filter((m) => m.from_words && m.to_words).map((m) => {
    const what = m.name || (m.count > 1 ? `${m.count} cards` : "the card");
    return `Take ${what} back from ${m.to_words} to ${m.from_words}.`;
  });
}

function undoWords(s) {
  const lines = undoLines(previous);
  return {text: "Undone: " + plain(s.undone).text, physical: lines};
}

// The status box every page has: the prompt, the last ruling, the physical steps.
export function renderStatus(s) {
  const v = s.view || {};
  const prompt = $("prompt");
  if (prompt) prompt.replaceChildren(sentence(v.prompt || (s.finished ? "The game is over." : "")));
  const w = playWords(s);
  const u = s.undone ? undoWords(s) : null;
  const ruling = $("ruling");
  if (ruling) ruling.replaceChildren(w.text ? sentence(w.text, w.rule) : "");
  const und = $("undone");
  if (und) { und.hidden = !u; und.textContent = u ? u.text : ""; }
  // What to do with the physical cards: undoing a play's moves, or the play's own.
  const lines = u ? u.physical : w.physical;
  const phys = $("physical");
  if (phys) {
    phys.replaceChildren(...(lines || []).map((x) => h("li", {}, plain(x).text)));
    phys.hidden = !(lines || []).length;
  }
  if (lastSeen !== null && s.version !== lastSeen) showBanner(s, u || w);
  lastSeen = s.version;
  if (!s.undone) previous = s.last_play || null;
  renderRefusal(s);
}

// The big screen shows each adjudication large for several seconds, then the next step.
function showBanner(s, w) {
  const el = $("banner");
  if (!el) return;
  // The end box is the moment at the end (issue 20 §5): no banner over it or the standings;
  // the last ruling stays in the status box beneath.
  if (s.finished && !s.undone) { el.hidden = true; clearTimeout(bannerTimer); return; }
  if (!w.text) return;
  el.className = "banner" + (s.undone ? " undo" : "") + (w.outcome ? " o-" + w.outcome : "");
  el.replaceChildren(...[
    w.cards && w.cards.length ? cardRow(w.cards) : null,
    h("p", {class: "banner-text"}, plain(w.text).text),
    (w.physical || []).length ? h("ul", {class: "banner-physical"}, w.physical.map((x) => h("li", {}, plain(x).text))) : null,
    h("p", {class: "banner-next"}, plain((s.view || {}).prompt || "").text)].filter(Boolean));
  el.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { el.hidden = true; }, BANNER_MS);
  speak([w.text, ...(w.physical || [])].map((x) => plain(x).text).join(" "));
}

// ---- the big screen reads each ruling aloud (issue 20 §8): off until someone turns it on --
const SPEAK = "companion.speak";
function speaking() {
  try { return localStorage.getItem(SPEAK) === "on"; } catch (e) { return false; }
}
function speak(text) {
  if (!text || !speaking() || !("speechSynthesis" in window)) return;
  window.speechSynthesis.cancel();  // the newest ruling, not a queue of old ones
  const u = new SpeechSynthesisUtterance(text);
  u.lang = document.documentElement.lang || "en";
  window.speechSynthesis.speak(u);
}
function renderSpeak(b) {
  const on = speaking();
  b.setAttribute("aria-pressed", on ? "true" : "false");
  b.textContent = on ? "Reading rulings aloud: on" : "Read rulings aloud: off";
}
export function setupSpeech() {
  const b = $("speak");
  if (!b) return;
  if (!("speechSynthesis" in window)) { b.hidden = true; return; }
  b.hidden = false;
  renderSpeak(b);
  b.addEventListener("click", () => {
    const on = !speaking();
    try { localStorage.setItem(SPEAK, on ? "on" : "off"); } catch (e) { /* not kept */ }
    renderSpeak(b);
    if (on) speak("Rulings will be read aloud.");
    else window.speechSynthesis.cancel();
  });
}

export function setupBanner() {
  const el = $("banner");
  if (el) el.addEventListener("click", () => { el.hidden = true; });
}

// ---- refusals ----------------------------------------------------------------------------
// The snapshot's ``refused``: the latest refused play, until the next accepted one. The
// referee reads the reason (and may override a C-1 refusal of a card, logged); the refused
// seat reads its reason; everyone else who was refused, never the reason (it may name a
// hidden card).
function whoWords(r) {
  if (r.seat) return C.seat === r.seat ? "you" : C.players[r.seat - 1];
  return {camera: "the camera", host: "the referee"}[r.who] || (r.who && r.who.startsWith("seat:") ? C.players[Number(r.who.slice(5)) - 1] : "a play");
}

export function renderRefusal(s) {
  const el = $("refusal");
  if (!el) return;
  const r = s.refused;
  // A phone hears only of its own refused plays; the big screen and the referee of all.
  if (!r || (C.role === "seat" && r.seat !== C.seat)) { el.hidden = true; el.dataset.sig = ""; return; }
  const sig = JSON.stringify([s.version, r]);
  if (el.dataset.sig === sig && !el.hidden) return;
  el.dataset.sig = sig;
  const what = r.type === "scan" ? "card" : "move";
  const p = plain(r.error || "");
  const text = r.error ? p.text : `${what === "card" ? "the card shown" : "that move"} was not accepted; the referee decides.`;
  const canOverride = C.role === "host" && r.scan && r.overridable !== false && (r.code === "card_not_available" || r.rule === "C-1");
  el.replaceChildren(...[
    h("b", {}, `Refused (${whoWords(r)})`), h("span", {class: "why-text"}, text),
    C.role === "seat" ? h("span", {class: "next-step"}, nextStep(r)) : null,
    sentence("", r.rule || p.rules[0] || null),
    canOverride ? h("button", {type: "button", class: "danger", id: "override", onclick: async () => {
      await send("/actions", {...r.scan, override: true, version: store.snap.version});
    }}, "Override: accept the card (logged)") : null].filter(Boolean));
  el.hidden = false;
  // A refusal is seen (issue 11, point 10): the previous play's banner gives way to it.
  const banner = $("banner");
  if (banner && !banner.hidden) { banner.hidden = true; clearTimeout(bannerTimer); }
}

// What the refused player does next (issue 20 §6): nothing changed, so try again.
function nextStep(r) {
  if (r.type === "scan") return "Nothing changed: keep that card where it was and show a card you can play now, or ask the referee.";
  return "Nothing changed: pick another move from Your moves, or ask the referee.";
}

// A play this page sent and the server refused before the rules saw it (a stale picture of
// the table, a code that is no card of ours): said at the foot of the screen. Refusals by
// the rules come back in the snapshot, for every page.
export function showRefusal(data) {
  if (data.code === "stale_version") { notice("The table moved on; look again and tap once more.", "info"); return; }
  if (["illegal_play", "out_of_turn", "game_over", "card_not_available"].includes(data.code)) return;
  notice(plain(data.error || "Refused").text, "error");
}
