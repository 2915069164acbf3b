"""Statistics a designer can trust (issue 30 §2): corrections for looking at many seats,
positions and cards at once, each card against its own deck's baseline, and paired
comparisons of two ruling options played on the same seeds.

- **Seats and turn positions**: one family each. One chi-square test over the family says
  whether the wins are uneven at all; a seat is then named only where its own Wilson
  interval at the Bonferroni level 1 - 5 %/k (k seats or positions) excludes the fair
  share. In a fair game at most 5 % of reports call any seat favoured or disadvantaged
  (``tests/companion/test_playstats.py`` checks it over many seeds). The table shows the
  intervals it judged by.
- **Cards**: a card's win rate (the share of its seat-games its player won) is tested
  against the pooled rate of every card of its own deck or legion (God Num's legions differ
  by themselves: 0.445-0.489), never against the fair share; only cards seen in
  ``MIN_CARD_GAMES`` seat-games are tested, and the Benjamini-Hochberg procedure holds the
  false discovery rate at 5 % over all of them.
- **Sides** (a God Num legion, a Mountains & Rivers character, a Gem Complete deck:
  ``companion.sides``): each side's share of wins over the seat-games it was played in,
  against its fair baseline: the mean over those seat-games of 1/players (a side two seats
  play in one game counts twice; a game nobody won gives nobody a share). Only sides seen in
  ``MIN_SIDE_GAMES`` seat-games are tested; a side is named favoured or disadvantaged when
  its z-test (variance of its own seat-games) passes Bonferroni's 5 %/k over the k tested
  sides and its Wilson interval at that level excludes the baseline: one family, as seats.
- **Compare**: the same seeds give each option the same game index ``i``; the difference
  of each figure is averaged over the pairs with a 95 % normal interval, and games that came
  out identical under both options are counted (all identical: the option changed nothing).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from statistics import NormalDist, fmean, stdev
from typing import Any, Protocol

ALPHA = 0.05
MIN_CARD_GAMES = 20  # a card seen in fewer seat-games is listed but never tested or ranked
MIN_SIDE_GAMES = 30  # a side seen in fewer seat-games is listed but never judged
_N = NormalDist()


class _Game(Protocol):
    @property
    def finished(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def events(self) -> int: ...
    @property
    def starter(self) -> int | None: ...
    @property
    def played(self) -> tuple[tuple[int, tuple[str, ...]], ...]: ...


def family_z(k: int, alpha: float = ALPHA) -> float:
    """The two-sided z of a Bonferroni family of ``k`` intervals at ``alpha`` in all."""
    return _N.inv_cdf(1 - alpha / (2 * max(1, k)))


def wilson(wins: float, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` of ``n`` (a shared win counts as a share)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(wins: float, n: int, z: float) -> dict[str, float | int]:
    lo, hi = wilson(wins, n, z)
    return {"games": n, "wins": round(wins, 3), "rate": round(wins / n, 4) if n else 0.0,
            "low": round(lo, 4), "high": round(hi, 4)}


def share(game: _Game, seat: int) -> float:
    return 1.0 / len(game.winners) if seat in game.winners else 0.0


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (closed forms
    for whole and half-whole shapes, so no SciPy)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    for i in range(1, (df - 1) // 2 + 1):
        total += math.exp((i - 0.5) * math.log(h) - h - math.lgamma(i + 0.5))
    return min(1.0, total)


def uneven(wins: Sequence[float], n: int) -> float:
    """The p-value of one chi-square test that every cell wins a fair share of ``n``."""
    k = len(wins)
    if n <= 0 or k < 2:
        return 1.0
    e = n / k
    return chi2_sf(sum((w - e) ** 2 / e for w in wins), k - 1)


def _family(rows: list[dict[str, Any]], wins: Sequence[float], n: int, fair: float) -> None:
    """A seat (or position) is called favoured or disadvantaged only when one test over
    the whole family rejects fairness at 5 % and its own Bonferroni interval excludes the
    fair share: the family-wise error stays at 5 % (the Wilson intervals alone, being
    approximate, flagged 6 % of fair 3-seat reports)."""
    p = uneven(wins, n)
    for r in rows:
        r["family_p"] = round(p, 6)
        r["favoured"] = p < ALPHA and r["low"] > fair
        r["disfavoured"] = p < ALPHA and r["high"] < fair


def seats(done: Sequence[_Game], players: int) -> list[dict[str, Any]]:
    """Each seat's win rate with its family-wise interval and verdict."""
    z = family_z(players)
    fair = 1.0 / players
    wins = [sum(share(g, s) for g in done) for s in range(1, players + 1)]
    out = [{"seat": s, **rate(w, len(done), z), "fair": round(fair, 4)}
           for s, w in enumerate(wins, 1)]
    _family(out, wins, len(done), fair)
    return out


def positions(done: Sequence[_Game], players: int) -> list[dict[str, Any]]:
    """Win rate by turn position (1 = the first player, 2 = the seat after it...), one
    family over the positions; seats take turns in seat order (every game here does)."""
    started = [g for g in done if g.starter is not None]
    z = family_z(players)
    fair = 1.0 / players
    wins = [sum(share(g, (int(g.starter or 1) - 1 + p) % players + 1) for g in started)
            for p in range(players)]
    out = []
    for p, w in enumerate(wins, 1):
        r = rate(w, len(started), z)
        out.append({"position": p, **r, "fair": round(fair, 4),
                    "advantage": round(float(r["rate"]) - fair, 4) if started else None})
    _family(out, wins, len(started), fair)
    return out


class _SidedGame(_Game, Protocol):
    @property
    def sides(self) -> tuple[str, ...]: ...


def sides(done: Sequence[_SidedGame], min_games: int = MIN_SIDE_GAMES
          ) -> list[dict[str, Any]]:
    """Each side's win rate over its seat-games (``n``), its fair baseline, a
    Bonferroni-level Wilson interval and verdict over the sides seen ``min_games`` times;
    sides named ``""`` (not bound) are left out. Most seat-games first."""
    if min_games < 1:
        raise ValueError(f"min_games must be 1 or more, got {min_games}")
    tally: dict[str, list[float]] = {}  # side -> [seat-games, wins, fair wins, variance]
    present: dict[str, int] = {}
    for g in done:
        players = len(g.sides)
        fair = 1.0 / players if g.winners and players else 0.0
        for seat, side in enumerate(g.sides, 1):
            if not side:
                continue
            t = tally.setdefault(side, [0, 0.0, 0.0, 0.0])
            t[0] += 1
            t[1] += share(g, seat)
            t[2] += fair
            t[3] += fair * (1 - fair)
        for side in set(g.sides) - {""}:
            present[side] = present.get(side, 0) + 1
    tested = [k for k, t in tally.items() if t[0] >= min_games]
    z = family_z(len(tested))
    out: list[dict[str, Any]] = []
    for name, (n, wins, fair_wins, var) in sorted(tally.items(),
                                                  key=lambda kv: (-kv[1][0], kv[0])):
        base = fair_wins / n
        r = rate(wins, int(n), z)
        del r["games"]  # seat-games: ``n``; the games it appeared in: ``in_games``
        p = None
        if name in tested and var > 0:
            p = round(2 * (1 - _N.cdf(abs(wins - fair_wins) / math.sqrt(var))), 6)
        judged = p is not None and p < ALPHA / max(1, len(tested))
        out.append({"name": name, "n": int(n), **r, "in_games": present.get(name, 0),
                    "fair": round(base, 4), "difference": round(wins / n - base, 4),
                    "p": p, "tested": name in tested,
                    "favoured": judged and r["low"] > base,
                    "disfavoured": judged and r["high"] < base})
    return out


def benjamini_hochberg(p_values: Sequence[float], q: float = ALPHA) -> list[bool]:
    """Which hypotheses the Benjamini-Hochberg step-up procedure rejects at FDR ``q``."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    cut = 0
    for rank, i in enumerate(order, 1):
        if p_values[i] <= q * rank / m:
            cut = rank
    keep = set(order[:cut])
    return [i in keep for i in range(m)]


def cards(done: Sequence[_Game], names: Mapping[str, str], decks: Mapping[str, str]
          ) -> list[dict[str, Any]]:
    """Every card played, with its deck's baseline and, where it was seen often enough,
    a test against that baseline (``stands_out``: kept by Benjamini-Hochberg at 5 %)."""
    tally: dict[str, list[float]] = {}
    for g in done:
        for seat, faces in g.played:
            for face in faces:
                t = tally.setdefault(face, [0, 0.0])
                t[0] += 1
                t[1] += share(g, seat)
    pooled: dict[str, list[float]] = {}
    for face, (n, wins) in tally.items():
        p = pooled.setdefault(decks.get(face, ""), [0, 0.0])
        p[0] += n
        p[1] += wins
    z95 = family_z(1)
    rows: list[dict[str, Any]] = []
    for face, (n, wins) in sorted(tally.items()):
        deck = decks.get(face, "")
        dn, dw = pooled[deck]
        base = dw / dn if dn else 0.0
        row: dict[str, Any] = {"face": face, "name": names.get(face, face), "deck": deck,
                               **rate(wins, int(n), z95), "baseline": round(base, 4),
                               "difference": round(wins / n - base, 4), "p": None,
                               "stands_out": False}
        if n >= MIN_CARD_GAMES and 0 < base < 1:
            zz = (wins / n - base) / math.sqrt(base * (1 - base) / n)
            row["p"] = round(2 * (1 - _N.cdf(abs(zz))), 6)
        rows.append(row)
    tested = [r for r in rows if r["p"] is not None]
    for r, kept in zip(tested, benjamini_hochberg([r["p"] for r in tested]), strict=True):
        r["stands_out"] = kept
    return rows


def ranked(rows: Sequence[Mapping[str, Any]], k: int = 10
           ) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The ``k`` tested cards furthest above and below their deck's baseline."""
    tested = sorted((r for r in rows if r["p"] is not None),
                    key=lambda r: (-r["difference"], r["face"]))
    top = [r for r in tested[:k] if r["difference"] > 0]
    bottom = [r for r in tested[::-1][:k] if r["difference"] < 0]
    return top, bottom


def _pair_interval(diffs: Sequence[float]) -> dict[str, Any]:
    n = len(diffs)
    mean = fmean(diffs) if diffs else 0.0
    half = family_z(1) * stdev(diffs) / math.sqrt(n) if n >= 2 else math.inf
    lo, hi = mean - half, mean + half
    return {"pairs": n, "difference": round(mean, 4),
            "low": round(lo, 4) if math.isfinite(lo) else None,
            "high": round(hi, 4) if math.isfinite(hi) else None,
            "differs": math.isfinite(half) and (lo > 0 or hi < 0)}


def paired(a: Sequence[_Game], b: Sequence[_Game], players: int) -> dict[str, Any]:
    """B minus A over the games both finished, paired by index (the same seed)."""
    pairs = [(x, y) for x, y in zip(a, b, strict=False) if x.finished and y.finished]
    same = sum(1 for x, y in zip(a, b, strict=False)
               if (x.finished, x.winners, x.events, x.played)
               == (y.finished, y.winners, y.events, y.played))
    figures: dict[str, Any] = {
        f"seat {s} win rate": _pair_interval([share(y, s) - share(x, s) for x, y in pairs])
        for s in range(1, players + 1)}
    firsts = [(x, y) for x, y in pairs if x.starter and y.starter]
    figures["first player win rate"] = _pair_interval(
        [share(y, int(y.starter or 0)) - share(x, int(x.starter or 0)) for x, y in firsts])
    figures["events per game"] = _pair_interval([float(y.events - x.events) for x, y in pairs])
    return {"games": min(len(a), len(b)), "identical": same,
            "all_identical": bool(a) and same == min(len(a), len(b)), "figures": figures}
