"""The camera protocol of every game (C-6 rev. 3, C-9; issue 26): which zones of the mat the
camera watches, what a player does with each card so that the camera sees it, and what
still needs a tap. ``docs/camera.md`` prints these tables (``markdown``); the words check
(``blind_moves``) reads every prompt, button and ruling a player reads against them.

The rule players read everywhere: a card nobody has seen yet (the top card of a deck, a card
from a hand) is shown in its owner's place first, then moved, unless it goes straight to a
zone of the mat where the camera referees it there (God Num's pot and Void, Shrine's lot,
the WuXing Universe card on the pot). A card the companion knows lies in a pile and that
the camera sees there again is "already there" (C-9, answered by the server).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One move of a game: what players do, where the card goes, what the camera sees and
    what still needs a tap ("" for nothing)."""

    move: str
    goes: str
    camera: str
    tap: str = ""


@dataclass(frozen=True)
class Protocol:
    """A game's protocol. ``zones`` are the mat zones the camera watches (the game's
    ``Rules.zones``); ``straight`` the (source, place) pairs where a card nobody has seen
    may go without being shown first, because the camera referees it there."""

    game: str
    title: str
    zones: tuple[str, ...]
    straight: frozenset[tuple[str, str]]
    steps: tuple[Step, ...]


ALREADY = "already there (C-9): no play, no refusal"

PROTOCOLS: dict[str, Protocol] = {p.game: p for p in (
    Protocol("wuxing", "WuXing", ("universe", "void", "seat:<n>"),
             frozenset({("universe", "pot")}), (
        Step("Who starts, rock-paper-scissors (WX-12)", "-", "nothing",
             "the winner, on a phone"),
        Step("Who starts, first Dragon pulled (WX-12)", "each pulled card shown in the "
             "puller's place", "the card in `seat:<n>`"),
        Step("Universe card (WX-4)", "top Universe card laid face up on the pot",
             "the card in `universe` (the pot pile)"),
        Step("Reveal (WX-7)", "your top card, face up in your place",
             "the card in `seat:<n>`"),
        Step("Universe Dragon round (WX-5)", "your top card shown in your place, then put "
             "face up on the pot", "the card in `seat:<n>`, then in `universe`: "
             f"{ALREADY}. A card put straight on the pot counts as the card of a player "
             "who owes one (C-6 rev. 3)"),
        Step("Universe Star round (WX-6)", "your top card shown in your place, then put into "
             "the Void", "the card in `seat:<n>`, then in `void`: "
             f"{ALREADY}. A card put straight into the Void counts as the card of a player "
             "who owes one (C-6 rev. 3)"),
        Step("Cards after a challenge (WX-7, WX-8)", "the pot, the Void, or the bottom of "
             "the winner's deck", "pot and Void cards seen again: "
             f"{ALREADY}; won cards leave the mat"),
        Step("Void turned over (WX-10b)", "the new Universe deck, face down",
             "the Void cards leave the mat"),
        Step("Sudden death (WX-11)", "the top Universe card, shown in the taker's place",
             "the card in `seat:<n>`"),
    )),
    Protocol("godnum", "God Num", ("seat:<n>", "pot", "void"),
             frozenset({("hand", "pot"), ("hand", "void")}), (
        Step("Target and first player (GN-4)", "-", "nothing",
             "none: the companion draws them"),
        Step("Draw back up to 5 (GN-5)", "your hand", "nothing: hands are hidden",
             "none: the companion counts"),
        Step("Play a card (GN-5..GN-8)", "laid face up on the pot (or shown in your place "
             "first)", "the card in `pot` (or `seat:<n>`): the play; seen again on the pot: "
             f"{ALREADY}"),
        Step("Discard (GN-9)", "each card laid face up in the Void", "each card in `void`: "
             "one karma point", "End turn, after the last discard"),
        Step("Burden (GN-3)", "one card of your choice, face up in the Void",
             "the card in `void`"),
        Step("Empty deck (GN-10)", "your pot cards (not the top one) shuffled into a new "
             "deck", "the cards leave the pot"),
        Step("Eliminated (GN-8, GN-9)", "hand and deck out of the game", "nothing"),
    )),
    Protocol("shrine", "Shrine of the Elemental Kings", ("seat:<n>", "lot"),
             frozenset({("deck", "lot")}), (
        Step("Who starts (SK-2)", "a card drawn and shown in your place, then back at the "
             "bottom of the deck", "the card in `seat:<n>`"),
        Step("The lot (SK-3, SK-8)", "each lot card laid face up in the lot",
             "the card in `lot`"),
        Step("Bids and passes (SK-4)", "-", "nothing", "every bid and pass, on the phone"),
        Step("Payment and shares (SK-5, SK-6)", "Oinks, out of sight (SK-7)", "nothing",
             "none: the companion proposes the payment"),
        Step("Lot won", "face up in the winner's place", "the cards in `seat:<n>`: known"),
        Step("Nobody bid (SK-3)", "the lot set aside, out of the game",
             "the cards leave the mat"),
    )),
    Protocol("mountains", "The Classic of Mountains & Rivers", ("seat:<n>",),
             frozenset(), (
        Step("Pick order, movement and skill rolls (MR-3, MR-5, MR-11)", "dice", "nothing",
             "every roll, on the phone (or the companion rolls)"),
        Step("Character (MR-3)", "drawn blindly, shown in your place",
             "the card in `seat:<n>`"),
        Step("Start corner, moves, stairs, attacks, skills (MR-2, MR-4..MR-8)",
             "pawns on the board", "nothing: the camera does not read the board",
             "each, on the phone"),
        Step("Weapon, challenge or chance card drawn (MR-6)", "shown in your place, then "
             "kept (a weapon) or read aloud", "the card in `seat:<n>`"),
        Step("Mini-game winner (MR-9)", "-", "nothing", "the winner, on a phone"),
        Step("Used weapons, read cards, a defeated player's weapons (MR-7, MR-9, MR-10)",
             "their discard piles, off the mat", "nothing: the companion knows them"),
    )),
    Protocol("gemcomplete", "Gem Complete", ("seat:<n>", "locus:<n>", "discard:<n>"),
             frozenset(), (
        Step("First player (GC-3)", "-", "nothing", "none: the companion draws"),
        Step("Draw (GC-3)", "your hand", "nothing: hands are hidden",
             "moving on to the next step"),
        Step("Set a Locus card (GC-2)", "face down at the end of your Locus",
             "a card back in `locus:<n>`", "set, on the phone; the card itself only as a "
             "private scan on your phone (GC-2)"),
        Step("Play a card (GC-3)", "shown in your place, then face up on your discard pile",
             f"the card in `seat:<n>`; on the pile: {ALREADY}",
             "its effects, one confirming tap each"),
        Step("Crush, discard by an effect (GC-1, GC-5)", "each card shown in your place, "
             "then face up on your discard pile", "the card in `seat:<n>`, or straight in "
             "`discard:<n>` while the pile still owes it", "the effect itself"),
        Step("Complete Declaration (GC-4)", "six Locus cards turned face up in place",
             "the cards in `locus:<n>`", "the six positions, on the phone"),
        Step("Opponent's choice (GC-4)", "2 revealed cards to the discard pile, 4 face down "
             "again", f"on the pile: {ALREADY}", "the two cards, on the opponent's phone"),
        Step("Cards back from the discard pile (effects)", "hand or deck",
             "the cards leave the pile", "the effect"),
    )),
)}


def markdown(game: str) -> str:
    """The game's protocol as the table ``docs/camera.md`` prints."""
    p = PROTOCOLS[game]
    rows = [f"### {p.title}", "",
            f"Zones the camera watches: {', '.join(f'`{z}`' for z in p.zones)}.", "",
            "| move | where the card goes | what the camera sees | what still needs a tap |",
            "|---|---|---|---|"]
    rows += [f"| {s.move} | {s.goes} | {s.camera} | {s.tap or '-'} |" for s in p.steps]
    return "\n".join(rows) + "\n"


# -- the words check (C-6 rev. 3): nothing read moves an unseen card where nobody sees it ---

_CLAUSE = re.compile(r"(?<=[.;!?])\s+")
_MOVE = re.compile(r"\b(?:put|puts|lay|lays|send|sends|discard(?!\s+pil)|discards|into|"
                   r"onto|goe?s? to)\b")
_SOURCES = (
    ("universe", re.compile(r"\btop universe cards?\b")),
    ("deck", re.compile(r"\btop (?:\d+ )?cards?\b|\bfrom (?:the|your|their) "
                        r"(?:(?!discard)\w+ )?(?:deck|pile)\b")),
    ("hand", re.compile(r"\bfrom (?:your|their) hand\b|\bcards? of (?:your|their) choice\b|"
                        r"\bone or more\b")),
)
_PLACES = (
    ("pot", re.compile(r"\b(?:on|onto|into|in) the pot\b")),
    ("void", re.compile(r"\b(?:into|in|to) the void\b")),
    ("discard", re.compile(r"\bdiscard pile\b|\bon the pile\b")),
    ("lot", re.compile(r"\b(?:in|into) the lot\b")),
    ("out", re.compile(r"\bout of the game\b|\baside\b")),
    ("pile", re.compile(r"\b\w+ pile\b")),
    ("locus", re.compile(r"\blocus\b")),
)


def blind_moves(text: str, game: str) -> list[str]:
    """What in ``text`` tells a player to move a card nobody has seen yet (a top card, a
    card from a hand) to a place without showing it first, where the camera does not
    referee it (``Protocol.straight``), or to discard one without saying where. Empty when
    nothing does. A card set face down (a Locus card, GC-2) is private on purpose."""
    straight = PROTOCOLS[game].straight
    out = []
    for clause in _CLAUSE.split(text):
        low = clause.lower()
        if "face down" in low:
            continue
        sources = [(found.start(), k) for k, rx in _SOURCES for found in rx.finditer(low)]
        if not sources:
            continue
        for m in _MOVE.finditer(low):
            hits = [(found.start(), k) for k, rx in _PLACES
                    if (found := rx.search(low, m.start()))]
            at, place = min(hits) if hits else (len(low), "")
            # The card moved is one named before the place it goes to; showing it anywhere
            # before that place (in the owner's place) is what the camera needs.
            source = max((x for x in sources if x[0] < at), default=None)
            if source is None or "show" in low[:at]:
                continue
            if not place:
                if m.group(0).startswith("discard"):
                    out.append(f"discards {source[1]} cards without saying where: {clause!r}")
                continue
            if (source[1], place) not in straight:
                out.append(f"moves a {source[1]} card to the {place} unseen: {clause!r}")
    return out
