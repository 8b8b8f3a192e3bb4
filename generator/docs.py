"""The rule book: a variant's rules as GitHub-flavoured Markdown or one HTML page, with Jinja2.

:func:`render_markdown` renders ``templates/rulebook.md.j2`` and :func:`render_html`
``templates/rulebook.html.j2``; both import every sentence from ``templates/clauses.j2``, each a
whole gettext message (``_()``, ``ngettext()``, ``pgettext()`` or a ``{% trans trimmed %}`` block
with named placeholders), so the two formats share their messages and ``fivehundred i18n
extract`` finds them all. This module only prepares data (tables, card codes, the clauses of each
section) and the filters that decide markup and escaping per format; it never builds sentences.

Rule-author text (name, summary, choice texts) is translated through the catalogue (its msgid is
the text with whitespace folded) and then escaped: in Markdown by :func:`md_text`, which escapes
every character that Markdown or HTML would interpret, in HTML by autoescaping, so author text
can neither inject HTML nor break the layout. In HTML translations are escaped too.

Strictness: a clause id the rule book has no text for, an option value without a sentence, or a
term outside the known pairs raises :class:`RuleBookError`, so a new rule never vanishes silently.
"""

from __future__ import annotations

import gettext
import re
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, MutableMapping, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from types import CodeType, FunctionType
from typing import Any, NoReturn

import jinja2
from markupsafe import Markup, escape

from ..runtime.engine.codes import SUIT_SYMBOLS, SUITS
from ..runtime.engine.errors import FiveHundredError
from ..runtime.engine.notation import ENGLISH as ENGLISH_NOTATION
from ..runtime.engine.notation import Notation, read_notation
from ..runtime.engine.tableformat import Clause, JokerCode, RankCode
from ..runtime.terminal import UNSAFE
from .balancebook import book_context
from .clauses import CLAUSE_IDS
from .i18n import (
    SOURCE_LETTERS,
    Gap,
    gaps,
    language_name,
    load_translations,
    normalise,
    text_direction,
)
from .model import Ruleset
from .pipeline import VARIANTS_DIR

__all__ = [
    "KNOWN_TERMS",
    "SECTIONS",
    "Recording",
    "RuleBookError",
    "book_gaps",
    "book_messages",
    "card_text",
    "compile_templates",
    "first_sentence",
    "make_environment",
    "md_text",
    "render_html",
    "render_index",
    "render_language_index",
    "render_markdown",
    "section_of",
    "translating",
    "use_bytecode_cache",
]

TEMPLATE_DIR = Path(__file__).parent / "templates"
TEMPLATE_NAME = "rulebook.md.j2"
#: The rule-book formats and their templates; both import the sentences of clauses.j2.
TEMPLATES: dict[str, str] = {"md": "rulebook.md.j2", "html": "rulebook.html.j2"}
FORMATS: tuple[str, ...] = tuple(TEMPLATES)
STRAIN_CODES: tuple[str, ...] = ("S", "C", "D", "H", "NT")

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
    ``1.`` is escaped so the text cannot start a heading, list or rule. The book's own isolate
    stand-ins (:data:`_LRI`, :data:`_PDI`) never pass through from the input (:func:`_clean`).
    """
    return _md_escape(_clean(_oneline(str(value))))


_MD_TABLE = str.maketrans(_MD_ESCAPES)


def _md_escape(text: str) -> str:
    out = str(text).translate(_MD_TABLE)  # every character of _MD_ESCAPES replaced, at once
    out = _LEADING_MARKER.sub(r"\\\1", out)
    return _LEADING_ORDERED.sub(r"\1\\\2", out)


def card_text(code: str) -> str:
    """A card code in the notation of the book being rendered (English outside one): rank then
    suit symbol (``JH`` -> ``J♥``, in Dutch ``B♥``); jokers as is."""
    return _NOTATION.get().card(code)


def bid_text(code: str) -> str:
    """A bid of tricks in the notation of the book being rendered (``8S`` -> ``8♠``, ``7NT``
    -> ``7 SA`` in Dutch); a special bid's code as it is (the templates name those)."""
    return _NOTATION.get().bid(code)


def ranks_text(ranks: Sequence[str]) -> str:
    """Rank codes in the notation of the book being rendered, separated by spaces."""
    notation = _NOTATION.get()
    return " ".join(notation.rank(r) for r in ranks)


#: A hyphen-minus that is a minus sign: before a digit, after no letter, digit or hyphen.
_NEGATIVE = re.compile(r"(?<![\w-])-(?=\d)")

#: The first letter of a sentence (at the start, or after a full stop and a space).
_SENTENCE_START = re.compile(r"(^|[.!?] )([^\W\d_])")


def sentences(text: Any) -> Any:
    """``text`` with each sentence starting with a capital letter: a sentence may start with a
    bid's name (``misère staat boven 7 SA`` -> ``Misère staat boven 7 SA``). Markup stays
    markup (the letters changed are text, never a tag's)."""
    out = _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), str(text))
    return Markup(out) if isinstance(text, Markup) else out


def minus(text: object) -> str:
    """A number's text with a real minus sign (U+2212) for a leading hyphen-minus."""
    out = str(text)
    return "\u2212" + out[1:] if out.startswith("-") else out


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


#: Characters that must never reach a rule book raw: C0/C1 controls (NUL is invalid HTML) and
#: the bidi embedding, override and isolate controls, which could reorder the rest of a line
#: ("Trojan Source"). Each is shown as the replacement character instead.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: Stand-ins for LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE while a book renders: only
#: the isolating filters write them (in pairs), input never carries them (:func:`_clean`), and
#: :func:`_render` turns them into U+2066 and U+2069 at the end, so that the controls filter
#: of ``oneline`` never sees a real isolate of ours.
_LRI, _PDI = "\ue000", "\ue001"
_MARKERS = re.compile("[\ue000\ue001]")
#: A run of left-to-right material inside right-to-left text: codes, bids, numbers with their
#: sign, references (``7 NT (220)``, ``±230``, ``10S``): words of Latin
#: letters and digits, each maybe signed or in parentheses, separated by single spaces. A run
#: never starts or ends with punctuation of the sentence around it.
_TOKEN = r"[0-9A-Za-z§](?:[0-9A-Za-z§._\\/-]*[0-9A-Za-z§])?"
_ITEM = rf"(?:[±+\u2212-]?{_TOKEN}|\({_TOKEN}\))"
_LTR_RUN = re.compile(rf"(?<![0-9A-Za-z]){_ITEM}(?: {_ITEM})*")


def _clean(text: str) -> str:
    """Input text without our isolate stand-ins (always a plain ``str``, as ``re.sub`` gives)."""
    if "\ue000" not in text and "\ue001" not in text:
        return str(text)
    return _MARKERS.sub("\ufffd", text)


def isolate_runs(text: str) -> str:
    """``text`` with every left-to-right run (:data:`_LTR_RUN`) between isolate stand-ins."""
    return _LTR_RUN.sub(lambda m: _LRI + m.group(0) + _PDI, _clean(text))


def _isolated(text: str) -> str:
    return _LRI + text + _PDI


def _oneline(text: Any) -> Any:
    """Whitespace runs folded into single spaces, controls neutralised; HTML-safe stays safe."""
    folded = " ".join(str(text).split())
    if not folded.isprintable():  # every character _CONTROLS matches is unprintable
        folded = _CONTROLS.sub("\ufffd", folded)
    return Markup(folded) if isinstance(text, Markup) else folded


def _md_code(value: object) -> str:
    """A code as a Markdown code span (```MIS```): the reader sees it is a code; a value that
    a code span cannot hold safely is escaped text instead."""
    text = str(value)
    return f"`{text}`" if _SAFE_ID.match(text) else md_text(text)


def _safe_id(value: object) -> str:
    text = str(value)
    return f"`{text}`" if _SAFE_ID.match(text) else md_text(text)


# The HTML filters below run tens of thousands of times per build: they concatenate escaped
# text (the same markup as ``Markup(...).format``, which costs several times more), and the ones
# that depend on a card or suit code only are cached.


def _card_html(code: str) -> Markup:
    return _card_html_in(_NOTATION.get(), code)


@lru_cache(maxsize=4096)
def _card_html_in(notation: Notation, code: str) -> Markup:
    red = code[-1:] in ("H", "D") and code not in ("JK", "BJ")
    cls = "card red" if red else "card"
    return Markup(f'<bdi dir="ltr" class="{cls}">{escape(notation.card(code))}</bdi>')


def _is_trick_bid(code: str) -> bool:
    """A bid of tricks (``8S``, ``10NT``), not a special bid's code or anything else."""
    level = code[:-2] if code.endswith("NT") else code[:-1]
    return level.isdigit() and (code.endswith("NT") or code[-1:] in SUIT_SYMBOLS)


def _bid_html(code: str) -> Markup:
    if not _is_trick_bid(code):
        return _ltr_html(code)  # a special bid's code
    text = bid_text(code)
    red = code[-1:] in ("H", "D")
    cls = "bid red" if red else "bid"
    return Markup(f'<bdi dir="ltr" class="{cls}">{escape(text)}</bdi>')


def _ltr_html(value: object, cls: str = "code") -> Markup:
    return Markup(f'<bdi dir="ltr" class="{cls}">{escape(_clean(_oneline(value)))}</bdi>')


@lru_cache(maxsize=16)
def _suit_html(code: str) -> Markup:
    cls = "suit red" if code in ("H", "D") else "suit"
    return Markup(f'<span class="{cls}">{escape(SUIT_SYMBOLS[code])}</span>')


#: The translations of the book being rendered. One environment per format serves every
#: language (its templates are compiled once); :func:`_render` sets this around each render.
_CURRENT: ContextVar[gettext.NullTranslations | None] = ContextVar(
    "fivehundred_rulebook_translations", default=None
)
_ENGLISH = gettext.NullTranslations()
#: The card and bid notation of the book being rendered (set with the translations).
_NOTATION: ContextVar[Notation] = ContextVar(
    "fivehundred_rulebook_notation", default=ENGLISH_NOTATION
)


def _current() -> gettext.NullTranslations:
    return _CURRENT.get() or _ENGLISH


def _text(translated: str, *english: str) -> str:
    """A translator's text as text: control and bidi-override characters (:data:`UNSAFE`)
    dropped, so a catalogue cannot put ESC, BEL or U+202E into a book (the English is ours and
    passes as it is)."""
    if translated in english or not UNSAFE.search(translated):
        return translated
    return UNSAFE.sub("", translated)


def _gettext(message: str) -> str:
    return _text(_current().gettext(message), message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return _text(_current().ngettext(singular, plural, n), singular, plural)


def _pgettext(context: str, message: str) -> str:
    return _text(_current().pgettext(context, message), message)


def _npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _text(_current().npgettext(context, singular, plural, n), singular, plural)


#: What a translation may not bring into Markdown as markup: the HTML-significant characters,
#: written as entities (no msgid holds one, so only a translator's text changes).
_MD_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
#: A ``%`` format field of a message (``%(count)s``, ``%%``): kept as it is by
#: :func:`_md_translation`, which escapes the text around it.
_FORMAT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")


def _md_translation(text: str, *english: str) -> str:
    """A message for the Markdown book: our English as it is (its < > & as entities: it has
    none), a translator's text as text: every character Markdown would read as markup
    (``[link](…)``, ``![image](…)``, ``*emphasis*``, a code span, a table's ``|``) escaped as
    :func:`md_text` does, around the message's format fields."""
    if text in english:
        return text.translate(_MD_HTML)
    out, pos = [], 0
    for field in _FORMAT_FIELD.finditer(text):
        out.append(text[pos : field.start()].translate(_MD_TABLE))
        out.append(field.group())
        pos = field.end()
    out.append(text[pos:].translate(_MD_TABLE))
    escaped = _LEADING_MARKER.sub(r"\\\1", "".join(out))
    return _LEADING_ORDERED.sub(r"\1\\\2", escaped)


def _newstyle(html: bool) -> tuple[Any, Any, Any, Any]:
    """The four gettext functions of the templates, new style (``_("%(n)s", n=1)`` formats).

    They do exactly what Jinja's own new-style wrappers (``jinja2.ext``) do around
    :func:`_gettext` and friends: translate in the current language, in HTML escape the
    translation (a translator's ``<`` or ``&`` shows as is) and make it markup, then always
    format it with the keyword arguments (``num`` and ``context`` filled in as Jinja does). They
    take no template context, so a call costs one function call instead of three context
    dispatches (with a copy of the context inside every loop); the rule books are the same,
    byte for byte, and render in a fifth less time.
    """
    if html:

        def gettext(message: str, **variables: Any) -> str:
            return escape(_gettext(message)) % variables

        def ngettext(singular: str, plural: str, n: int, **variables: Any) -> str:
            variables.setdefault("num", n)
            return escape(_ngettext(singular, plural, n)) % variables

        def pgettext(context: str, message: str, **variables: Any) -> str:
            variables.setdefault("context", context)
            return escape(_pgettext(context, message)) % variables

        def npgettext(context: str, singular: str, plural: str, n: int, **variables: Any) -> str:
            variables.setdefault("context", context)
            variables.setdefault("num", n)
            text = _npgettext(context, singular, plural, n)
            return escape(text) % variables

        return gettext, ngettext, pgettext, npgettext

    # Markdown: a translation is text (as in HTML): its markup characters escaped; the values
    # filled in are the filters' output, already safe.
    def md_gettext(message: str, **variables: Any) -> str:
        return _md_translation(_gettext(message), message) % variables

    def md_ngettext(singular: str, plural: str, n: int, **variables: Any) -> str:
        variables.setdefault("num", n)
        return _md_translation(_ngettext(singular, plural, n), singular, plural) % variables

    def md_pgettext(context: str, message: str, **variables: Any) -> str:
        variables.setdefault("context", context)
        return _md_translation(_pgettext(context, message), message) % variables

    def md_npgettext(context: str, singular: str, plural: str, n: int, **variables: Any) -> str:
        variables.setdefault("context", context)
        variables.setdefault("num", n)
        text = _npgettext(context, singular, plural, n)
        return _md_translation(text, singular, plural) % variables

    return md_gettext, md_ngettext, md_pgettext, md_npgettext


class _Context(jinja2.runtime.Context):
    """A template context whose calls of macros and plain functions skip Jinja's generic
    dispatch (which looks for ``pass_context`` and friends on every call): the same calls, the
    same results, in less time. Anything else goes the generic way."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        kind = type(__obj)
        if kind is jinja2.runtime.Macro:
            # Macro.__call__ takes the evaluation context (it is pass_eval_context)
            args = (__self.eval_ctx, *args)
        elif kind is not FunctionType or hasattr(__obj, "jinja_pass_arg"):
            return super().call(__obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


@contextmanager
def translating(translations: gettext.NullTranslations) -> Iterator[None]:
    """Render with ``translations`` (the language of the templates' messages) in this block."""
    token = _CURRENT.set(translations)
    notation = _NOTATION.set(read_notation(translations))
    try:
        yield
    finally:
        _NOTATION.reset(notation)
        _CURRENT.reset(token)


#: What ``getattr`` finds on a plain dict: its methods (``items``, ``get``...), nothing else.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment with a quicker ``x.name`` for plain dicts (the rule book's clauses,
    bids and tables are dicts): Jinja tries the attribute first, and a dict's only attributes
    are its methods, so for any other name the item is looked up at once instead of after a
    failed ``getattr`` (an exception each time). The same value either way."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


#: The sentences module (clauses.j2) imported by the book being rendered (see _Template).
_MODULES: ContextVar[dict[str, Any] | None] = ContextVar(
    "fivehundred_rulebook_modules", default=None
)
#: The templates imported more than once per book, ``with context``, that read nothing of
#: their importer but the book's own context: the book template and balance.j2 both import
#: clauses.j2, which reads no name of either (only the context :func:`_context` makes).
_SHARED_IMPORTS = frozenset({"clauses.j2"})


def _escape(value: object) -> Markup:
    """``markupsafe.escape``, except that markup is returned as it is, not copied (escaping
    markup gives the same text again): the HTML book escapes every value it outputs, most of
    them markup already."""
    if type(value) is Markup:
        return value
    return escape(value)


class _Template(jinja2.Template):
    """A template whose ``import ... with context`` of a module of :data:`_SHARED_IMPORTS`
    is evaluated once per book (:func:`_render`): the second import is the first's module,
    which is what evaluating it again would give, without a hundred messages translated
    again. Its compiled code escapes with :func:`_escape`."""

    @classmethod
    def from_code(
        cls,
        environment: jinja2.Environment,
        code: CodeType,
        globals: MutableMapping[str, Any],
        uptodate: Callable[[], bool] | None = None,
    ) -> jinja2.Template:
        # Jinja's own from_code, with the compiled code's ``escape`` (from jinja2.runtime)
        # replaced before any of its functions runs. ``_from_namespace`` is Jinja's (3.1);
        # should a later Jinja lack it, its own from_code (markupsafe's escape) serves.
        if not hasattr(cls, "_from_namespace"):  # pragma: no cover - a future Jinja
            return super().from_code(environment, code, globals, uptodate)
        namespace: dict[str, Any] = {"environment": environment, "__file__": code.co_filename}
        exec(code, namespace)
        namespace["escape"] = _escape
        template = cls._from_namespace(environment, namespace, globals)
        template._uptodate = uptodate
        return template

    def make_module(
        self,
        vars: dict[str, Any] | None = None,
        shared: bool = False,
        locals: Mapping[str, Any] | None = None,
    ) -> jinja2.environment.TemplateModule:
        memo = _MODULES.get()
        if memo is None or not shared or self.name not in _SHARED_IMPORTS:
            return super().make_module(vars, shared, locals)
        module = memo.get(self.name)
        if module is None:
            module = memo[self.name] = super().make_module(vars, shared, locals)
        return module


def make_environment(fmt: str = "md") -> jinja2.Environment:
    """The Jinja2 environment of the rule book in format ``fmt`` (``md`` or ``html``).

    gettext is installed new-style; the language is the one of the enclosing
    :func:`translating` block (English outside one). ``trim_blocks`` and ``lstrip_blocks`` are
    on; the message extractor (generator/i18n.py) uses the same options. The two formats share
    the sentences (templates/clauses.j2) and differ in the filters: Markdown escapes author text
    with :func:`md_text` and writes codes as text; HTML autoescapes everything (translations
    included), isolates every card, bid and clause code left to right (``<bdi dir="ltr">``) and
    colours hearts and diamonds red.
    """
    if fmt not in FORMATS:
        raise RuleBookError(f"no rule-book format {fmt!r} ({', '.join(FORMATS)})")
    html = fmt == "html"
    env = _Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=html,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        cache_size=-1,
    )
    env.context_class = _Context
    env.template_class = _Template
    # new style: {% trans %} blocks pass their variables as keyword arguments (compile time);
    # then the calls themselves are ours (_newstyle), ``_`` included (Jinja's calls gettext).
    env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True, pgettext=_pgettext, npgettext=_npgettext
    )
    gettext_, ngettext_, pgettext_, npgettext_ = _newstyle(html)
    env.globals.update(
        _=gettext_, gettext=gettext_, ngettext=ngettext_, pgettext=pgettext_, npgettext=npgettext_
    )

    @jinja2.pass_context
    def author(ctx: Any, value: object) -> Any:
        # in a right-to-left book, codes, bids and signed numbers in the text are isolated
        text = _clean(_oneline(_gettext(normalise(value)) if normalise(value) else ""))
        text = _NEGATIVE.sub("\u2212", text)  # a real minus sign before a number
        if ctx.get("dir") != "rtl":
            return escape(text) if html else _md_escape(text)
        text = isolate_runs(text)
        if not html:
            return _md_escape(text)
        # in HTML a run is an element, kept on one line
        return Markup(
            str(escape(text)).replace(_LRI, '<bdi dir="ltr" class="run">').replace(_PDI, "</bdi>")
        )

    @jinja2.pass_context
    def source(ctx: Any, value: object) -> Any:
        # the letters G, T and P are the sources' names, not text to translate
        if str(value) in SOURCE_LETTERS:
            return escape(str(value)) if html else md_text(value)
        return author(ctx, value)

    def rtl_md(func: Any) -> Any:
        """A Markdown filter whose output is isolated left to right in a right-to-left book."""

        @jinja2.pass_context
        def wrapped(ctx: Any, value: Any) -> Any:
            out = func(value)
            return _isolated(out) if ctx.get("dir") == "rtl" and str(out) else out

        return wrapped

    env.filters["author"] = author
    env.filters["source"] = source
    env.filters["oneline"] = _oneline
    env.filters["md_text"] = md_text
    if html:
        env.filters["text"] = lambda v: escape(_clean(_oneline(v)))
        env.filters["code"] = _ltr_html
        env.filters["ltr"] = lambda v: v
        env.filters["num"] = lambda v: _ltr_html(minus(v), "num") if str(v).startswith("-") else v
        env.filters["figure"] = lambda v: _ltr_html(v, "num")
        env.filters["idcode"] = lambda v: Markup(f'<code dir="ltr">{escape(v)}</code>')
        env.filters["card"] = _card_html
        env.filters["cards"] = lambda codes: Markup(" ").join(_card_html(c) for c in codes)
        env.filters["suit"] = _suit_html
        env.filters["bid"] = _bid_html
        env.filters["ranks"] = lambda ranks: _ltr_html(ranks_text(ranks))
        env.filters["badge"] = lambda v: Markup(f'<code class="cid" dir="ltr">{escape(v)}</code>')
    else:
        # in a right-to-left book every code, card and signed number is isolated left to right
        # (Unicode LRI ... PDI), as <bdi dir="ltr"> does in HTML
        env.filters["text"] = md_text
        env.filters["code"] = rtl_md(_md_code)
        env.filters["ltr"] = rtl_md(str)
        env.filters["num"] = rtl_md(minus)
        env.filters["figure"] = rtl_md(str)  # formatted by us (generator/balancebook.py)
        env.filters["idcode"] = rtl_md(_safe_id)
        env.filters["card"] = rtl_md(card_text)
        env.filters["cards"] = rtl_md(lambda codes: " ".join(card_text(c) for c in codes))
        env.filters["suit"] = lambda code: SUIT_SYMBOLS[code]
        env.filters["bid"] = rtl_md(
            lambda code: md_text(bid_text(code)) if _is_trick_bid(code) else _md_code(code)
        )
        env.filters["ranks"] = rtl_md(ranks_text)
        env.filters["badge"] = rtl_md(lambda v: f"<sub>{_md_code(v)}</sub>")
    env.filters["sentences"] = sentences
    env.tests["prefixed"] = lambda value, prefix: str(value).startswith(prefix)
    # a base's book is linked by its id only when it is a variant id (a rule file may extend
    # anything: its text never becomes a link target)
    env.tests["variant_id"] = lambda value: bool(
        isinstance(value, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", value)
    )
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


class Recording(gettext.NullTranslations):
    """English, noting every message asked for as a ``(context, msgid)`` pair (``seen``, in
    the order first asked for): render an English book with it to learn its messages."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[str | None, str], None] = {}

    def gettext(self, message: str) -> str:
        self.seen[(None, message)] = None
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.seen[(None, msgid1)] = None
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self.seen[(context, message)] = None
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        self.seen[(context, msgid1)] = None
        return msgid1 if n == 1 else msgid2


_RECORDING = Recording()
_RECORDING_LOCK = threading.Lock()


def book_messages(rs: Ruleset) -> tuple[tuple[str | None, str], ...]:
    """Every message (``(context, msgid)``) the rule book of ``rs`` uses, in either format, in
    the order first used; the same in every language (the branches depend on the rules only).
    Author text counts: it is translated through the catalogue like the template's sentences.
    """
    with _RECORDING_LOCK:
        _RECORDING.seen = {}
        for fmt in FORMATS:
            _render(rs, "en", _RECORDING, fmt, None, None)
        return tuple(_RECORDING.seen)


def book_gaps(rs: Ruleset, lang: str) -> list[Gap]:
    """The messages of the rule book of ``rs`` that ``lang`` does not translate: the book shows
    them in English. English, and a language that translates them all, have none."""
    return gaps(lang, book_messages(rs)) if lang != "en" else []


def _context(
    rs: Ruleset,
    lang: str,
    languages: Sequence[tuple[str, str]] | None,
    missing: Sequence[Gap] | None = None,
) -> dict[str, Any]:
    """Everything the templates need besides ``rs``: data only, never prose."""
    return {
        **_book_data(rs),
        "lang": lang,
        "dir": text_direction(lang),
        "languages": [(code, language_name(code), href) for code, href in languages or ()],
        "balance": book_context(rs, lang),
        "untranslated": len(missing or ()),
    }


#: The language-independent part of the last books' contexts, by ruleset (a build renders
#: every variant's book in twelve forms; the templates never change what they are given).
_BOOK_DATA: dict[int, tuple[Ruleset, dict[str, Any]]] = {}


def _book_data(rs: Ruleset) -> dict[str, Any]:
    cached = _BOOK_DATA.get(id(rs))
    if cached is not None and cached[0] is rs:
        return cached[1]
    if len(_BOOK_DATA) >= 64:
        _BOOK_DATA.clear()
    data = _book_data_of(rs)
    _BOOK_DATA[id(rs)] = (rs, data)
    return data


def _book_data_of(rs: Ruleset) -> dict[str, Any]:
    sections: dict[str, list[Clause]] = {name: [] for name in SECTIONS}
    for clause in rs.clauses:
        sections[section_of(clause["id"])].append(clause)
    suit_bids = [b for b in rs.ladder if b["kind"] == "suit"]
    levels = sorted({b["level"] for b in suit_bids})
    strains = sorted({b["strain"] for b in suit_bids})
    score_grid = {(b["level"], b["strain"]): b["value"] for b in suit_bids}
    suit_cards: dict[str, list[RankCode | JokerCode]] = {
        suit: [rs.card_rank[c] for c in range(len(rs.deck)) if rs.card_suit[c] == s][::-1]
        for s, suit in enumerate(SUITS)
    }
    longest: list[RankCode | JokerCode] = max(suit_cards.values(), key=len)
    partners = max((len(team) for team in rs.teams), default=1) - 1
    n_teams = len(rs.teams)
    alternating = n_teams > 1 and all(
        list(team) == [seat for seat in range(rs.players) if seat % n_teams == t]
        for t, team in enumerate(rs.teams)
    )
    order_rows = [
        {
            "code": t["code"],
            "trump": t["trump"],
            "trumps": list(t["order"][t["trump"]] if t["trump"] is not None else t["order"][4]),
            "suits": [list(t["order"][s]) for s in range(4)],
        }
        for t in rs.strains
    ]
    return {
        "rs": rs,
        "terms": _check_terms(rs),
        "sections": sections,
        "section_names": SECTIONS,
        "clause_ids": [c["id"] for c in rs.clauses],
        "variant_id": rs.id if _SAFE_ID.match(rs.id) else None,
        "base_title": variant_names().get(rs.extends) if rs.extends else None,
        "suits": SUITS,
        "symbols": SUIT_SYMBOLS,
        "strain_codes": STRAIN_CODES,
        "n_jokers": len(rs.jokers),
        "suit_cards": {s: cards for s, cards in suit_cards.items() if cards},
        "plain_ranks": list(longest),
        "levels": levels,
        "strain_indexes": strains,
        "score_grid": score_grid,
        "order_rows": order_rows,
        "misere_bids": [b for b in rs.ladder if b["kind"] == "misere"],
        "suit_bids": suit_bids,
        "partners": partners,
        "alternating": alternating,
        "team_list": ["{" + ", ".join(str(seat) for seat in team) + "}" for team in rs.teams],
        "differences": _differences(rs),
    }


@cache
def variant_names() -> dict[str, str]:
    """The ``name`` of every built-in variant by id (author text: the book translates it
    through the catalogue), so that a book names its base variant instead of giving its id."""
    from .yamlload import load_yaml

    out: dict[str, str] = {}
    for path in sorted(VARIANTS_DIR.rglob("*.yaml")):
        with suppress(Exception):  # a broken file has no name to give; validate reports it
            data, _ = load_yaml(path.read_bytes(), str(path))
            name = data.get("name")
            if isinstance(name, str) and normalise(name):
                out[str(data.get("id", path.stem))] = normalise(name)
    return out


def _differences(rs: Ruleset) -> list[dict[str, Any]]:
    """What a house variant changes: clause ids (shown with their sentence, or as dropped) or,
    for any other entry, an English sentence that the template translates like author text."""
    clauses = {c["id"]: c for c in rs.clauses}
    out: list[dict[str, Any]] = []
    for entry in rs.differences:
        if entry in CLAUSE_IDS:
            out.append({"id": entry, "clause": clauses.get(entry), "text": None})
        else:
            out.append({"id": None, "clause": None, "text": entry})
    return out


def _translations(
    lang: str, translations: gettext.NullTranslations | None
) -> gettext.NullTranslations:
    if translations is not None:
        return translations
    return load_translations(lang)


@cache
def _environment(fmt: str) -> jinja2.Environment:
    return make_environment(fmt)


class _QuietBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept on disk; a folder that cannot be read or written costs time only."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with suppress(OSError):
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with suppress(OSError):
            super().dump_bytecode(bucket)


def compile_templates() -> None:
    """Compile every rule-book template of both formats now (each once per process), so that
    processes forked later share them instead of compiling them again."""
    for fmt in FORMATS:
        env = _environment(fmt)
        for name in (
            TEMPLATES[fmt],
            "clauses.j2",
            "balance.j2",
            f"index.{fmt}.j2",
            f"langindex.{fmt}.j2",
        ):
            env.get_template(name)
    _environment("html").get_template("rulebook.css")


class _Collected(jinja2.BytecodeCache):
    """Compiled templates kept in memory (template key -> bytecode, with Jinja's checks), and
    written through to ``disk`` (the build cache's), if any."""

    def __init__(
        self, kept: dict[str, bytes] | None = None, disk: jinja2.BytecodeCache | None = None
    ) -> None:
        self.kept = {} if kept is None else kept
        self.disk = disk

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.kept.get(bucket.key)
        if data is None:
            if self.disk is not None:
                self.disk.load_bytecode(bucket)
            return
        bucket.bytecode_from_string(data)  # a changed template is compiled again
        if self.disk is not None and bucket.code is not None:
            self.disk.dump_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()
        if self.disk is not None:
            self.disk.dump_bytecode(bucket)


def compiled_templates() -> dict[str, dict[str, bytes]]:
    """Every rule-book template compiled (:func:`compile_templates`), as bytecode per format:
    what a worker compiles while the build reads the rule files (:func:`use_compiled`)."""
    out: dict[str, dict[str, bytes]] = {}
    kept = {fmt: _environment(fmt).bytecode_cache for fmt in FORMATS}
    try:
        for fmt in FORMATS:
            collected = _Collected()  # the worker's own: the caller writes the build cache
            _environment(fmt).bytecode_cache = collected
            out[fmt] = collected.kept
        compile_templates()
    finally:
        for fmt in FORMATS:
            _environment(fmt).bytecode_cache = kept[fmt]
    return out


def use_compiled(compiled: Mapping[str, dict[str, bytes]]) -> None:
    """Load the rule-book templates from ``compiled`` (:func:`compiled_templates`) instead of
    compiling them; a template whose source differs from what was compiled is compiled."""
    for fmt in FORMATS:
        env = _environment(fmt)
        env.bytecode_cache = _Collected(dict(compiled.get(fmt, {})), env.bytecode_cache)
    compile_templates()


def use_bytecode_cache(folder: Path | None) -> None:
    """Keep the rule-book templates compiled in ``folder`` (the build cache), or stop (None).

    Jinja checks each compiled template against its source, so a changed template is compiled
    again. Each format has a folder of its own: Jinja keys compiled code by template name only,
    and the same template compiles differently with and without autoescaping."""
    for fmt in FORMATS:
        cache = None
        if folder is not None:
            with suppress(OSError):
                (folder / fmt).mkdir(parents=True, exist_ok=True)
                cache = _QuietBytecodeCache(str(folder / fmt))
        _environment(fmt).bytecode_cache = cache


def _render(
    rs: Ruleset,
    lang: str,
    translations: gettext.NullTranslations | None,
    fmt: str,
    languages: Sequence[tuple[str, str]] | None,
    missing: Sequence[Gap] | None,
) -> str:
    if missing is None and translations is None and lang != "en":
        missing = book_gaps(rs, lang)
    context = _context(rs, lang, languages, missing)
    modules = _MODULES.set({})
    try:
        with translating(_translations(lang, translations)):
            text = _environment(fmt).get_template(TEMPLATES[fmt]).render(context)
    finally:
        _MODULES.reset(modules)
    return _tidy(text).replace(_LRI, "\u2066").replace(_PDI, "\u2069")


def _tidy(text: str) -> str:
    """``text`` without trailing spaces, with no two blank lines in a row, without blank
    lines at either end, ending with one newline."""
    text = "\n".join([line.rstrip() for line in text.splitlines()])
    while "\n\n\n" in text:  # each pass shortens every run by one: as re.sub(r"\n{3,}", ...)
        text = text.replace("\n\n\n", "\n\n")  # does at once, at a tenth of the cost
    return text.strip("\n") + "\n"


#: Where a clause is in a book (clause ids hold no quote): its anchor, its list item.
_MD_ANCHOR = re.compile(r'<a id="([^"]*)"></a>')
_HTML_ITEM = re.compile(r'<li id="([^"]*)"')


def render_markdown(
    rs: Ruleset,
    lang: str = "en",
    translations: gettext.NullTranslations | None = None,
    *,
    languages: Sequence[tuple[str, str]] | None = None,
    missing: Sequence[Gap] | None = None,
) -> str:
    """The rule book of ``rs`` as GitHub-flavoured Markdown.

    ``translations`` supplies the language ``lang``; when None, English for ``en`` and the
    catalogue of ``lang`` otherwise (:func:`~fivehundred.generator.i18n.load_translations`).
    ``languages``, pairs of a language code and the path of that language's book without its
    extension, adds a line of links to them. ``missing``, the messages the language does not
    translate (:func:`book_gaps`; computed when None and ``translations`` is None), puts an
    "incomplete translation" banner at the top of the book. The output is deterministic, has
    no trailing spaces and ends with exactly one newline. Every clause of ``rs`` appears as a
    paragraph or list item starting with ``<a id="CLAUSE"></a>``. Raises
    :class:`RuleBookError` when a clause, option value or term has no text.
    """
    return _every_clause(rs, _render(rs, lang, translations, "md", languages, missing), _MD_ANCHOR)


def render_html(
    rs: Ruleset,
    lang: str = "en",
    translations: gettext.NullTranslations | None = None,
    *,
    languages: Sequence[tuple[str, str]] | None = None,
    missing: Sequence[Gap] | None = None,
) -> str:
    """The rule book of ``rs`` as one self-contained HTML page (inline CSS, print styles).

    Arguments as for :func:`render_markdown`. The page is ``dir="rtl"`` for a right-to-left
    language; every card, bid and clause code in it is isolated left to right. Every clause of
    ``rs`` is an element with the clause id as its ``id``.
    """
    out = _render(rs, lang, translations, "html", languages, missing)
    return _every_clause(rs, out, _HTML_ITEM)


def _every_clause(rs: Ruleset, out: str, anchor: re.Pattern[str]) -> str:
    """``out``, a rule book of ``rs``, once ``anchor`` finds every clause of ``rs`` in it;
    :class:`RuleBookError` naming the clauses it lost otherwise."""
    found = set(anchor.findall(out))
    lost = [c["id"] for c in rs.clauses if c["id"] not in found]
    if lost:
        raise RuleBookError(f"the rule book lost clauses: {', '.join(lost)}")
    return out


def render_index(
    books: Sequence[tuple[str, str]],
    langs: Sequence[str],
    fmt: str = "html",
    complete: Mapping[str, Collection[str]] | None = None,
) -> str:
    """The index of every rule book: ``books`` are (variant id, name) pairs; ``fmt`` md or html.

    Links are relative: ``<lang>/<variant>.<fmt>`` (the layout of generated/docs/). With
    ``complete`` (variant id -> the languages that translate its whole book) only those books
    are linked; a language with no complete book gets no column.
    """
    rows = [(variant, name) for variant, name in books]
    done = {variant: set(complete[variant]) if complete else set(langs) for variant, _ in rows}
    shown = [code for code in langs if any(code in done[variant] for variant, _ in rows)]
    langs_info = [(code, language_name(code), text_direction(code)) for code in shown]
    with translating(load_translations("en")):
        text = (
            _environment(fmt)
            .get_template(f"index.{fmt}.j2")
            .render(books=rows, languages=langs_info, complete=done)
        )
    return _tidy(text)


#: The end of a sentence: a full stop, question or exclamation mark (Arabic's too) and a space.
_SENTENCE_END = re.compile(r"(?<=[.!?\u061f])\s+")


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (all of it when it has one only)."""
    return _SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0]


def render_language_index(
    rulesets: Sequence[Ruleset],
    lang: str,
    fmt: str = "html",
    languages: Sequence[str] = (),
    translations: gettext.NullTranslations | None = None,
) -> str:
    """The index of the rule books of ``lang`` (``<lang>/index.<fmt>``): ``rulesets``
    grouped by number of players, each with its name and the first sentence of its summary
    (translated where the catalogue has them), a house variant with links to its base's book
    and to its differences; ``languages``: the other languages whose indexes it links.

    Links are relative: ``<variant>.<fmt>`` beside it, ``../<code>/index.<fmt>``."""
    names = variant_names()
    groups: dict[int, list[dict[str, Any]]] = {}
    with translating(_translations(lang, translations)):
        for rs in sorted(rulesets, key=lambda r: (r.players, r.id)):
            summary = normalise(rs.summary) if rs.summary else ""
            groups.setdefault(rs.players, []).append(
                {
                    "id": rs.id,
                    "name": rs.name,
                    # the whole summary is the catalogue's message: translated, then cut
                    "about": first_sentence(_gettext(summary)) if summary else "",
                    "base": rs.extends,
                    "base_name": names.get(rs.extends or "", rs.extends or ""),
                }
            )
        others = [
            (code, language_name(code), f"../{code}/index.{fmt}")
            for code in languages
            if code != lang
        ]
        text = (
            _environment(fmt)
            .get_template(f"langindex.{fmt}.j2")
            .render(
                groups=sorted(groups.items()),
                lang=lang,
                dir=text_direction(lang),
                languages=others,
            )
        )
    return _tidy(text).replace(_LRI, "\u2066").replace(_PDI, "\u2069")
