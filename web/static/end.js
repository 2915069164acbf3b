// The end of a game: the winner large, the final standings in each game's own figures, and
// "play again with the same players" for the referee (a new table, same seats and cards).
import {C, h, $, names, count, plain} from "./core.js";
import {api, notice, tablePath} from "./api.js";

// Each game's standings: [name, figure words, sort key (higher first)].
const STANDINGS = {
  wuxing: (v) => (v.players || []).map((p) => [p.name, count(p.cards ?? 0, "card"), p.cards ?? 0]),
  godnum: (v) => (v.seats || []).map((p) => [p.name, p.eliminated ? "out" : `karma ${p.karma}`, p.eliminated ? -1000 : -(p.karma || 0)]),
  // The engine's final standings (SK-10), each with its influence groups.
  shrine: (v) => (v.final || []).map((x) => [x.name, count(x.influence, "point") + " · " + count(x.oinks, "Oink") +
    ((x.groups || []).length ? " · " + x.groups.map((g) => `${g.kind} ${g.points}`).join(", ") : ""), x.influence * 1000 + x.oinks]),
  // The living by HP, then the others by the order they went out, the latest out first.
  mountains: (v) => (v.players || []).map((p, i) => [p.name, p.alive === false ? "out" : `${p.hp} HP`,
    p.alive === false ? (v.out_order || []).indexOf(i + 1) : 1000 + p.hp]),
  gemcomplete: (v) => (v.seats || []).map((p) => [p.name, count((p.locus || []).filter((c) => c.gem).length, "gem"), (p.locus || []).filter((c) => c.gem).length]),
};

export function renderEnd(s) {
  const box = $("end");
  if (!box) return;
  box.hidden = !s.finished;
  if (!s.finished) return;
  const rows = (STANDINGS[s.game] ? STANDINGS[s.game](s.view || {}) : []).sort((a, b) => b[2] - a[2]);
  const winners = (s.winners || []).map((w) => C.players[w - 1]);
  box.replaceChildren(...[
    h("p", {class: "winner-big"}, winners.length ? `${names(s.winners)} ${winners.length === 1 ? "wins" : "win"}!` : "The game is over: no winner."),
    rows.length ? h("ol", {class: "standings"}, rows.map(([n, fig]) =>
      h("li", {class: winners.includes(n) ? "won" : ""}, h("b", {}, n), h("span", {}, fig)))) : null,
    C.role === "host" ? h("button", {type: "button", id: "play-again", onclick: playAgain}, "Play again with the same players") : null].filter(Boolean));
}

// A new table with the same game, players, options and cards, made by this table's host
// token: this table's phones and screens follow to it (the snapshot's ``next_table``).
async function playAgain(ev) {
  ev.currentTarget.disabled = true;
  const r = await api("POST", tablePath("/again"), {});
  if (!r.ok) { ev.currentTarget.disabled = false; notice(plain(r.data.error || "No new table.").text, "error"); return; }
  window.location.href = r.data.urls.referee;
}
