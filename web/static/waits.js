// What the table waits for, said to a refused player (issue 29 §4): "the table waits for
// Ana's Universe card", not a generic "show a card you can play now". Built from each game's
// view of whose move it is (``prompt`` and, for WuXing, ``awaiting`` and ``challenge``); the
// engines' words stay theirs.
import {C, plainText, seatLabel, store} from "./core.js";

// "Ana's", "your"; "Ana's and Ben's".
function whose(seats, me) {
  const xs = seats.map((s) => (s === me ? "your" : `${seatLabel(s)}'s`));
  return xs.length <= 1 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}

const EL = {wood: "Wood", fire: "Fire", earth: "Earth", metal: "Metal", water: "Water"};

function wuxing(v, me) {
  const aw = v.awaiting || [];
  const cards = aw.length > 1 ? "cards" : "card";
  if (v.phase === "start") {
    return (v.options || {}).start === "dragon" ? "an Infinite Dragon pulled from the player deck"
      : "the winner of rock-paper-scissors";
  }
  if (v.phase === "universe" && (v.challenge || []).length) return `${whose([v.challenge[0]], me)} Universe card`;
  if (!aw.length) return null;
  if (v.phase === "dragon") return `${whose(aw, me)} ${cards} for the pot`;
  if (v.phase === "star") return `${whose(aw, me)} ${cards} for the Void`;
  if (v.phase === "tiebreak") return `${whose(aw, me)} sudden-death ${cards}`;
  const face = v.universe_card ? store.faces[v.universe_card] : null;
  const against = face ? (EL[face.element] || face.name) : null;
  return `${whose(aw, me)} ${cards}` + (against ? ` against the Universe ${against}` : "");
}

// Any game: its prompt ("Ben: roll for movement (2 dice).") as "Ben: roll for movement",
// or "you: ..." when the prompt names this phone's player.
function prompted(v, me) {
  const text = plainText(v.prompt || "").replace(/[.\s]+$/, "");
  if (!text) return null;
  const m = text.match(/^([^:]{1,60}):\s+(.*)$/);
  if (m && me && m[1] === seatLabel(me)) return `you: ${m[2]}`;
  return text;
}

export function waitsFor(snap, me) {
  const v = (snap && snap.view) || {};
  if (snap && snap.finished) return "Game over: no more plays.";
  const what = (C.game === "wuxing" ? wuxing(v, me) : null) || prompted(v, me);
  return what ? `Nothing changed. The table waits for ${what}.` : "Nothing changed: ask the referee.";
}
