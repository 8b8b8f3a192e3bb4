"""The books as a player reads them: the language's card and bid notation, rule titles instead
of clause ids, variant names instead of ids, one term per thing (the glossary), and statistics
that fit the variant (issue 21).

Every committed book of every language is read (``generated/docs/<lang>/*.md`` and ``.html``).
"Running text" is what a reader reads: everything but code spans (the clause-id badges, the
codes of the ladder's special bids, commands), anchors and link targets.
"""

from __future__ import annotations

import html
import io
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from fivehundred.generator.clauses import CLAUSE_IDS
from fivehundred.generator.glossary import GLOSSARY, Entry, avoid_pattern, entries, norm
from fivehundred.generator.i18n import _po_bytes, load_translations, po_path
from fivehundred.runtime.engine.notation import ENGLISH, Notation, notation_of

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "generated" / "docs"
LANGS = ("nl", "nb", "da", "ar", "pt")
#: the built-in variants a book may build on: the templates name them (a house file's id
#: appears only in author text that names the file, a command's argument)
VARIANTS = tuple(sorted(p.stem for p in (ROOT / "specs" / "variants").glob("*.yaml")))

#: issue 21, §1: the letters players of each language write for A K Q J
RANKS = {
    "nl": ("A", "H", "V", "B"),
    "nb": ("A", "K", "D", "Kn"),
    "da": ("A", "K", "D", "B"),
    "pt": ("A", "R", "D", "V"),
    "ar": ("A", "K", "Q", "J"),  # the letters printed on the cards Arabic players hold
}

_MD_CODE = re.compile(r"`[^`]*`")
_MD_SUB = re.compile(r"<sub>.*?</sub>")
_MD_ANCHOR = re.compile(r'<a id="[^"]*"></a>')
_MD_TARGET = re.compile(r"\]\(#[^)]*\)")
_MD_LINKS = re.compile(r"\]\([^)]*\.md\)")
_HTML_DROP = re.compile(
    r"<style>.*?</style>|<code[^>]*>.*?</code>|<(a|span) class=\"cid\"[^>]*>.*?</\1>"
    r"|<bdi dir=\"ltr\" class=\"code\">.*?</bdi>",
    re.S,
)
_TAG = re.compile(r"<[^>]+>")
_ISOLATES = re.compile("[\u2066-\u2069]")


def running_text(path: Path) -> str:
    """What a reader reads of a book: its text without codes, anchors and link targets."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        for pattern in (_MD_SUB, _MD_CODE, _MD_ANCHOR, _MD_TARGET, _MD_LINKS):
            text = pattern.sub(" ", text)
    else:
        text = html.unescape(_TAG.sub(" ", _HTML_DROP.sub(" ", text)))
    return _ISOLATES.sub("", text)


def book_files(lang: str, ext: str) -> list[Path]:
    """The rule books of ``lang`` in one format: not the language's index of them, which
    names each variant by its id as the top index does."""
    return [p for p in sorted((DOCS / lang).glob(f"*.{ext}")) if p.stem != "index"]


def books(lang: str) -> list[Path]:
    return book_files(lang, "md") + book_files(lang, "html")


_CLAUSE_ID = re.compile(
    r"(?<![\w.-])(" + "|".join(re.escape(c) for c in CLAUSE_IDS) + r")(?![\w-])"
)
_TRICK_BID = re.compile(r"(?<![\w-])(?:[6-9]|10)(?:S|C|D|H|NT)(?![\w-])")
_SPECIAL_BID = re.compile(r"(?<![\w-])(?:MIS|OMIS|BMIS|DMIS)(?![\w-])")
#: variant ids; "three-handed" and its kin are also English words, so in English only the others
_ADJECTIVES = frozenset({"two-handed", "three-handed", "five-handed", "six-handed"})
_VARIANT_ID = re.compile(r"(?<![\w-])(" + "|".join(re.escape(v) for v in VARIANTS) + r")(?![\w-])")
_VARIANT_ID_EN = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(v) for v in VARIANTS if v not in _ADJECTIVES)
    + r")(?![\w-])"
)
_CARD = re.compile(r"(?<![\w])(\w{1,2})[♠♣♦♥]")


def _excerpt(text: str, match: re.Match[str]) -> str:
    return text[max(0, match.start() - 40) : match.end() + 40].replace("\n", " ")


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_no_clause_id_bid_code_or_variant_id_in_running_text(lang: str) -> None:
    """issue 21, §1 (done when): no English clause id, bid code or variant id in the running
    text of any book; in English a no-trumps bid is written 7NT, as English players do."""
    problems = []
    for path in books(lang):
        text = running_text(path)
        patterns = [_CLAUSE_ID, _SPECIAL_BID, _VARIANT_ID if lang != "en" else _VARIANT_ID_EN]
        if lang != "en":
            patterns.append(_TRICK_BID)
        else:
            patterns.append(re.compile(r"(?<![\w-])(?:[6-9]|10)[SCDH](?![\w-])"))
        for pattern in patterns:
            for match in pattern.finditer(text):
                problems.append(f"{path.relative_to(ROOT)}: {_excerpt(text, match)!r}")
    assert not problems, "\n".join(problems[:20]) + f"\n({len(problems)} in all)"


@pytest.mark.parametrize("lang", LANGS)
def test_cards_in_the_languages_rank_letters(lang: str) -> None:
    """issue 21, §1: every card and every rank list of a book in the language's letters."""
    ace, king, queen, jack = RANKS[lang]
    allowed = {ace, king, queen, jack, *[str(n) for n in range(2, 14)]}
    problems = []
    for path in books(lang):
        text = running_text(path)
        for match in _CARD.finditer(text):
            if match.group(1) not in allowed:
                problems.append(f"{path.name}: {_excerpt(text, match)!r}")
        for match in re.finditer(r"(?<!\w)A (\w+) (\w+) (\w+) 10 ", text):
            if match.groups() != (king, queen, jack):
                problems.append(f"{path.name}: {_excerpt(text, match)!r}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("lang", LANGS)
def test_notation_comes_from_the_catalogue(lang: str) -> None:
    """issue 21, §4: one notation function per language, its data in the catalogue; what it
    writes it reads back (input accepts the notation and the suit symbols)."""
    notation = notation_of(load_translations(lang))
    assert tuple(notation.rank(r) for r in ("A", "K", "Q", "J")) == RANKS[lang]
    assert notation.bid("7NT") != "7NT" and "7" in notation.bid("7NT")
    for code in ("AS", "KH", "QD", "JC", "10S", "4H"):
        assert notation.read(notation.card(code)) == code
        assert ENGLISH.read(ENGLISH.card(code)) == code
    for code in ("6S", "8C", "10NT", "7NT"):
        assert notation.read(notation.bid(code)) == code
    assert notation.read("JH") == "JH"  # a code stays a code


def test_dutch_notation_is_unambiguous_only_with_a_symbol() -> None:
    """H is a Dutch king and the code of hearts: ``H♠`` is the king of spades, ``HS`` no card
    of the notation (the grammar reads it as a code, and refuses it)."""
    dutch = Notation((("A", "A"), ("K", "H"), ("Q", "V"), ("J", "B")), "%(level)s SA")
    assert dutch.read("H♠") == "KS"
    assert dutch.read("HS") == "HS"
    assert dutch.words("discard B♥ 10♦") == "discard JH 10D"
    assert dutch.words("7 SA") == "7NT"


@cache
def _catalog(lang: str) -> object:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_glossary(lang: str) -> None:
    """issue 21, §3: one term per thing. Every glossary entry is translated; where the English
    book of a variant uses the English term, that variant's book uses the language's term; no
    book uses a word the glossary says to avoid."""
    glossary = entries(_catalog(lang))
    assert [e.english for e in glossary] == list(GLOSSARY)
    written = norm(_catalog(lang))
    problems = []
    for path in book_files(lang, "md"):
        english = running_text(DOCS / "en" / path.name).casefold()
        text = running_text(path).casefold()
        for entry in glossary:
            if entry.english.casefold() in english and not entry.used_in(text):
                problems.append(f"{path.name}: {entry.english!r} but never {entry.term!r}")
            for word in entry.avoided(text):
                problems.append(f"{path.name}: {word!r} (the glossary says {entry.term!r})")
        if written is not None:
            for word in written.avoided(text):
                problems.append(f"{path.name}: {word!r} (not {written.term})")
    assert not problems, "\n".join(problems[:20])


#: English words that name another thing in some messages: a side suit is a suit other than
#: trumps, not a side; "the American game", "the three-handed game", "T's game" are the card
#: game itself (its rules), and so is a game record (of one deal), not the whole game played
#: to the target; a suit contract is a trump contract, and following suit (or being void of
#: the suit led) is a verb of its own in most languages (bekennen, renonce).
_OTHER_SENSE = {
    "side": re.compile(r"\bside suits?\b"),
    "game": re.compile(
        r"\b(?:american|australian|card|partnership|standard|original|\w+-handed|\w+-card|3v3|"
        r"six-player|\w+'s)(?:\s+(?:partnership|[\w-]+-handed|3v3))?\s+games?\b|\bgame records?\b"
    ),
    "suit": re.compile(
        r"\bfollow(?:s|ed|ing)? suit\b|\bsuit (?:or [\w-]+ )?contracts?\b|\bvoid of the suit led\b"
    ),
}
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


def _uses(term: str, english: str) -> bool:
    """Whether ``english`` (case-folded, placeholders dropped) uses ``term`` as a word, in any
    inflection (``tricks``, ``follows suit``, ``contractor's``), in the term's sense."""
    sense = _OTHER_SENSE.get(term)
    english = sense.sub(" ", english) if sense else english
    inflected = r"\s+".join(re.escape(w) + r"(?:s|es|ed|ing)?" for w in term.casefold().split())
    return re.search(rf"(?<![\w-]){inflected}(?![\w-])", english) is not None


def _translated(lang: str) -> list[tuple[str, list[str], list[str]]]:
    """Every translated message of the catalogue but the glossary's own: its location, its
    English (the msgid and its plural) and its forms, case-folded and without placeholders."""
    out = []
    catalog: Catalog = _catalog(lang)  # type: ignore[assignment]
    for message in catalog:
        if not message.id or message.context == "glossary" or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        forms = [str(f) for f in strings if f]
        if len(forms) < len(strings):
            continue
        out.append(
            (
                f"fivehundred.po:{message.lineno}",
                [_PLACEHOLDER.sub(" ", i).casefold() for i in ids],
                [_PLACEHOLDER.sub(" ", f).casefold() for f in forms],
            )
        )
    return out


def _message_problems(lang: str, glossary: list[Entry], written: Entry | None) -> list[str]:
    """What :func:`test_glossary_in_every_message` finds, one line per message and word."""
    problems = []
    for where, english, forms in _translated(lang):
        for entry in glossary:
            for form in forms:
                for word in entry.avoided(form):
                    problems.append(f"{where}: {word!r} (the glossary says {entry.term!r})")
            used = [_uses(entry.english, text) for text in english]
            # a plural's English may use the term in one number only (the plural's "the
            # contractor" beside the singular's "the only player"): then some form does
            found = [entry.used_in(form) for form in forms]
            if any(used) and not (all(found) if all(used) else any(found)):
                problems.append(f"{where}: {entry.english!r} but not {entry.term!r}")
        if written is not None:
            for form in forms:
                for word in written.avoided(form):
                    problems.append(f"{where}: {word!r} (not {written.term})")
    return list(dict.fromkeys(problems))


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_in_every_message(lang: str) -> None:
    """issue 21, §3, beyond the books: every message a person reads (the table in the browser,
    play at the terminal, the engine's messages, the bots' reasons and the books alike) says
    one thing one way. Where a message's English uses a glossary term as a word (any
    inflection; "side suits" are no side, "the American game" is no whole game), each form
    of its translation uses the language's term; no form uses a word the glossary says to
    avoid, nor a form of another norm than the language's (``NORM``)."""
    catalog = _catalog(lang)
    problems = _message_problems(lang, entries(catalog), norm(catalog))
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_names_its_words_to_avoid(lang: str) -> None:
    """The words to avoid are the check's teeth: a merge that drops the catalogue's translator
    comments (as one did) would leave the glossary tests passing on nothing. Every language
    names its norm and some words to avoid, each of which reads as a pattern."""
    catalog = _catalog(lang)
    written = norm(catalog)
    assert written is not None and written.term
    words = [w for entry in [*entries(catalog), written] for w in entry.avoid]
    assert words
    for word in words:
        assert word.strip("*") and "," not in word, word
        assert avoid_pattern(word).search(word.strip("*").casefold()), word


def test_words_to_avoid_match_as_the_glossary_says() -> None:
    """A word to avoid is a whole word (or phrase, however spaced) unless a ``*`` stands for
    an ending or a beginning: ``num`` is not in ``número``, ``kitty*`` is in ``kittyen``."""
    entry = Entry("x", "y", ("num", "kitty*", "*مباراة", "et giv", "vundne kontrakt*"))
    assert entry.avoided("o número") == []
    assert entry.avoided("Num instante") == ["num"]
    assert entry.avoided("ta kittyen") == ["kitty*"]
    assert entry.avoided("كيف تنتهي المباراة") == ["*مباراة"]
    assert entry.avoided("i et\u00a0giv, i hvert givet") == ["et giv"]
    assert entry.avoided("ett givet") == []
    assert entry.avoided("Vundne  kontrakter") == ["vundne kontrakt*"]
    marked = Entry("contractor", "صاحب العقد", ("*الباور",), ("أصحاب العقود",))
    assert marked.used_in("يصبح صاحبَ العقد") and marked.used_in("أصحاب العقود")
    assert marked.avoided("والباورُ") == ["*الباور"]


def test_a_long_list_of_words_to_avoid_survives_the_catalogue_s_wrapping() -> None:
    """The catalogue writer wraps a long translator comment onto several ``#`` lines, each
    read back as a comment of its own: the list goes on across them, phrases included."""
    words = [f"palavra{n} a" for n in range(12)] + ["num"]
    catalog = Catalog(locale="pt")
    catalog.add("norm", "pt-BR", context="glossary", user_comments=["avoid: " + ", ".join(words)])
    catalog.add("side", "equipe", context="glossary", user_comments=["forms: equipes"])
    data = _po_bytes(catalog)
    assert data.count(b"\n# ") > 1  # wrapped
    read = read_po(io.BytesIO(data), locale="pt")
    written = norm(read)
    assert written is not None and written.avoid == tuple(words)
    side = [e for e in entries(read) if e.english == "side"]
    assert side == [Entry("side", "equipe", (), ("equipes",))]


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_real_minus_signs_and_locale_percent(lang: str) -> None:
    """issue 21, §3: negative figures with U+2212; the percent sign spaced as the locale
    does (a no-break space in Norwegian and Danish), the same everywhere in the book."""
    spaced = lang in ("nb", "da")
    for path in book_files(lang, "md"):
        text = running_text(path)
        assert not re.search(r"(?<![\w-])-\d", text), path.name
        figures = re.findall(r"\d,?\d*(\u00a0?)%", text)
        assert figures, path.name
        assert all(bool(space) == spaced for space in figures), path.name


def test_statistics_fit_the_variant() -> None:
    """issue 21, §2: whole sentences about who played; "player" where sides are single
    players; no misère words in a book without misère."""
    three = running_text(DOCS / "en" / "three-handed.md")
    assert "computer player" in three and "heuristic" not in three
    assert "The first dealer wins" in three and "side of the first dealer" not in three
    assert "A player reached the target" in three and "A side reached the target" not in three
    australian = running_text(DOCS / "en" / "australian.md")
    assert "The side of the first dealer wins" in australian
    assert "(misères by bid)" in australian
    for path in book_files("en", "md"):
        text = running_text(path)
        if "misère" not in text.split("## How this variant plays")[0].casefold():
            assert "misère" not in text.casefold(), path.name
        assert "--write" not in text and "the build only reads" not in text, path.name
