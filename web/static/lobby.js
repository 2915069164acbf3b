// The lobby: make a table; then the referee link to keep (with a copy button), and the
// tables this browser made, so the host finds the way back to each referee page.
import {h, $} from "./core.js";

let games = [];
const MINE = "companion.referee-links";

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
  return g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players} to ${g.max_players} players`;
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
  $("nt-run").replaceChildren(...(g.runs.length ? g.runs.map((r) => h("option", {value: r.run}, `${r.run} (${r.cards} cards)`))
    : [h("option", {value: ""}, "no cards printed yet")]));
  $("nt-players-hint").textContent = players(g);
}

function say(text, kind) { const n = $("notice"); n.textContent = text; n.className = "notice " + kind; n.hidden = false; }

function mine() {
  try { return JSON.parse(localStorage.getItem(MINE) || "[]"); } catch (e) { return []; }
}
function remember(data, title) {
  const list = mine().filter((x) => x.table !== data.table);
  list.unshift({table: data.table, title, players: data.seats.map((s) => s.name), referee: data.urls.referee});
  try { localStorage.setItem(MINE, JSON.stringify(list.slice(0, 20))); } catch (e) { /* private mode: nothing kept */ }
}
function renderMine() {
  const box = $("mine");
  const list = mine().filter((x) => document.querySelector(`[data-table="${CSS.escape(x.table)}"]`));
  box.hidden = list.length === 0;
  $("mine-list").replaceChildren(...list.map((x) => h("li", {},
    h("a", {href: x.referee}, `${x.title} · ${x.players.join(", ")}`), " ", h("span", {class: "muted small"}, "referee page"))));
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
  box.replaceChildren(
    h("h2", {}, `${title} for ${data.seats.map((s) => s.name).join(", ")} is ready`),
    h("p", {}, h("b", {}, "Keep this link: "), "it opens the referee page, and nothing else does."),
    h("div", {class: "code-field"}, link, copy),
    h("p", {}, h("a", {href: data.urls.referee, class: "button", id: "open-referee"}, "Open the referee page")));
  box.hidden = false;
}

async function main() {
  const r = await fetch("/api/games");
  games = (await r.json()).games;
  $("nt-game").replaceChildren(...games.map((g) => h("option", {value: g.game}, `${g.title} (${players(g)})`)));
  $("nt-game").addEventListener("change", pick);
  pick();
  renderMine();
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
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
    const resp = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await resp.json();
    if (!resp.ok) { say(data.error, "error"); return; }
    const title = (games.find((g) => g.game === body.game) || {}).title || body.game;
    remember(data, title);
    made(data, title);
  });
  document.querySelector("#new-table button[type=submit]").disabled = false;  // ready now
}
main();
