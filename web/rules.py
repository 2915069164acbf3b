"""The rules pages, served by the companion itself (issue 20 §6): ``/rules/<game>`` renders
``docs/rules/<game>.md`` with an anchor per ruling id (``#wx-7``, ``#wx-7.5``), and
``/rules/<game>.json`` gives each ruling id's plain sentence for the pages' "why?".

The table's Wi-Fi may have no internet, so the rules a "why?" points at must come from this
server. The Markdown is our own docs (headings, paragraphs, nested lists, tables, code,
emphasis, links): a small renderer of exactly that, escaping everything it does not make.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, jsonify, render_template

from companion.registry import GAMES

bp = Blueprint("rules", __name__)

# The project's docs: beside the package in a checkout or an editable install.
RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
PAGES = (*GAMES, "common")
RULE_ID = re.compile(r"\b([A-Z]{1,3})-(\d+)(?:\.(\d+))?\b")
LIST_ITEM = re.compile(r"^( *)([-*]|\d+\.) +(.*)$")
HEADING = re.compile(r"^(#{1,6}) +(.*?) *#*$")


@dataclass
class Page:
    """One rendered rules page: its title, HTML body, and each ruling id's sentence."""

    title: str = ""
    body: list[str] = field(default_factory=list)
    sentences: dict[str, str] = field(default_factory=dict)
    heading_ids: set[str] = field(default_factory=set)
    # A heading's ruling ids awaiting their sentence: the first block of its section that
    # names the id, else the section's first block.
    pending: dict[str, str | None] = field(default_factory=dict)
    started: bool = False  # past the first section heading (the intro is for developers)


def anchor(rule: str) -> str:
    return rule.lower()


# An option's choices in the lobby's words (web/static/lobby.js LABELS): a "why?" says
# 'With "rock-paper-scissors"', never 'With rps' (issue 29 §3, C-8).
CHOICE_WORDS = {
    "rps": "rock-paper-scissors", "dragon": "first to draw an Infinite Dragon",
    "count": "count the cards", "recycle": "reuse the Void",
    "revert": "does not count", "stand": "counts",
    "hidden": "only the referee sees Oinks", "public": "everybody sees Oinks",
    "physical": "real dice", "companion": "the companion rolls",
}


def _code_words(m: re.Match[str]) -> str:
    """A code span in a player's words: an option's choice as the lobby says it, a field
    name as words; a file path or a place pattern (``deck:<n>``) is left out."""
    code = m.group(1)
    if code in CHOICE_WORDS:
        return f"\u201c{CHOICE_WORDS[code]}\u201d"
    if code.endswith(".json"):
        return "the deck file"
    if "/" in code or "<" in code or "{" in code:
        return ""
    return code.replace("_", " ")


def plain_sentence(md: str, limit: int = 260) -> str:
    """Markdown text as a plain sentence or two: no emphasis, code, file names or ruling
    ids."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", md)
    text = re.sub(r"`([^`]+)`", _code_words, text)
    text = re.sub(r"\*([a-z]+)\*", lambda m: _code_words(m) if m.group(1) in CHOICE_WORDS
                  else m.group(1), text)
    text = re.sub(r"\(\s*\)", "", text).replace("deck file the deck file", "deck file")
    text = re.sub(r"[*`]", "", text)
    text = re.sub(r"\s*\((?:[^()]*\b[A-Z]{1,3}-\d+[^()]*)\)", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([.,;:])", r"\1", text)
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = cut.rfind(". ")
    return cut[:end + 1] if end > 60 else cut.rsplit(" ", 1)[0] + " …"


def inline(md: str) -> str:
    """Escaped HTML of one line of Markdown: code spans, emphasis, links."""
    parts = re.split(r"(`[^`]+`)", md)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        s = html.escape(part, quote=False)
        s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
        s = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<i>\1</i>", s)

        def link(m: re.Match[str]) -> str:
            href = m.group(2)
            if href.endswith(".md") or ".md#" in href:  # another rules page
                href = "/rules/" + href.rsplit("/", 1)[-1].replace(".md", "")
            if not re.match(r"^(#|/|https?://)", href):
                return m.group(1)
            return f'<a href="{html.escape(href)}">{m.group(1)}</a>'

        out.append(re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, s))
    return "".join(out)


def _ids(text: str) -> list[str]:
    return [f"{m.group(1)}-{m.group(2)}" for m in RULE_ID.finditer(text) if not m.group(3)]


def _claim(page: Page, text: str, sentence_md: str, *, heading: bool = False) -> str:
    """The ruling ids this block is the anchor of, as id attributes / spans; records their
    sentences (a heading's comes from the block after it)."""
    if not page.started:
        return ""
    spans = []
    for rule in dict.fromkeys(_ids(text)):
        key = anchor(rule)
        if key in page.sentences or (not heading and rule in page.heading_ids):
            continue
        spans.append(f'<span class="anchor" id="{key}"></span>')
        if heading:
            page.sentences[key] = ""
            page.pending[key] = None
        else:
            page.sentences[key] = plain_sentence(sentence_md)
    return "".join(spans)


def _sentence_for_pending(page: Page, md: str) -> None:
    """A block of a section whose heading named ruling ids: the sentence of those it names,
    and the fallback for the others."""
    named = {anchor(r) for r in _ids(md)}
    for key, first in list(page.pending.items()):
        if key in named:
            page.sentences[key] = plain_sentence(md)
            del page.pending[key]
        elif first is None:
            page.pending[key] = md


def _flush_pending(page: Page) -> None:
    for key, first in page.pending.items():
        page.sentences[key] = plain_sentence(first or "")
    page.pending.clear()


def _render_list(page: Page, lines: list[str], parent: str | None) -> str:
    """A (nested) list from its lines; items of an item that names ruling XX-N in bold are
    anchored XX-N.1, XX-N.2, ... (the rules pages number a ruling's cases that way)."""
    base = min(len(LIST_ITEM.match(x).group(1)) for x in lines if LIST_ITEM.match(x))  # type: ignore[union-attr]
    items: list[tuple[str, list[str]]] = []
    ordered = False
    for line in lines:
        m = LIST_ITEM.match(line)
        if m and len(m.group(1)) == base:
            ordered = m.group(2)[0].isdigit()
            items.append((m.group(3), []))
        elif items:
            items[-1][1].append(line)
    tag = "ol" if ordered else "ul"
    out = [f"<{tag}>"]
    for n, (first, rest) in enumerate(items, start=1):
        text = [first] + [x.strip() for x in rest if x.strip() and not LIST_ITEM.match(x)
                          and not _nested_started(rest, x)]
        nested = _nested(rest)
        md = " ".join(text)
        lead = re.match(r"\*\*([^*]+)\*\*", first)
        own = _ids(lead.group(1)) if lead else []
        attrs = ""
        if parent and ordered and page.started:
            key = f"{parent}.{n}"
            if key not in page.sentences:
                attrs = f' id="{key}"'
                page.sentences[key] = plain_sentence(md)
        spans = _claim(page, md, md)
        if page.pending:
            _sentence_for_pending(page, md)
        inner = _render_list(page, nested, anchor(own[0]) if own else None) if nested else ""
        out.append(f"<li{attrs}>{spans}{inline(md)}{inner}</li>")
    out.append(f"</{tag}>")
    return "".join(out)


def _nested(rest: list[str]) -> list[str]:
    for i, line in enumerate(rest):
        if LIST_ITEM.match(line):
            return rest[i:]
    return []


def _nested_started(rest: list[str], line: str) -> bool:
    first = next((i for i, x in enumerate(rest) if LIST_ITEM.match(x)), None)
    return first is not None and rest.index(line) > first


def _table(lines: list[str]) -> str:
    rows = [[c.strip() for c in x.strip().strip("|").split("|")] for x in lines]
    rows = [r for r in rows if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    if not rows:
        return ""
    head = "".join(f"<th>{inline(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>"
                   for r in rows[1:])
    # A wide table scrolls on a phone: the region takes focus, so a keyboard scrolls it too.
    return f'<div class="scroll" tabindex="0" role="region" aria-label="table: ' \
           f'{html.escape(rows[0][0])}"><table><thead><tr>{head}</tr></thead>' \
           f"<tbody>{body}</tbody></table></div>"


def render(md: str) -> Page:
    """The page of one rules document."""
    page = Page()
    lines = md.splitlines()
    page.heading_ids = {r for x in lines if HEADING.match(x) for r in _ids(x)}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            page.body.append(f"<pre><code>{html.escape(chr(10).join(lines[i + 1:j]))}"
                             "</code></pre>")
            i = j + 1
            continue
        m = HEADING.match(line)
        if m:
            level, text = len(m.group(1)), m.group(2)
            if level == 1 and not page.title:
                page.title = plain_sentence(text)
            if level >= 2:
                page.started = True
            _flush_pending(page)
            slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            spans = _claim(page, text, "", heading=True)
            page.body.append(f'<h{level} id="{slug}">{spans}{inline(text)}</h{level}>')
            i += 1
            continue
        if line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            page.body.append(_table(lines[i:j]))
            i = j
            continue
        if LIST_ITEM.match(line):
            j = i
            while j < len(lines) and (LIST_ITEM.match(lines[j]) or lines[j].startswith(" ")
                                      or (not lines[j].strip() and j + 1 < len(lines)
                                          and (lines[j + 1].startswith(" ")
                                               or LIST_ITEM.match(lines[j + 1])))):
                j += 1
            page.body.append(_render_list(page, [x for x in lines[i:j] if x.strip()], None))
            i = j
            continue
        j = i
        while j < len(lines) and lines[j].strip() and not HEADING.match(lines[j]) \
                and not LIST_ITEM.match(lines[j]) and not lines[j].startswith(("```", "|")):
            j += 1
        md_text = " ".join(x.strip() for x in lines[i:j])
        spans = _claim(page, md_text, md_text)
        if page.pending:
            _sentence_for_pending(page, md_text)
        page.body.append(f"<p>{spans}{inline(md_text)}</p>")
        i = j
    _flush_pending(page)
    return page


@lru_cache(maxsize=len(PAGES))
def load(game: str) -> Page:
    return render((RULES_DIR / f"{game}.md").read_text(encoding="utf-8"))


def _page(game: str) -> Page:
    if game not in PAGES or not (RULES_DIR / f"{game}.md").is_file():
        abort(404, f"There is no rules page {game!r} on this server.")
    return load(game)


@bp.get("/rules/<game>")
def rules_page(game: str) -> str:
    page = _page(game)
    return render_template("rules.html", page=page, body="\n".join(page.body), game=game,
                           pages=[(p, load(p).title.split(":")[0]) for p in PAGES
                                  if p != game and (RULES_DIR / f"{p}.md").is_file()])


@bp.get("/rules/<game>.json")
def rules_sentences(game: str) -> Response:
    """Each ruling id of the page (and of every game's common rulings): its plain sentence
    and where it is explained."""
    out = {}
    for name in (game, "common"):  # the common rulings in the common page's words
        page = _page(name)
        for key, text in page.sentences.items():
            out[key] = {"text": text, "href": f"/rules/{name}#{key}"}
    resp = jsonify({"game": game, "rulings": out})
    resp.headers["Cache-Control"] = "max-age=300"
    return resp
