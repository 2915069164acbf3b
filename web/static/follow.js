// The page follows the play (issue 20): what concerns the viewer (their move is due, a
// refusal of their play, the end) is brought into view, but never while the person is
// scrolling or touching the screen: then it waits until they stop.
import {$} from "./core.js";

const QUIET_MS = 1200;  // this long after the last touch, wheel or key, the page may move
let lastUser = 0;
let touching = false;
let pending = null;

function busy() { return touching || Date.now() - lastUser < QUIET_MS; }

// The sticky bar covers the top of the window: what sits under it is not in view.
function barHeight() {
  const bar = document.querySelector(".bar");
  return bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height : 0;
}

// In view: its top below the bar, and its first lines (at most a third of the window)
// above the bottom edge.
export function inView(el) {
  const r = el.getBoundingClientRect();
  return r.top >= barHeight() - 1 && r.top + Math.min(r.height, window.innerHeight / 3) <= window.innerHeight + 1;
}

// Scroll so that ``el`` is in view, starting the screen at the first of ``leads`` (the
// prompt, the moves' heading) that still leaves ``el``'s first lines on it.
// ``target``: the element, or a function finding it again (the page may be redrawn while
// the person scrolls).
export function bringIntoView(target, leads) {
  const el = typeof target === "function" ? target() : target;
  if (!el || el.hidden || !el.isConnected) return;
  clearTimeout(pending);
  if (busy()) { pending = setTimeout(() => bringIntoView(target, leads), QUIET_MS); return; }
  if (inView(el)) return;
  const room = window.innerHeight - barHeight() - 8;
  const r = el.getBoundingClientRect();
  const end = r.top + Math.min(r.height, window.innerHeight / 3);
  const from = (leads || []).find((l) => l && !l.hidden && end - l.getBoundingClientRect().top <= room) || el;
  const y = window.scrollY + from.getBoundingClientRect().top;
  // At once, not smoothly: a page gliding for half a second would move the card under a
  // finger already on its way to it.
  window.scrollTo({top: Math.max(0, y - barHeight() - 8), behavior: "instant"});
}

export function setupFollow() {
  const mark = () => { lastUser = Date.now(); };
  window.addEventListener("wheel", mark, {passive: true});
  window.addEventListener("keydown", mark, {passive: true});
  window.addEventListener("pointerdown", mark, {passive: true});
  window.addEventListener("touchstart", () => { touching = true; mark(); }, {passive: true});
  window.addEventListener("touchmove", mark, {passive: true});
  const up = () => { touching = false; mark(); };
  window.addEventListener("touchend", up, {passive: true});
  window.addEventListener("touchcancel", up, {passive: true});
}

// After each render: the viewer's new move, a new refusal shown to this page (banner.js
// draws it from the snapshot), or the end, comes into view once.
let lastMoves = null;
let lastRefusal = "";
let endShown = false;
export function follow(s, role) {
  const refusal = $("refusal");
  const sig = refusal && !refusal.hidden ? refusal.dataset.sig || "" : "";
  if (sig && sig !== lastRefusal && role !== "public") bringIntoView(() => $("refusal"));
  lastRefusal = sig;
  if (s.finished) {
    if (!endShown) { endShown = true; bringIntoView(() => $("end")); }
    return;
  }
  endShown = false;
  if (role !== "seat") return;  // the referee's moves change with every play: no jumps
  const moves = $("actions");
  const open = (s.actions || []).some((a) => !a.why && !a.disabled);
  const now = moves ? moves.dataset.sig || null : null;  // forms.js: set when redrawn
  if (open && now && now !== lastMoves) {
    const first = () => moves.querySelector(".action") || moves;
    bringIntoView(first, [document.querySelector(".status"), moves.closest("section")]);
  }
  lastMoves = now;
}
