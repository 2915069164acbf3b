// The lobby: make a table; then the referee link to keep (with a copy button), and, only
// where the host asks, the tables this device remembers (issue 18 §5: a referee link opens
// every hidden card, so a big screen or a borrowed phone must never list one).
import {h, $} from "./core.js";

let games = [];
const MINE = "companion.referee-links.v2";
const OLD_MINE = "companion.referee-links";  // kept without asking by an older version
// Set by a seat, watch or big-screen page in this tab: its lobby lists no referee link.
const NOT_HOST = "companion.not-host";

// Each ruling option in words a host understands at a glance (C-8): a label, and each
// choice's words. An option not listed here shows its own help text.
const LABELS = {
  end: ["When the Universe deck runs out", {count: "count the cards (most cards wins)", recycle: "reuse the Void as the new Universe deck"}],
  start: ["Who starts", {rps: "rock-paper-scissors", dragon: "first to draw an Infinite Dragon"}],
  karma_limit: ["Discarded cards that put a player out", {}],
  target_min: ["Smallest target number", {}],
  target_max: ["Largest target number", {}],
  bust: ["A card that goes past the target", {revert: "does not count", stand: "counts"}],
  start_oinks: ["Oinks of each element to start with", {}],
  oinks_visibility: ["Players see each other's Oinks", {hidden: "no (only the referee)", public: "yes"}],
  dice: ["Dice", {physical: "real dice, entered by the players", companion: "the companion rolls"}],
};

function players(g) {
  return "takes " + (g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players} to ${g.max_players} players`);
}

// A print run in words (C-8): the game, when it was printed, how many cards; its code only
// tells two runs of the same minute apart.
function runWords(g, r, twin) {
  const d = r.created ? new Date(r.created) : null;
  const when = d && !isNaN(d) ? d.toLocaleDateString([], {day: "numeric", month: "short", year: "numeric"}) +
    " at " + d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}) : "earlier";
  return `${g.title} cards printed ${when}, ${r.cards} cards` + (twin ? ` (print ${r.run})` : "");
}

function optionInput(o) {
  const id = "opt-" + o.name;
  const [label, words] = LABELS[o.name] || [o.help.replace(/'/g, ""), {}];
  let input;
  if (o.choices) input = h("select", {id, "data-opt": o.name}, o.choices.map((c) => h("option", {value: JSON.stringify(c), selected: c === o.default}, words[c] || String(c))));
  else if (typeof o.default === "boolean") input = h("input", {id, type: "checkbox", "data-opt": o.name, checked: o.default});
  else if (typeof o.default === "number") input = h("input", {id, type: "number", "data-opt": o.name, value: o.default, min: o.min, max: o.max, inputmode: "numeric"});
  else input = h("input", {id, type: "text", "data-opt": o.name, value: o.default});
  return h("label", {}, label, input);
}

function pick() {
  const g = games.find((x) => x.game === $("nt-game").value);
  if (!g) return;
  $("nt-options").replaceChildren(...g.options.map(optionInput));
  const label = (r) => runWords(g, r, false);
  $("nt-run").replaceChildren(...(g.runs.length ? g.runs.map((r) => h("option", {value: r.run},
    runWords(g, r, g.runs.filter((x) => label(x) === label(r)).length > 1)))
    : [h("option", {value: ""}, "no cards printed yet")]));
  $("nt-players-hint").textContent = players(g);
}

function say(text, kind) { const n = $("notice"); n.textContent = text; n.className = "notice " + kind; n.hidden = false; }

function mine() {
  try { return JSON.parse(localStorage.getItem(MINE) || "[]"); } catch (e) { return []; }
}
function keep(list) {
  try { localStorage.setItem(MINE, JSON.stringify(list.slice(0, 20))); } catch (e) { /* private mode: nothing kept */ }
}
function remember(data, title) {
  const list = mine().filter((x) => x.table !== data.table);
  list.unshift({table: data.table, title, players: data.seats.map((s) => s.name), referee: data.urls.referee});
  keep(list);
}
function forget(table) { keep(mine().filter((x) => x.table !== table)); renderMine(); }
function hostTab() {
  try { return !sessionStorage.getItem(NOT_HOST); } catch (e) { return false; }
}
function renderMine() {
  const box = $("mine");
  const list = hostTab() ? mine().filter((x) => document.querySelector(`[data-table="${CSS.escape(x.table)}"]`)) : [];
  box.hidden = list.length === 0;
  $("mine-list").replaceChildren(...list.map((x) => h("li", {},
    h("a", {href: x.referee}, `${x.title} · ${x.players.join(", ")}`), " ", h("span", {class: "muted small"}, "referee page"), " ",
    h("button", {type: "button", class: "secondary small-button forget", onclick: () => forget(x.table)}, "Forget"))));
}

function made(data, title) {
  const box = $("made");
  const link = h("input", {type: "text", readonly: true, value: data.urls.referee, id: "referee-link", "aria-label": "referee link"});
  const copy = h("button", {type: "button", id: "copy-link", class: "secondary"}, "Copy");
  copy.addEventListener("click", async () => {
    link.select();
    try { await navigator.clipboard.writeText(data.urls.referee); copy.textContent = "Copied"; }
    catch (e) { copy.textContent = "Selected: copy it"; }
  });
  const keepBox = h("input", {type: "checkbox", id: "remember"});
  keepBox.addEventListener("change", () => { if (keepBox.checked) remember(data, title); else forget(data.table); renderMine(); });
  box.replaceChildren(
    h("h2", {tabindex: "-1", id: "made-title"}, `${title} for ${data.seats.map((s) => s.name).join(", ")} is ready`),
    h("p", {}, h("b", {}, "Keep this link: "), "it opens the referee page, and nothing else does."),
    h("div", {class: "code-field"}, link, copy),
    h("label", {class: "check"}, keepBox, " Remember on this device (not on the big screen or a shared computer: the link shows every hidden card)"),
    h("p", {}, h("a", {href: data.urls.referee, class: "button", id: "open-referee"}, "Open the referee page"),
      " ", h("a", {href: data.urls.table + "?token=" + encodeURIComponent(data.display_token), class: "button secondary", id: "open-big"}, "Open the big screen")));
  box.hidden = false;
  // In view at once, wherever the form was (issue 20 §5): the answer is the next step.
  box.scrollIntoView({block: "start"});
  $("made-title").focus({preventScroll: true});
}

async function main() {
  const r = await fetch("/api/games");
  games = (await r.json()).games;
  $("nt-game").replaceChildren(...games.map((g) => h("option", {value: g.game}, `${g.title} (${players(g)})`)));
  $("nt-game").addEventListener("change", pick);
  pick();
  try { localStorage.removeItem(OLD_MINE); } catch (e) { /* nothing kept */ }
  renderMine();
  const submit = document.querySelector("#new-table button[type=submit]");
  let busy = false;  // one table per tap: a second tap while (or after) it is made does nothing
  $("new-table").addEventListener("input", () => { if (!busy) { submit.disabled = false; submit.textContent = "Create table"; } });
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (busy || submit.disabled) return;
    busy = true;
    submit.disabled = true;
    const options = {};
    for (const el of document.querySelectorAll("[data-opt]")) {
      const name = el.dataset.opt;
      if (el.type === "checkbox") options[name] = el.checked;
      else if (el.type === "number") options[name] = parseInt(el.value, 10);
      else if (el.tagName === "SELECT") options[name] = JSON.parse(el.value);
      else options[name] = el.value;
    }
    const body = {game: $("nt-game").value, options,
      players: $("nt-players").value.split("\n").map((s) => s.trim()).filter(Boolean),
      timer: parseInt($("nt-timer").value || "0", 10)};
    if ($("nt-run").value) body.runs = [$("nt-run").value];
    let resp, data;
    try {
      resp = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      data = await resp.json();
    } catch (e) {
      resp = {ok: false}; data = {error: "The server cannot be reached. Is the Wi-Fi on?"};
    }
    busy = false;
    if (!resp.ok) { submit.disabled = false; say(data.error || "No table was made.", "error"); return; }
    $("notice").hidden = true;
    const title = (games.find((g) => g.game === body.game) || {}).title || body.game;
    submit.textContent = "Made: its links are above (change the form to make another)";
    made(data, title);
  });
  submit.disabled = false;  // ready now
}
main();
