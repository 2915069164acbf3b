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

// In view: its top below the bar, and its first screenful (at most half the window) above
// the bottom edge.
export function inView(el) {
  const r = el.getBoundingClientRect();
  const top = barHeight();
  return r.top >= top - 1 && Math.min(r.bottom, r.top + window.innerHeight / 2) <= window.innerHeight + 1;
}

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Scroll so that ``el`` starts just under the bar; ``lead`` (optional), shown too when it
// fits above it (the prompt above the moves).
export function bringIntoView(el, lead) {
  if (!el || el.hidden || !el.isConnected) return;
  clearTimeout(pending);
  if (busy()) { pending = setTimeout(() => bringIntoView(el, lead), QUIET_MS); return; }
  if (inView(el) && (!lead || lead.hidden || inView(lead))) return;
  const r = el.getBoundingClientRect();
  let y = window.scrollY + r.top;
  if (lead && !lead.hidden) {
    const l = lead.getBoundingClientRect();
    // The prompt as well when it and the move's first lines fit on one screen.
    if (r.top - l.top < window.innerHeight * 0.4) y = window.scrollY + l.top;
  }
  window.scrollTo({top: Math.max(0, y - barHeight() - 8), behavior: reducedMotion() ? "auto" : "smooth"});
}

export function setupFollow() {
  const mark = () => { lastUser = Date.now(); };
  window.addEventListener("wheel", mark, {passive: true});
  window.addEventListener("keydown", mark, {passive: true});
  window.addEventListener("touchstart", () => { touching = true; mark(); }, {passive: true});
  window.addEventListener("touchmove", mark, {passive: true});
  const up = () => { touching = false; mark(); };
  window.addEventListener("touchend", up, {passive: true});
  window.addEventListener("touchcancel", up, {passive: true});
}

// After each render: the viewer's new move, or the end, comes into view once.
let lastMoves = null;
let endShown = false;
export function follow(s, role) {
  if (s.finished) {
    if (!endShown) { endShown = true; bringIntoView($("end")); }
    return;
  }
  endShown = false;
  if (role !== "seat") return;  // the referee's moves change with every play: no jumps
  const moves = $("actions");
  const open = (s.actions || []).some((a) => !a.why && !a.disabled);
  const now = moves ? moves.dataset.sig || null : null;  // forms.js: set when redrawn
  if (open && now && now !== lastMoves) {
    bringIntoView(moves.closest("section") || moves, document.querySelector(".status"));
  }
  lastMoves = now;
}
