"""Translations: one gettext template, one PO catalogue per language (``fivehundred i18n``).

The catalogues live where translators and their tools expect them::

    specs/locales/messages.pot                      the template (extracted, never edited)
    specs/locales/<ll>/LC_MESSAGES/fivehundred.po   one per language (edited with Poedit, Weblate…)

:func:`extract_catalog` collects every message, with ``file:line`` locations, from

- the rule-book templates (``generator/templates/*.j2``; Jinja's i18n extension: ``_()``,
  ``ngettext()``, ``pgettext()``, ``{% trans %}``), with ``Translators:`` comments;
- the engine (``runtime/*.py``; strings marked with ``N_()``, such as the illegal-move reasons);
- the rule-author text of every built-in rule file (``name``, ``summary``, ``sources``,
  ``choices[].text`` and ``choices[].source``, whitespace runs folded into single spaces) and
  the differences of every house variant from its base (``Ruleset.differences``).

:func:`write_pot` writes the template and :func:`update_catalogues` merges it into the
catalogues (creating a missing one with the right headers, ``Plural-Forms`` included), the way
``msgmerge`` does: a changed message becomes fuzzy (with the translation of its nearest old
message, :mod:`.pomerge`, in time linear in the catalogue), a removed one obsolete; each file
is written atomically (a full disk or Ctrl-C leaves the translator's file as it was).
:func:`coverage` counts what is translated; a fuzzy message or one with any empty form is not.
:func:`load_translations` compiles a catalogue in memory (no ``.mo`` files are committed).
Output is deterministic: a file is rewritten only when its messages change.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gettext
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract as babel_extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileParser, write_po
from babel.support import Translations

from ..runtime.engine.errors import FiveHundredError
from ..runtime.engine.notation import RTL_LANGUAGES
from ..runtime.files import write_output
from ..runtime.terminal import printable
from .clauses import CLAUSE_IDS
from .pipeline import SPECS_DIR, VARIANTS_DIR
from .pluralforms import MAX_PLURALS, PluralForms, PluralFormsError
from .pluralforms import parse as parse_plural_forms
from .pomerge import merge_template

__all__ = [
    "DOMAIN",
    "LANGUAGE_NAMES",
    "LOCALES_DIR",
    "PLURAL_FORMS",
    "POT_FILE",
    "CatalogueError",
    "Coverage",
    "Gap",
    "TranslationError",
    "catalogue_problems",
    "coverage",
    "extract_catalog",
    "gaps",
    "language_name",
    "languages",
    "load_translations",
    "message_problems",
    "normalise",
    "placeholders",
    "po_path",
    "text_direction",
    "update_catalogues",
    "write_pot",
]

DOMAIN = "fivehundred"
PROJECT = "fivehundred"
VERSION = "1"
BUGS_ADDRESS = "dev@fivehundred.invalid"
LOCALES_DIR = SPECS_DIR / "locales"
POT_FILE = LOCALES_DIR / "messages.pot"
#: The folder the locations in the template are relative to (the checkout's root).
ROOT = SPECS_DIR.parent
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"
WIDTH = 79  # the line width of msgmerge, Poedit and Weblate: saving a file changes no wrapping

#: The languages of the project, in the order the rule books list them (English is the source).
PREFERRED_ORDER: tuple[str, ...] = ("en", "nl", "nb", "da", "ar", "pt")
#: Every language's name in that language (a new language falls back to Babel's CLDR data).
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "nb": "Norsk bokmål",
    "da": "Dansk",
    "ar": "العربية",
    "pt": "Português",
}
#: gettext's Plural-Forms of the project's languages (a new language starts from CLDR's rule).
PLURAL_FORMS: dict[str, str] = {
    "nl": "nplurals=2; plural=(n != 1);",
    "nb": "nplurals=2; plural=(n != 1);",
    "da": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",
    "ar": (
        "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
        "n%100>=11 ? 4 : 5);"
    ),
}
_RTL = RTL_LANGUAGES  # one list, the engine's: its messages isolate cards in these too

#: How Jinja templates are read: the same options as docs.make_environment.
JINJA_OPTIONS = {
    "extensions": "jinja2.ext.i18n",
    "trim_blocks": "true",
    "lstrip_blocks": "true",
    "newstyle_gettext": "true",
    "silent": "false",
}
COMMENT_TAGS = ("Translators:",)
#: The engine marks its messages with N_() (and NP_(context, message): the notation).
PYTHON_KEYWORDS: dict[str, Any] = {"N_": None, "NP_": ((1, "c"), 2)}
#: Rule-author text that the rule book prints and translators translate, by key path.
AUTHOR_KEYS: tuple[tuple[str, ...], ...] = (("name",), ("summary",))
#: Source letters (README, "Variants"); the rule book explains each in a sentence of its own.
SOURCE_LETTERS = frozenset({"G", "T", "P"})

_ENGLISH = gettext.NullTranslations()
_LANG_CODE = re.compile(r"^[a-z]{2,3}(_[A-Z]{2}|_[A-Z][a-z]{3})?$")
_GENERATED_BY = re.compile(rb'^"Generated-By: [^"\n]*"\n', re.M)
_CREATION = re.compile(rb'^"POT-Creation-Date: [^"\n]*"\n', re.M)


class TranslationError(FiveHundredError):
    """A language without a catalogue, or a catalogue that cannot be read."""


class CatalogueError(TranslationError):
    """A catalogue whose translations cannot be used (a broken or unknown placeholder...).

    ``problems`` are ``file.po:line: message`` lines; the message is all of them, one a line.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("\n".join(self.problems))


# -- languages ---------------------------------------------------------------------------------


def po_path(lang: str, locales: Path | None = None) -> Path:
    """Where the catalogue of ``lang`` lives."""
    return (locales or LOCALES_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(locales: Path | None = None) -> list[str]:
    """English and every language with a catalogue, in the rule books' order."""
    base = locales or LOCALES_DIR
    found = sorted(p.parent.parent.name for p in base.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return sorted({"en", *found}, key=lambda c: (c not in PREFERRED_ORDER, _order(c), c))


def _order(code: str) -> int:
    return PREFERRED_ORDER.index(code) if code in PREFERRED_ORDER else len(PREFERRED_ORDER)


def language_name(lang: str) -> str:
    """The language's name in itself (``nb`` -> ``Norsk bokmål``)."""
    if lang in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[lang]
    try:
        name = Locale.parse(lang).get_display_name(lang) or lang
    except (ValueError, UnknownLocaleError):
        return lang
    return name[:1].upper() + name[1:]


def text_direction(lang: str) -> str:
    """``rtl`` for a right-to-left language, else ``ltr``."""
    base = lang.split("_")[0]
    if base in _RTL:
        return "rtl"
    try:
        order = Locale.parse(lang).character_order
    except (ValueError, UnknownLocaleError):
        return "ltr"
    return "rtl" if order == "right-to-left" else "ltr"


def normalise(text: object) -> str:
    """Author text as a msgid: whitespace runs (newlines included) folded into one space."""
    return " ".join(str(text).split())


# -- extraction --------------------------------------------------------------------------------


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _add(
    catalog: Catalog,
    message: str | tuple[str, ...],
    location: tuple[str, int],
    comments: Iterable[str] = (),
    context: str | None = None,
) -> None:
    # Control and bidi-override characters never reach a catalogue (a raw NUL or ESC makes
    # grep and other tools take the PO file for binary): they are written as escapes.
    message = (
        tuple(printable(m) for m in message) if isinstance(message, tuple) else printable(message)
    )
    comments = [printable(c) for c in comments]
    key: Any = message[0] if isinstance(message, tuple) else message
    existing = catalog.get(key, context)
    if existing is not None:
        if location not in existing.locations:
            existing.locations.append(location)
        for comment in comments:
            if comment not in existing.auto_comments:
                existing.auto_comments.append(comment)
        return
    catalog.add(message, None, [location], auto_comments=list(comments), context=context)


def _extract_file(catalog: Catalog, path: Path, method: str) -> None:
    if method == "jinja2":
        from jinja2.ext import babel_extract as jinja_extract

        func: Any = jinja_extract
        keywords: Any = {
            "_": None,
            "gettext": None,
            "ngettext": (1, 2),
            "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3),
        }
        options: dict[str, str] = JINJA_OPTIONS
    else:
        func, keywords, options = "python", PYTHON_KEYWORDS, {}
    with path.open("rb") as handle:
        for lineno, message, comments, context in babel_extract(
            func, handle, keywords, list(COMMENT_TAGS), options, strip_comment_tags=False
        ):
            _add(catalog, message, (_rel(path), lineno), comments, context)


def _extract_rule_files(catalog: Catalog, files: Sequence[Path]) -> None:
    from .pipeline import compile_spec
    from .yamlload import load_yaml

    for path in files:
        data, marks = load_yaml(path.read_bytes(), str(path))
        variant = str(data.get("id", path.stem))
        where = _rel(path)
        for key in AUTHOR_KEYS:
            value = data.get(key[0])
            if isinstance(value, str) and normalise(value):
                comment = f"rule-author text: the {key[0]} of a variant"
                _add(catalog, normalise(value), (where, marks.value(key)[0]), [comment])
        for i, source in enumerate(data.get("sources") or []):
            # The letters G, T and P have sentences of their own in the book; any other source
            # is the author's description of it.
            if isinstance(source, str) and normalise(source) and source not in SOURCE_LETTERS:
                comment = "rule-author text: a source a variant follows"
                _add(catalog, normalise(source), (where, marks.value(("sources", i))[0]), [comment])
        choices = data.get("choices") or []
        at: tuple[str, ...] = ("choices",)
        if isinstance(choices, dict):  # `choices: {replace: [...]}` in a house file
            choices, at = choices.get("replace") or [], ("choices", "replace")
        for i, choice in enumerate(choices if isinstance(choices, list) else []):
            text = choice.get("text") if isinstance(choice, dict) else None
            if isinstance(text, str) and normalise(text):
                comment = f"rule-author text: a choice about the rule {choice.get('clause')}"
                line = marks.value((*at, i, "text"))[0]
                _add(catalog, normalise(text), (where, line), [comment])
            source = choice.get("source") if isinstance(choice, dict) else None
            if isinstance(source, str) and normalise(source) and source not in SOURCE_LETTERS:
                comment = "rule-author text: the source of a choice"
                line = marks.value((*at, i, "source"))[0]
                _add(catalog, normalise(source), (where, line), [comment])
        if data.get("extends"):
            # differences are clause ids (the book shows those clauses' sentences); any other
            # entry is an English sentence to translate
            rs = compile_spec(path, builtin=True)
            line = marks.key(("extends",))[0]
            for difference in rs.differences:
                if difference not in CLAUSE_IDS and normalise(difference):
                    comment = f"how the variant {variant} differs from its base"
                    _add(catalog, normalise(difference), (where, line), [comment])


#: The generator's modules whose rule-file diagnostics are translatable (marked with N_()).
DIAGNOSTIC_MODULES = ("yamlload", "resolve", "schemacheck", "semantic", "pipeline")


def source_files() -> dict[str, list[Path]]:
    """The files messages are extracted from, by kind (``jinja2``, ``python``, ``yaml``)."""
    templates = sorted(p for p in TEMPLATE_DIR.glob("*.j2") if not p.name.endswith(".py.j2"))
    # clauses.j2 first: it holds the sentences; the book templates only structure
    templates.sort(key=lambda p: (p.name != "clauses.j2", p.name))
    return {
        "jinja2": templates,
        "python": [
            *sorted(p for p in RUNTIME_DIR.rglob("*.py") if "_pkg" not in p.parts),
            Path(__file__).resolve().parent / "glossary.py",
            # the diagnostics of a rule file, shown to its author in the author's language
            *(Path(__file__).resolve().parent / f"{name}.py" for name in DIAGNOSTIC_MODULES),
        ],
        "yaml": sorted(VARIANTS_DIR.rglob("*.yaml")),
    }


def extract_catalog() -> Catalog:
    """Every translatable message of the project, with locations and translator comments."""
    catalog = _new_catalog(None)
    files = source_files()
    for path in files["jinja2"]:
        _extract_file(catalog, path, "jinja2")
    for path in files["python"]:
        _extract_file(catalog, path, "python")
    _extract_rule_files(catalog, files["yaml"])
    return catalog


_HEADER_COMMENT = """\
# Five Hundred: rule books and engine messages ({lang}).
# Copyright (C) the fivehundred authors.
# This file is distributed under the same license as the fivehundred project.
# messages.pot is generated: run `fivehundred i18n extract`.
# Edit the .po files with any PO editor (Poedit, Weblate, Lokalize...),
# then run `fivehundred i18n status`; README.md, "For translators".
#"""


def _new_catalog(lang: str | None) -> Catalog:
    catalog = Catalog(
        locale=lang,
        domain=DOMAIN,
        header_comment=_HEADER_COMMENT.format(lang=language_name(lang) if lang else "template"),
        project=PROJECT,
        version=VERSION,
        msgid_bugs_address=BUGS_ADDRESS,
        creation_date=_dt.datetime(2026, 1, 1, tzinfo=_dt.UTC),
        revision_date=_dt.datetime(2026, 1, 1, tzinfo=_dt.UTC),
        last_translator="fivehundred translators <translators@fivehundred.invalid>",
        language_team=(
            f"{_english_name(lang)} <translators@fivehundred.invalid>" if lang else "none"
        ),
        charset="utf-8",
        fuzzy=False,
    )
    if lang is not None:
        catalog.mime_headers = [("Plural-Forms", default_plural_forms(lang))]
    return catalog


def _english_name(lang: str) -> str:
    try:
        return Locale.parse(lang).get_display_name("en") or lang
    except (ValueError, UnknownLocaleError):
        return lang


def default_plural_forms(lang: str) -> str:
    """The Plural-Forms header a new catalogue of ``lang`` starts with."""
    if lang in PLURAL_FORMS:
        return PLURAL_FORMS[lang]
    try:
        return Catalog(locale=lang).plural_forms
    except (ValueError, UnknownLocaleError):
        return "nplurals=2; plural=(n != 1);"


#: Sources whose messages are located by file only, as xgettext's ``--add-location=file``.
_CODE_SUFFIXES = (".py", ".j2")


def _file_only_locations(catalog: Catalog) -> None:
    """Drop the line numbers of code and template locations (in place), keep the rule files'.

    A line number in code moves with every edit above it: a template that changed with each
    code change could not be held current by a test (``tests/test_i18n.py`` checks that it
    is), and every catalogue would churn with it. A rule file's line points a translator at
    the author's sentence in its context, and moves only when that file changes.
    """
    for message in catalog:
        if not message.id:
            continue
        seen: set[tuple[str, int | None]] = set()
        kept: list[tuple[str, int | None]] = []
        for filename, lineno in message.locations:
            where = (filename, None if filename.endswith(_CODE_SUFFIXES) else lineno)
            if where not in seen:
                seen.add(where)
                kept.append(where)
        message.locations = kept  # type: ignore[assignment]  # Babel writes a None line as none


def _tidy(catalog: Catalog, lang: str) -> None:
    """The header comment as a new catalogue has it (an editor or an old writer wrapped it
    line by line), and no old previous-text mark among a message's translator comments: a
    ``#| msgid`` written once, read back by Babel as a comment and wrapped word by word into
    lines such as ``# | they " "take`` and ``# the``. A message with such a line keeps only its
    glossary comments (``avoid:``, ``forms:``), the only translator comments the catalogues
    hold."""
    catalog.header_comment = _HEADER_COMMENT.format(lang=language_name(lang))
    for message in catalog:
        comments = message.user_comments
        if message.id and any(c.lstrip().startswith("|") for c in comments):
            message.user_comments = [
                c for c in comments if c.lstrip().startswith(("avoid:", "forms:"))
            ]


def _po_bytes(catalog: Catalog) -> bytes:
    # No "#| msgid" previous-text comments: Babel reads them back as translator comments and
    # wraps multi-line ones into invalid syntax, so a file could not round-trip.
    _file_only_locations(catalog)
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=WIDTH,
        omit_header=False,
        ignore_obsolete=False,
        include_previous=False,
    )
    return _GENERATED_BY.sub(b"", buffer.getvalue())


def _with_creation(data: bytes, previous: bytes | None) -> bytes:
    """``data`` with the POT-Creation-Date of ``previous`` when nothing else differs."""
    if previous is None:
        return data
    old = _CREATION.search(previous)
    if old is None:
        return data
    same = _CREATION.sub(old.group(0).replace(b"\\", b"\\\\"), data, count=1)
    return same if same == previous else data


def write_pot(check: bool = False, path: Path | None = None) -> bool:
    """Extract into ``messages.pot``; return True when it changed (with ``check``: would)."""
    path = path or POT_FILE
    catalog = extract_catalog()
    catalog.creation_date = _dt.datetime.now(_dt.UTC).replace(second=0, microsecond=0)
    previous = path.read_bytes() if path.is_file() else None
    data = _with_creation(_po_bytes(catalog), previous)
    if data == previous:
        return False
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_output(str(path), data)
    return True


class _CheckedCatalog(Catalog):
    """A catalogue whose ``nplurals`` is checked whenever Babel reads it. Babel's parser makes a
    list of ``nplurals`` forms for every plural message, so a header's ``nplurals=99999999999``
    took all the machine's memory before any check of ours could run."""

    @property
    def num_plurals(self) -> int:
        """``nplurals`` of the header (or the locale's), if it is from 1 to MAX_PLURALS."""
        n: int = super().num_plurals
        if not 1 <= n <= MAX_PLURALS:
            raise PluralFormsError(f"nplurals={str(n)[:10]} is not from 1 to {MAX_PLURALS}")
        return n


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    """Read a PO or POT file; :class:`TranslationError` when it cannot be parsed (Babel's
    ``read_po``, with ``nplurals`` checked before Babel acts on it)."""
    try:
        with path.open("rb") as handle:
            catalog = _CheckedCatalog(locale=lang, domain=DOMAIN)
            PoFileParser(catalog, ignore_obsolete=False, abort_invalid=True).parse(handle)
            return catalog
    except OSError as exc:
        raise TranslationError(f"{path}: cannot read: {exc.strerror}") from None
    except Exception as exc:  # babel raises PoFileError and friends
        line, header = _plural_header(path)
        if header is not None:  # Babel trusts nplurals: a bad header is the likely cause
            try:
                parse_plural_forms(header)
            except PluralFormsError as bad:
                raise CatalogueError([f"{_rel(path)}:{line}: Plural-Forms: {bad}"]) from None
        raise TranslationError(f"{path}: not a valid PO file: {exc}") from None


def update_catalogues(
    langs: Sequence[str] | None = None, locales: Path | None = None, pot: Path | None = None
) -> list[tuple[str, str]]:
    """Merge the template into the catalogues of ``langs`` (default: every existing one).

    A language without a catalogue gets a new one. Returns ``(lang, what)`` pairs, ``what`` one
    of ``created``, ``updated``, ``unchanged``.
    """
    locales = locales or LOCALES_DIR
    template = read_catalog(pot or POT_FILE)
    todo = list(langs) if langs else [lang for lang in languages(locales) if lang != "en"]
    done = []
    for lang in todo:
        if not _LANG_CODE.match(lang) or lang == "en":
            raise TranslationError(
                f"{lang!r} is not a language code to translate into (like nl, pt_BR, sr_Latn)"
            )
        path = po_path(lang, locales)
        previous = path.read_bytes() if path.is_file() else None
        catalog = read_catalog(path, lang) if previous is not None else _new_catalog(lang)
        if previous is not None and catalog._num_plurals is None:  # no Plural-Forms header
            catalog.mime_headers = [("Plural-Forms", default_plural_forms(lang))]
        merge_template(catalog, template)
        _tidy(catalog, lang)
        data = _with_creation(_po_bytes(catalog), previous)
        if data == previous:
            done.append((lang, "unchanged"))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_output(str(path), data)  # atomic: a full disk leaves the translator's file whole
        done.append((lang, "created" if previous is None else "updated"))
    return done


# -- coverage ----------------------------------------------------------------------------------


def message_key(message: Message) -> tuple[str | None, str]:
    """A message's identity: its context and (singular) msgid."""
    msgid = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
    return message.context, str(msgid)


def forms(message: Message) -> list[str]:
    """The translated forms of a message (one, or one per plural form)."""
    if isinstance(message.string, (tuple, list)):
        return [str(s or "") for s in message.string]
    return [str(message.string or "")]


def is_translated(message: Message, nplurals: int) -> bool:
    """Not fuzzy, and every form present and non-empty."""
    if message.fuzzy:
        return False
    texts = forms(message)
    if isinstance(message.id, (tuple, list)) and len(texts) != nplurals:
        return False
    return all(texts)


@dataclass(frozen=True)
class Coverage:
    """How much of the template one catalogue translates."""

    lang: str
    total: int
    translated: int
    fuzzy: int
    untranslated: int
    missing: int  # in the template but not in the catalogue: run `fivehundred i18n update`

    @property
    def percent(self) -> float:
        """Translated messages as a percentage of the template's."""
        return 100.0 * self.translated / self.total if self.total else 100.0


def coverage(
    langs: Sequence[str] | None = None, locales: Path | None = None, pot: Path | None = None
) -> list[Coverage]:
    """The coverage of each catalogue, counted against the template."""
    locales = locales or LOCALES_DIR
    template = read_catalog(pot or POT_FILE)
    wanted = [message_key(m) for m in template if m.id]
    out = []
    known = languages(locales)
    for lang in langs or [lang for lang in known if lang != "en"]:
        if lang not in known or lang == "en":  # never a path made of what was typed
            names = ", ".join(k for k in known if k != "en")
            raise TranslationError(f"no catalogue for language {lang!r} (languages: {names})")
        catalog = read_catalog(po_path(lang, locales), lang)
        have = {message_key(m): m for m in catalog if m.id}
        translated = fuzzy = untranslated = missing = 0
        for key in wanted:
            message = have.get(key)
            if message is None:
                missing += 1
            elif is_translated(message, catalog.num_plurals):
                translated += 1
            elif message.fuzzy:
                fuzzy += 1
            else:
                untranslated += 1
        out.append(Coverage(lang, len(wanted), translated, fuzzy, untranslated, missing))
    return out


@dataclass(frozen=True)
class Gap:
    """A message a book or the engine needs that a catalogue does not translate (yet)."""

    context: str | None
    msgid: str
    #: ``untranslated`` (empty, or a plural form empty), ``fuzzy``, or ``missing`` (not in the
    #: catalogue at all: run ``fivehundred i18n update``; or author text of a rule file that is
    #: not built in)
    state: str
    #: The catalogue, as shown to the user, and the line of the message in it (None when
    #: missing).
    file: str
    line: int | None

    def __str__(self) -> str:
        """``file.po:line: state: 'msgid'``, as compilers and editors show a position."""
        context = f" (context {self.context!r})" if self.context else ""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.state}: {self.msgid!r}{context}"


class _Translated:
    """A catalogue as ``write_mo`` reads it (its header, then its messages: it iterates and
    asks for the charset) without the messages it does not translate, which therefore show in
    English; the catalogue itself, shared by the checks, is left as it is."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.charset = catalog.charset

    def __iter__(self) -> Iterator[Message]:
        messages = iter(self.catalog)
        yield next(messages)  # the header
        for message in messages:
            if not message.id or is_translated(message, self.catalog.num_plurals):
                yield message


@lru_cache(maxsize=32)
def _parsed(path: Path, lang: str, mtime_ns: int) -> Catalog:
    """A catalogue as read at ``mtime_ns``, shared by the checks that only look at it (never
    changed: parsing a catalogue is the slow part of loading it)."""
    return read_catalog(path, lang)


@lru_cache(maxsize=32)
def _states(
    path: Path, lang: str, mtime_ns: int
) -> dict[tuple[str | None, str], tuple[str, int | None]]:
    catalog = _parsed(path, lang, mtime_ns)
    out: dict[tuple[str | None, str], tuple[str, int | None]] = {}
    for message in catalog:
        if not message.id:
            continue
        if is_translated(message, catalog.num_plurals):
            state = "translated"
        else:
            state = "fuzzy" if message.fuzzy else "untranslated"
        out[message_key(message)] = (state, message.lineno)
    return out


def gaps(
    lang: str,
    keys: Iterable[tuple[str | None, str]] | None = None,
    locales: Path | None = None,
    pot: Path | None = None,
) -> list[Gap]:
    """The messages among ``keys`` (``(context, msgid)`` pairs; default: every message of the
    template) that ``lang`` does not translate, in catalogue order (missing ones last).

    English has no gaps. A fuzzy message or one with an empty form is shown in English.
    """
    if lang == "en":
        return []
    path = po_path(lang, locales)
    if not path.is_file():
        raise TranslationError(f"no catalogue for language {lang!r}")
    states = _states(path, lang, path.stat().st_mtime_ns)
    if keys is None:
        template = read_catalog(pot or POT_FILE)
        keys = [message_key(m) for m in template if m.id]
    out = []
    for context, msgid in dict.fromkeys(keys):
        state, line = states.get((context, msgid), ("missing", 0))
        if state != "translated":
            out.append(Gap(context, msgid, state, _rel(path), line or None))
    out.sort(key=lambda g: (g.line is None, g.line or 0))
    return out


# -- checks ------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"%(?:\(([^)]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?([a-zA-Z%])?")
#: Plural counters a translation may leave out (a form for exactly one, two...).
COUNTERS = frozenset({"count", "num"})
_NON_LATIN_DIGITS = re.compile("[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f]")


#: A %-conversion without a name (``%s``, ``%d``, ``%5.1f``): never one of ours.
_POSITIONAL = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]")


def placeholders(text: str) -> list[str]:
    """The named placeholders of a message (``%(name)s``), in order; ``%%`` is not one."""
    return [m.group(1) for m in _PLACEHOLDER.finditer(text) if m.group(2) != "%" and m.group(1)]


def _conversions(text: str) -> dict[str, str]:
    """Each named placeholder's conversion letter (``%(count)s`` -> ``{"count": "s"}``)."""
    return {
        m.group(1): m.group(2) or ""
        for m in _PLACEHOLDER.finditer(text)
        if m.group(1) and m.group(2) != "%"
    }


def _formatted(message: Message) -> bool:
    """Whether the message is ever %-formatted: a template message always is (Jinja's
    new-style gettext), an engine message when it has placeholders, author text never."""
    msgids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
    if any(placeholders(str(m)) or "%%" in str(m) for m in msgids):
        return True
    return any(str(f).endswith(".j2") for f, _ in message.locations)


def message_problems(message: Message, nplurals: int, where: str = "") -> list[str]:
    """What is wrong with one translated message: broken, missing or extra placeholders, the
    wrong number of plural forms, digits other than 0-9. Untranslated forms are not checked."""
    msgids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
    wanted = [set(placeholders(str(m))) for m in msgids]
    known = set().union(*wanted)
    plural = len(msgids) > 1
    texts = forms(message)
    label = f"{where}msgid {str(msgids[0])[:50]!r}"
    problems = []
    if plural and any(texts) and len(texts) != nplurals:
        problems.append(f"{label}: {len(texts)} plural forms, the header says {nplurals}")
    params = dict.fromkeys(known, 1)
    conversions: dict[str, str] = {}
    for m in msgids:
        conversions.update(_conversions(str(m)))
    for i, text in enumerate(texts):
        if not text:
            continue
        form = f"{label}, msgstr[{i}]" if plural else label
        names = set(placeholders(text))
        positional = _POSITIONAL.findall(text.replace("%%", ""))
        if positional and not any(_POSITIONAL.search(str(m).replace("%%", "")) for m in msgids):
            problems.append(
                f"{form}: positional placeholder(s) {sorted(set(positional))} that the English "
                "does not have (use the named ones, such as %(count)s)"
            )
            continue
        if names - known:
            problems.append(f"{form}: unknown placeholder(s) {sorted(names - known)}")
        elif _formatted(message):
            try:
                text % params
            except (KeyError, ValueError, TypeError) as exc:
                problems.append(f"{form}: broken placeholder ({type(exc).__name__}: {exc})")
                continue
        changed = sorted(
            f"%({name}){kind}"
            for name, kind in _conversions(text).items()
            if name in conversions and kind != conversions[name]
        )
        if changed:
            problems.append(
                f"{form}: placeholder(s) {', '.join(changed)} converted otherwise than in the "
                "English (keep the letter after the parenthesis)"
            )
        need = known - COUNTERS if plural else known
        if need - names:
            problems.append(f"{form}: missing placeholder(s) {sorted(need - names)}")
        if _NON_LATIN_DIGITS.search(text):
            problems.append(f"{form}: digits other than 0-9")
    return problems


def catalogue_problems(lang: str, locales: Path | None = None, *, fuzzy: bool = True) -> list[str]:
    """Every problem of the translated messages of ``lang``, each ``file.po:line: message``;
    with ``fuzzy=False`` only those of the messages the books and the engine use (a fuzzy
    message, or one with an empty form, is shown in English, so its stale placeholders harm
    nothing yet)."""
    path = po_path(lang, locales)
    return list(_problems(path, lang, path.stat().st_mtime_ns, fuzzy))


def plural_forms_of(path: Path, catalog: Catalog) -> PluralForms:
    """The checked ``Plural-Forms`` of a catalogue (:mod:`.pluralforms`: parsed, never run as
    code); :class:`CatalogueError` at the header's ``file.po:line`` when it cannot be used."""
    header = dict(catalog.mime_headers).get("Plural-Forms", "nplurals=2; plural=(n != 1);")
    try:
        return parse_plural_forms(str(header))
    except PluralFormsError as exc:
        line, _ = _plural_header(path)
        raise CatalogueError([f"{_rel(path)}:{line}: Plural-Forms: {exc}"]) from None


def _plural_header(path: Path) -> tuple[int, str | None]:
    """The line of the ``Plural-Forms`` header in a PO file, and its value as written (the
    quoted strings from that line up to the one that ends in ``\\n``); ``(1, None)`` if none."""
    with contextlib.suppress(OSError, UnicodeDecodeError), path.open(encoding="utf-8") as handle:
        found, parts = 0, []
        for number, text in enumerate(handle, 1):
            if number > 200:
                break
            text = text.strip()
            if not found and not text.startswith('"Plural-Forms:'):
                continue
            found = found or number
            if not (text.startswith('"') and text.endswith('"')):
                break
            parts.append(text[1:-1])
            if text.endswith('\\n"'):
                break
        if found:
            value = "".join(parts)[len("Plural-Forms:") :].removesuffix("\\n")
            return found, value.replace('\\"', '"').replace("\\\\", "\\").strip()
    return 1, None


@lru_cache(maxsize=32)
def _problems(path: Path, lang: str, mtime_ns: int, fuzzy: bool) -> tuple[str, ...]:
    catalog = _parsed(path, lang, mtime_ns)
    where = _rel(path)
    try:
        plural_forms_of(path, catalog)
    except CatalogueError as exc:
        return tuple(exc.problems)
    out = []
    for message in catalog:
        if message.id and (fuzzy or is_translated(message, catalog.num_plurals)):
            line = f"{where}:{message.lineno}: " if message.lineno else f"{where}: "
            out.extend(message_problems(message, catalog.num_plurals, line))
    return tuple(out)


# -- loading -----------------------------------------------------------------------------------


def load_translations(lang: str, locales: Path | None = None) -> gettext.NullTranslations:
    """The translations of ``lang``, compiled in memory from its PO file.

    English returns :class:`gettext.NullTranslations`. Fuzzy messages and messages with an empty
    form are left out, so they show in English rather than empty. A translated message with a
    broken, unknown or missing placeholder raises :class:`CatalogueError` (one
    ``file.po:line: message`` per problem): nothing is ever rendered from such a catalogue.
    """
    if lang == "en":
        return _ENGLISH
    path = po_path(lang, locales)
    if not path.is_file():
        known = ", ".join(languages(locales))
        raise TranslationError(f"no catalogue for language {lang!r} (languages: {known})")
    return _load(path, lang, path.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _load(path: Path, lang: str, mtime_ns: int) -> gettext.NullTranslations:
    problems = _problems(path, lang, mtime_ns, False)
    if problems:
        raise CatalogueError(problems)
    buffer = io.BytesIO()
    write_mo(buffer, _Translated(_parsed(path, lang, mtime_ns)), use_fuzzy=False)  # type: ignore[arg-type]
    buffer.seek(0)
    translations = Translations(buffer, domain=DOMAIN)
    # gettext compiled the header into Python; the forms are chosen by the checked tree instead
    translations.plural = plural_forms_of(path, _parsed(path, lang, mtime_ns))
    return translations
