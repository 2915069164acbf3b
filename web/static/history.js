// The host's history: the tables whose referee links this device remembers (the lobby's
// "remember on this device"), each with its game, date, length, winner and replay, and
// every player's figures across them (POST /api/history with those host tokens).
import {h, $} from "./core.js";

const MINE = "companion.referee-links.v2";  // the lobby's "remember on this device"

function remembered() {
  let list = [];
  try { list = JSON.parse(localStorage.getItem(MINE) || "[]"); } catch (e) { list = []; }
  return list.map((x) => {
    try { return {id: x.table, token: new URL(x.referee, location.href).searchParams.get("token") || ""}; }
    catch (e) { return null; }
  }).filter((x) => x && x.id && x.token);
}

// A table its referee deleted is gone (C-7 rev. 3): this device stops remembering it.
function forget(ids) {
  if (!ids.length) return;
  try {
    const list = JSON.parse(localStorage.getItem(MINE) || "[]");
    localStorage.setItem(MINE, JSON.stringify(list.filter((x) => !ids.includes(x.table))));
  } catch (e) { /* storage unavailable: nothing to forget */ }
}

function date(t) { return new Date(t * 1000).toLocaleDateString([], {dateStyle: "medium"}); }
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function tableRow(s, tokens) {
  const tok = tokens[s.table];
  const state = s.finished ? (s.winners.length ? `${s.winners.join(" and ")} won` : "no winner")
    : "still in play";
  const length = s.minutes === null ? "" : s.minutes < 1 ? " · under a minute" : ` · ${plural(Math.round(s.minutes), "minute")}`;
  return h("li", {},
    h("b", {}, s.title), ` · ${s.players.join(", ")} · ${date(s.created)}${length} · ${plural(s.events, "play")} · `,
    h("span", {class: s.finished ? "won" : "muted"}, state), " ",
    h("a", {href: `/t/${encodeURIComponent(s.table)}/replay?token=${encodeURIComponent(tok)}`}, "replay"));
}

function playerRow(p, titles) {
  const byGame = Object.entries(p.by_game).map(([g, f]) => `${titles[g] || g}: ${f.wins} of ${f.games}`).join(", ");
  return h("tr", {}, h("th", {scope: "row"}, p.name), h("td", {}, String(p.games)), h("td", {}, String(p.wins)),
    h("td", {}, `${Math.round(p.win_rate * 100)} %`), h("td", {}, String(p.longest_streak)), h("td", {}, byGame));
}

async function main() {
  const asked = remembered();
  const tokens = Object.fromEntries(asked.map((x) => [x.id, x.token]));
  let data = {tables: [], players: []};
  if (asked.length) {
    const r = await fetch("/api/history", {method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify({tables: asked.slice(0, 200)})});
    if (r.ok) { data = await r.json(); forget(data.deleted || []); }
    else { const n = $("notice"); n.textContent = "The server could not read your tables now."; n.className = "notice error"; n.hidden = false; }
  }
  $("history-tables").replaceChildren(...data.tables.map((s) => tableRow(s, tokens)));
  $("tables-none").hidden = data.tables.length > 0;
  const titles = Object.fromEntries(data.tables.map((s) => [s.game, s.title]));
  $("players").querySelector("tbody").replaceChildren(...data.players.map((p) => playerRow(p, titles)));
  $("players").hidden = data.players.length === 0;
  $("players-none").hidden = data.players.length > 0;
}
main();
