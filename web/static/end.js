// The end of a game: the winner large, the final standings in each game's own figures, and
// "play again with the same players" for the referee (a new table, same seats and cards).
import {C, h, $, names, count, plain} from "./core.js";
import {api, notice, tablePath} from "./api.js";

function groupWords(groups) {
  const by = new Map();
  for (const g of groups) {
    const [n, pts] = by.get(g.kind) || [0, 0];
    by.set(g.kind, [n + 1, pts + (g.points || 0)]);
  }
  return [...by].map(([kind, [n, pts]]) => `${n} ${kind} (${pts})`).join(", ");
}

// Each game's standings: [name, figure words, sort key (higher first)].
const STANDINGS = {
  wuxing: (v) => (v.players || []).map((p) => [p.name, count(p.cards ?? 0, "card"), p.cards ?? 0]),
  godnum: (v) => (v.seats || []).map((p) => [p.name, p.eliminated ? "out" : `karma ${p.karma}`, p.eliminated ? -1000 : -(p.karma || 0)]),
  // The engine's final standings (SK-10), each with its influence groups.
  // The groups by kind ("5 single (5)"), not one by one: Shrine's end fits one screen.
  shrine: (v) => (v.final || []).map((x) => [x.name, count(x.influence, "point") + " · " + count(x.oinks, "Oink") +
    ((x.groups || []).length ? " · " + groupWords(x.groups) : ""), x.influence * 1000 + x.oinks]),
  // The living by HP, then the others by the order they went out, the latest out first.
  mountains: (v) => (v.players || []).map((p, i) => [p.name, p.alive === false ? "out" : `${p.hp} HP`,
    p.alive === false ? (v.out_order || []).indexOf(i + 1) : 1000 + p.hp]),
  // As the game is won (GC-5, issue 29 §8): six Gems revealed, or the other deck ran out;
  // the figure is each player's deck, never a gem count that could put the winner behind.
  gemcomplete: (v) => (v.seats || []).map((p) => [p.name,
    (v.winners || []).includes(p.seat) && /Gem Complete/i.test(v.ruling || "") ? "Gem Complete: six Gems"
      : p.deck === 0 ? "deck empty" : `${count(p.deck ?? 0, "card")} left in the deck`, p.deck ?? 0]),
};

// Why the game ended, for the games whose last ruling does not say it on every page.
const WHY = {
  gemcomplete: (v) => {
    const won = (v.seats || []).find((p) => (v.winners || []).includes(p.seat));
    const out = (v.seats || []).find((p) => p.deck === 0);
    if (won && /Gem Complete/i.test(v.ruling || "")) return `${won.name} revealed six Gems: Gem Complete.`;
    if (out) return `${out.name}'s deck ran out (Deck Out).`;
    return "";
  },
  wuxing: (v) => {
    const out = (v.players || []).filter((p) => p.out || p.cards === 0).map((p) => p.name);
    if ((v.universe_left ?? 1) === 0 && out.length === 0) return "The Universe deck ran out: the most cards wins.";
    if (out.length) return `${names(out)} ran out of cards.`;
    return "";
  },
};

export function renderEnd(s) {
  const box = $("end");
  if (!box) return;
  box.hidden = !s.finished;
  if (!s.finished) return;
  const winners = (s.winners || []).map((w) => C.players[w - 1]);
  // The winner first in every game's standings (issue 20 §5), then by each game's figure.
  const rows = (STANDINGS[s.game] ? STANDINGS[s.game](s.view || {}, s) : [])
    .map((r, i) => [...r, i])
    .sort((a, b) => (winners.includes(b[0]) - winners.includes(a[0])) || (b[2] - a[2]) || (a[3] - b[3]));
  const why = WHY[s.game] ? WHY[s.game](s.view || {}) : "";
  box.replaceChildren(...[
    h("h2", {class: "winner-big"}, winners.length ? `${names(s.winners)} ${winners.length === 1 ? "wins" : "win"}!` : "The game is over: no winner."),
    why ? h("p", {class: "end-why"}, why) : null,
    rows.length ? h("ol", {class: "standings"}, rows.map(([n, fig]) =>
      h("li", {class: winners.includes(n) ? "won" : ""}, h("b", {}, n), h("span", {}, fig)))) : null,
    C.role === "host" ? h("button", {type: "button", id: "play-again", onclick: playAgain}, "Play again with the same players") : null,
    C.role !== "replay" ? h("p", {class: "end-links"}, h("a", {id: "end-replay", href: replayPath()}, "Replay this game, step by step")) : null].filter(Boolean));
}

// The replay as this page's viewer sees it (issue 22): the referee's, a seat's, the big screen's.
function replayPath() {
  return `/t/${encodeURIComponent(C.table)}/replay` + (C.token ? `?token=${encodeURIComponent(C.token)}` : "");
}

// A new table with the same game, players, options and cards, made by this table's host
// token: this table's phones and screens follow to it (the snapshot's ``next_table``).
async function playAgain(ev) {
  ev.currentTarget.disabled = true;
  const r = await api("POST", tablePath("/again"), {});
  if (!r.ok) { ev.currentTarget.disabled = false; notice(plain(r.data.error || "No new table.").text, "error"); return; }
  window.location.href = r.data.urls.referee;
}
