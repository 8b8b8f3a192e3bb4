"""The rule book: a variant's rules as GitHub-flavoured Markdown, rendered with Jinja2.

:func:`render_markdown` renders ``templates/rulebook.md.j2``. The template holds every word of
English prose, each sentence a whole gettext message (``_()``, ``ngettext()``, ``pgettext()`` or a
``{% trans trimmed %}`` block with named placeholders), so ``pybabel extract`` with the Jinja2
extractor finds them all. This module only prepares data (tables, card codes, the clauses of each
section) and the filters; it never builds sentences.

Rule-author text (name, summary, choice texts) passes through :func:`md_text`, which escapes every
character that Markdown or HTML would interpret, so author text can neither inject HTML nor break
the layout.

Strictness: a clause id the rule book has no text for, an option value without a sentence, or a
term outside the known pairs raises :class:`RuleBookError`, so a new rule never vanishes silently.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path
from typing import Any, NoReturn

import jinja2

from ..runtime.codes import SUIT_SYMBOLS, SUITS
from ..runtime.errors import FiveHundredError
from .clauses import CLAUSE_IDS
from .model import Clause, Ruleset

__all__ = [
    "KNOWN_TERMS",
    "SECTIONS",
    "RuleBookError",
    "card_text",
    "make_environment",
    "md_text",
    "render_markdown",
    "section_of",
]

TEMPLATE_DIR = Path(__file__).parent / "templates"
TEMPLATE_NAME = "rulebook.md.j2"

#: The rule book's sections, in order; every clause belongs to exactly one.
SECTIONS: tuple[str, ...] = (
    "players",
    "dealing",
    "bidding",
    "kitty",
    "card-order",
    "play",
    "scoring",
    "end",
)

#: Clause-id prefixes and the section they go to; the first matching prefix wins.
_SECTION_PREFIXES: tuple[tuple[str, str], ...] = (
    ("deck.", "players"),
    ("seats.", "players"),
    ("deal.", "dealing"),
    ("auction.", "bidding"),
    ("kitty.", "kitty"),
    ("trump.", "card-order"),
    ("joker.trump", "card-order"),
    ("joker.no-trumps.", "play"),
    ("play.", "play"),
    ("score.", "scoring"),
    ("end.", "end"),
)

#: The words a variant may use for each term; the template has whole sentences for each.
KNOWN_TERMS: dict[str, tuple[str, ...]] = {
    "kitty": ("kitty", "widow"),
    "misere": ("misere", "nullo"),
    "joker": ("joker", "bird"),
}

_MD_ESCAPES: dict[str, str] = {
    "\\": "\\\\",
    "`": "\\`",
    "*": "\\*",
    "_": "\\_",
    "[": "\\[",
    "]": "\\]",
    "|": "\\|",
    "~": "\\~",
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
}
_LEADING_MARKER = re.compile(r"^([#+=-])")
_LEADING_ORDERED = re.compile(r"^(\d+)([.)])")
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class RuleBookError(FiveHundredError):
    """The rule book cannot be written for this ruleset (a clause or option without text)."""


def md_text(value: object) -> str:
    """Rule-author text made safe for Markdown: one line, every significant character escaped.

    Whitespace runs (newlines included) become single spaces; ``\\ ` * _ [ ] | ~`` are
    backslash-escaped; ``& < >`` become HTML entities; a leading ``#``, ``-``, ``+``, ``=`` or
    ``1.`` is escaped so the text cannot start a heading, list or rule.
    """
    text = " ".join(str(value).split())
    out = "".join(_MD_ESCAPES.get(ch, ch) for ch in text)
    out = _LEADING_MARKER.sub(r"\\\1", out)
    return _LEADING_ORDERED.sub(r"\1\\\2", out)


def card_text(code: str) -> str:
    """A card code for the rule book: rank then suit symbol (``JH`` -> ``J♥``); jokers as is."""
    suit = code[-1:]
    if code in ("JK", "BJ") or suit not in SUIT_SYMBOLS:
        return code
    return code[:-1] + SUIT_SYMBOLS[suit]


def section_of(clause_id: str) -> str:
    """The rule-book section of a clause id; raises :class:`RuleBookError` for an unknown id."""
    if clause_id not in CLAUSE_IDS:
        raise RuleBookError(f"the rule book has no text for unknown clause {clause_id!r}")
    for prefix, section in _SECTION_PREFIXES:
        if clause_id.startswith(prefix):
            return section
    raise RuleBookError(f"the rule book has no section for clause {clause_id!r}")


def _fail(message: str) -> NoReturn:
    raise RuleBookError(message)


def make_environment(translations: gettext.NullTranslations | None = None) -> jinja2.Environment:
    """The Jinja2 environment of the rule book, with gettext installed (new-style).

    ``trim_blocks`` and ``lstrip_blocks`` are on; a message extractor should use the same options
    (Babel: ``[jinja2: **/templates/**.j2]`` with ``trim_blocks = true``, ``lstrip_blocks = true``,
    ``newstyle_gettext = true``).
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(  # type: ignore[attr-defined]
        translations or gettext.NullTranslations(), newstyle=True
    )
    env.filters["md_text"] = md_text
    env.filters["card"] = card_text
    env.filters["oneline"] = lambda text: " ".join(str(text).split())
    env.tests["prefixed"] = lambda value, prefix: str(value).startswith(prefix)
    env.globals["fail"] = _fail
    return env


def _check_terms(rs: Ruleset) -> dict[str, str]:
    terms = dict(rs.terms)
    for name, words in KNOWN_TERMS.items():
        word = terms.get(name, words[0])
        if word not in words:
            raise RuleBookError(
                f"the rule book has sentences for {name} = {' or '.join(words)}, not {word!r}"
            )
        terms[name] = word
    return terms


def _context(rs: Ruleset, lang: str) -> dict[str, Any]:
    """Everything the template needs besides ``rs``: data only, never prose."""
    sections: dict[str, list[Clause]] = {name: [] for name in SECTIONS}
    for clause in rs.clauses:
        sections[section_of(clause.id)].append(clause)
    suit_bids = [b for b in rs.ladder if b.kind == "suit"]
    levels = sorted({b.level for b in suit_bids})
    strains = sorted({b.strain for b in suit_bids})
    score_grid = {(b.level, b.strain): b.value for b in suit_bids}
    suit_cards: dict[str, list[str]] = {
        suit: [rs.card_rank[c] for c in range(len(rs.deck)) if rs.card_suit[c] == s][::-1]
        for s, suit in enumerate(SUITS)
    }
    longest: list[str] = max(suit_cards.values(), key=len)
    partners = max((len(team) for team in rs.teams), default=1) - 1
    n_teams = len(rs.teams)
    alternating = n_teams > 1 and all(
        list(team) == [seat for seat in range(rs.players) if seat % n_teams == t]
        for t, team in enumerate(rs.teams)
    )
    return {
        "rs": rs,
        "lang": lang,
        "terms": _check_terms(rs),
        "sections": sections,
        "clause_ids": [c.id for c in rs.clauses],
        "variant_id": rs.id if _SAFE_ID.match(rs.id) else None,
        "suits": SUITS,
        "symbols": SUIT_SYMBOLS,
        "suit_cards": {s: cards for s, cards in suit_cards.items() if cards},
        "plain_ranks": " ".join(longest),
        "levels": levels,
        "strain_indexes": strains,
        "score_grid": score_grid,
        "misere_bids": [b for b in rs.ladder if b.kind == "misere"],
        "suit_bids": suit_bids,
        "partners": partners,
        "alternating": alternating,
        "team_list": ["{" + ", ".join(str(seat) for seat in team) + "}" for team in rs.teams],
    }


def render_markdown(
    rs: Ruleset, lang: str = "en", translations: gettext.NullTranslations | None = None
) -> str:
    """The rule book of ``rs`` as GitHub-flavoured Markdown.

    ``translations`` supplies the language ``lang`` (English source text when None). The output
    is deterministic, has no trailing spaces and ends with exactly one newline. Every clause of
    ``rs`` appears as a paragraph or list item starting with ``<a id="CLAUSE"></a>``.
    Raises :class:`RuleBookError` when a clause, option value or term has no text.
    """
    env = make_environment(translations)
    text = env.get_template(TEMPLATE_NAME).render(_context(rs, lang))
    lines = [line.rstrip() for line in text.splitlines()]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n") + "\n"
    missing = [c.id for c in rs.clauses if f'<a id="{c.id}"></a>' not in out]
    if missing:
        raise RuleBookError(f"the rule book lost clauses: {', '.join(missing)}")
    return out
