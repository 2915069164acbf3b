// The lobby: create a table, then go to its referee page (which shows each seat's QR code).
"use strict";
let games = [];
const $ = (id) => document.getElementById(id);
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v; else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) el.append(kid instanceof Node ? kid : String(kid));
  return el;
}
function optionInput(o) {
  const id = "opt-" + o.name;
  let input;
  if (o.choices) input = h("select", {id, "data-opt": o.name}, o.choices.map((c) => h("option", {value: JSON.stringify(c), selected: c === o.default}, String(c))));
  else if (typeof o.default === "boolean") input = h("input", {id, type: "checkbox", "data-opt": o.name, checked: o.default});
  else if (typeof o.default === "number") input = h("input", {id, type: "number", "data-opt": o.name, value: o.default, min: o.min, max: o.max});
  else input = h("input", {id, type: "text", "data-opt": o.name, value: o.default});
  return h("label", {title: o.help}, `${o.name} (${o.rule}) `, input, h("small", {class: "muted"}, " " + o.help));
}
function pick() {
  const g = games.find((x) => x.game === $("nt-game").value);
  if (!g) return;
  $("nt-options").replaceChildren(...g.options.map(optionInput));
  $("nt-run").replaceChildren(...(g.runs.length ? g.runs.map((r) => h("option", {value: r.run}, `${r.run} (${r.cards} cards)`))
    : [h("option", {value: ""}, "no print run registered")]));
}
function say(text, kind) { const n = $("notice"); n.textContent = text; n.className = "notice " + kind; n.hidden = false; }
async function main() {
  const r = await fetch("/api/games");
  games = (await r.json()).games;
  $("nt-game").replaceChildren(...games.map((g) => h("option", {value: g.game}, `${g.title} (${g.min_players}-${g.max_players} players)`)));
  $("nt-game").addEventListener("change", pick);
  pick();
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
    window.location.href = data.urls.referee;
  });
  document.querySelector("#new-table button[type=submit]").disabled = false;  // ready now
}
main();
