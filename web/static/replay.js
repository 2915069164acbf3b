// A game's replay: the table as this token's viewer saw it after each record of its log,
// drawn by the same renderers as the live pages (GET /api/tables/<t>/replay?step=N), with
// previous, next, a slider and the arrow keys.
import {C, $, store, scrollRegions} from "./core.js";
import {api, tablePath} from "./api.js";
import {renderStatus} from "./banner.js";
import {renderView} from "./view.js";
import {renderEnd} from "./end.js";
import wuxing from "./games/wuxing.js";
import godnum from "./games/godnum.js";
import shrine from "./games/shrine.js";
import mountains from "./games/mountains.js";
import gemcomplete from "./games/gemcomplete.js";

const PANELS = {wuxing, godnum, shrine, mountains, gemcomplete};
const range = $("replay-range");
let steps = Number(range.max);
let asked = 0;  // the newest step asked for: a slow answer for an older step is dropped

function when(t) {
  return new Date(t * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
}

function draw(s) {
  store.snap = s;
  renderStatus(s);
  const el = $("panel");
  let kids = [];
  try { kids = (PANELS[s.game] ? PANELS[s.game](s.view || {}, s) : []).filter(Boolean); }
  catch (e) { console.error(e); }
  el.replaceChildren(...kids);
  el.hidden = kids.length === 0;
  renderView(s.view);
  renderEnd(s);
  scrollRegions();
  steps = s.steps;
  range.max = String(steps);
  range.value = String(s.version);
  $("replay-step").textContent = `Step ${s.version} of ${steps}`;
  // The name under a step is who entered that play (issue 29 §5): a player's phone, the
  // referee or the camera.
  $("replay-when").textContent = s.version ? `${when(s.time)} · entered by ${s.who}` : "Before the first play";
  $("replay-by").textContent = s.version ? `entered by ${s.who}` : "before the first play";
  $("replay-prev").disabled = $("replay-first").disabled = s.version <= 0;
  $("replay-next").disabled = $("replay-last").disabled = s.version >= steps;
  document.body.dataset.step = String(s.version);
}

async function go(step) {
  const n = Math.max(0, Math.min(steps, step));
  asked = n;
  const r = await api("GET", tablePath(`/replay?step=${n}`));
  if (r.ok && asked === n) draw(r.data);
  else if (!r.ok) closed(r.data.error || "This replay cannot be shown now.");
}

// A player's replay opens when the game is over (the referee's at any time).
function closed(text) {
  const el = $("prompt");
  if (el) el.textContent = text.charAt(0).toUpperCase() + text.slice(1) + ".";
  for (const id of ["replay-first", "replay-prev", "replay-next", "replay-last", "replay-range"]) $(id).disabled = true;
}

async function main() {
  const f = await api("GET", `/api/games/${encodeURIComponent(C.game)}/faces`);
  if (f.ok) store.faces = f.data.faces;
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(Number(range.value) - 1));
  $("replay-next").addEventListener("click", () => go(Number(range.value) + 1));
  $("replay-last").addEventListener("click", () => go(steps));
  range.addEventListener("input", () => go(Number(range.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const step = Number(range.value);
    if (e.key === "ArrowLeft") { e.preventDefault(); go(step - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); go(step + 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(steps); }
  });
  const start = new URLSearchParams(location.search).get("step");
  // The token stays out of the address bar (history, screenshots); the tab keeps it.
  const key = "companion.replay." + C.table;
  try {
    if (C.token) sessionStorage.setItem(key, C.token);
    else C.token = sessionStorage.getItem(key) || "";
  } catch (e) { /* private mode: a reload shows the big screen's replay */ }
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname);
  $("replay-csv").href = tablePath("/record?format=csv") + (C.token ? `&token=${encodeURIComponent(C.token)}` : "");
  // A replay opens at the start (issue 29 §5): the end is what everyone has just seen.
  await go(start !== null && /^\d+$/.test(start) ? Number(start) : 0);
}
main();
