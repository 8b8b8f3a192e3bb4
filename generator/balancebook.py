"""The rule books' "How this variant plays" section and the committed summaries it reads.

``fivehundred balance --write`` plays :data:`BOOK_GAMES` whole games of every built-in variant
with the heuristic bots (seed 1) and writes one summary per variant,
``generated/balance/<variant>.json``: its figures and, for a variant that extends a base with
the same number of players, the figures of the base on the same deals and every difference with
its test. ``fivehundred build`` only reads these files (:func:`load_summary`,
:func:`book_context`): it never simulates, so it stays fast and deterministic. A variant without
a summary gets a section that says so.

The summaries are written atomically, all of them or none.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal

from ..runtime.engine.fingerprint import rules_fingerprint
from ..runtime.engine.notation import number_signs
from .model import Ruleset

if TYPE_CHECKING:  # the build only reads summaries: it never loads the simulation
    from ..runtime.engine.rules import Rules
    from ..runtime.studies.balance import Study

__all__ = [
    "BOOK_GAMES",
    "SUMMARY_DIR",
    "book_context",
    "load_summary",
    "summary_of",
    "write_summaries",
]

#: The en dash of ranges and of figures that cannot be measured.
DASH = "\u2013"
#: The minus sign of negative figures (U+2212, not the hyphen-minus of code).
MINUS = "\u2212"

#: Where the summaries live (committed, like the rest of generated/).
SUMMARY_DIR = Path(__file__).resolve().parent.parent / "generated" / "balance"
#: Games per variant for the committed summaries (README, "Balance studies", says how long).
BOOK_GAMES = 1000
#: The layout version of a summary file.
SUMMARY_FORMAT = 1


def summary_path(variant: str) -> Path:
    """``generated/balance/<variant>.json``."""
    return SUMMARY_DIR / f"{variant}.json"


def _command(study: Study) -> str:
    bots = ",".join(study.bots)
    return (
        f"fivehundred balance --write {study.rules.variant} --games {study.games} "
        f"--seed {study.seed} --bots {bots}"
    )


def summary_of(study: Study, base: Study | None) -> dict[str, Any]:
    """The summary file of one variant (and of its base on the same deals)."""
    from ..runtime.studies.balance import compare
    from ..runtime.studies.balancereport import comparison_json, study_json

    own = study_json(study)
    out: dict[str, Any] = {
        "format": SUMMARY_FORMAT,
        "variant": study.rules.variant,
        "command": _command(study),
        "games": study.games,
        "seed": study.seed,
        "bots": list(study.bots),
        "max_hands": study.max_hands,
        "rules": rules_fingerprint(study.rules.tables),
        "hands": own["hands"],
        "sides": study.rules.n_sides,
        "figures": own["figures"],
        "trials": own["trials"],
        "against": None,
    }
    if base is not None:
        out["against"] = {
            "variant": base.rules.variant,
            "figures": study_json(base)["figures"],
            "differences": {
                group: {key: comparison_json(c) for key, (_, _, c) in rows.items()}
                for group, rows in compare(base, study).items()
            },
        }
    return out


def _base_of(rules: Rules, builtin: dict[str, Rules]) -> Rules | None:
    base = rules.extends
    if base is None or base not in builtin:
        return None
    other = builtin[base]
    return other if other.players == rules.players else None


def write_summaries(
    variants: Sequence[str] | None,
    *,
    games: int = BOOK_GAMES,
    seed: int = 1,
    bots: tuple[str, ...] | None = None,
    workers: int | None = None,
    ray: str | None = None,
    max_hands: int | None = None,
    progress: Any = None,
) -> list[Path]:
    """Play and write the summaries of ``variants`` (built-in ids; None: all of them);
    ``max_hands`` defaults to :data:`~fivehundred.runtime.studies.balance.DEFAULT_MAX_HANDS`."""
    from ..runtime.engine.rules import Rules
    from ..runtime.studies.balance import DEFAULT_MAX_HANDS, BalanceError, run_study
    from ..runtime.transaction import commit_files

    if max_hands is None:
        max_hands = DEFAULT_MAX_HANDS

    ids: list[str] = list(importlib.import_module("fivehundred.generated.rulesets").VARIANTS)
    wanted = list(variants) if variants else ids
    unknown = [v for v in wanted if v not in ids]
    if unknown:
        raise BalanceError(
            f"--write refreshes built-in variants only; not built in: {', '.join(unknown)}"
        )
    builtin = {v: Rules.builtin(v) for v in ids}
    needed: list[str] = []
    for v in wanted:
        base = _base_of(builtin[v], builtin)
        for name in (v, base.variant if base is not None else None):
            if name is not None and name not in needed:
                needed.append(name)
    studies = run_study(
        [builtin[v] for v in needed],
        games,
        seed=seed,
        bots=bots,
        workers=workers,
        ray=ray,
        max_hands=max_hands,
        progress=progress,
    )
    by_id = dict(zip(needed, studies, strict=True))
    files: dict[str, bytes] = {}
    for v in wanted:
        base = _base_of(builtin[v], builtin)
        summary = summary_of(by_id[v], by_id[base.variant] if base is not None else None)
        text = json.dumps(summary, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
        files[f"{v}.json"] = text.encode("utf-8")
    commit_files(SUMMARY_DIR, files, [])
    return [summary_path(v) for v in wanted]


#: Parsed summaries by path, with the file's modification time and size when read.
_SUMMARIES: dict[Path, tuple[int, int, Any]] = {}


def load_summary(variant: str, folder: Path | None = None) -> dict[str, Any] | None:
    """The committed summary of ``variant``, or None when there is none (or it is unreadable
    or of another layout: the book then says that no summary has been computed)."""
    path = (folder or SUMMARY_DIR) / f"{variant}.json"
    try:
        stat = path.stat()
        cached = _SUMMARIES.get(path)
        if cached is not None and cached[:2] == (stat.st_mtime_ns, stat.st_size):
            data = cached[2]
        else:
            data = json.loads(path.read_text(encoding="utf-8"))
            _SUMMARIES[path] = (stat.st_mtime_ns, stat.st_size, data)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
        return None
    return data


# -- what the rule-book template gets ---------------------------------------------------------


def _decimal_symbol(lang: str) -> str:
    """The decimal separator of a rule-book language (``,`` in Dutch; the engine's
    :func:`~fivehundred.runtime.engine.notation.number_signs`, which the bots' reasons use)."""
    return number_signs(lang)[0]


def _percent_affixes(lang: str) -> tuple[str, str]:
    """What the language writes before and after a percentage (``("", "\u00a0%")``, a no-break
    space, in Norwegian and Danish; bidi marks left out: the book isolates its figures)."""
    return number_signs(lang)[1]


def _dec(x: float, lang: str, signed: bool = False) -> str:
    """One decimal, the language's decimal separator, a real minus sign (formatting by hand:
    Babel's general formatter would cost the build a second for the few hundred figures of
    every book; the separator and the percent sign's place are Babel's, :func:`_pct`)."""
    text = f"{x:+.1f}" if signed else f"{x:.1f}"
    if text in ("-0.0", "+0.0"):
        text = "0.0"  # a zero has no sign
    return text.replace(".", _decimal_symbol(lang)).replace("-", MINUS)


def _pct(x: float, lang: str, signed: bool = False) -> str:
    prefix, suffix = _percent_affixes(lang)
    return prefix + _dec(x * 100, lang, signed) + suffix


def _range(low: str, high: str) -> str:
    """A range joined by an en dash (:data:`DASH`), with a space on each side of the dash when
    a bound is negative (two minus signs and a dash in a row would read as one mark)."""
    if low.startswith(MINUS) or high.startswith(MINUS):
        return f"{low} {DASH} {high}"
    return f"{low}{DASH}{high}"


def _fig(fig: dict[str, Any], lang: str, percent: bool) -> dict[str, Any]:
    f = _pct if percent else _dec
    value, low, high = fig.get("value"), fig.get("low"), fig.get("high")
    return {
        "value": DASH if value is None else f(value, lang),
        "range": "" if low is None or high is None else _range(f(low, lang), f(high, lang)),
        "k": fig.get("k"),
        "n": fig.get("n"),
    }


def book_context(rs: Ruleset, lang: str, folder: Path | None = None) -> dict[str, Any]:
    """What the "How this variant plays" section shows of ``rs`` in ``lang``.

    ``state`` is ``missing`` (no summary: the section says how to get one), ``stale`` (the
    summary was computed for other rules: the section says so and shows no figures) or ``ok``
    (the formatted figures, and the comparison with the base where there is one).
    """
    command = f"fivehundred balance --write {rs.id}"
    data = load_summary(rs.id, folder)
    if data is None:
        return {"state": "missing", "command": command}
    if data.get("rules") != _fingerprint(rs):
        return {"state": "stale", "command": command}
    # the figures differ between languages by their decimal sign, percent and digit grouping
    # only: a build makes them once per variant and notation (the summary read is the same
    # object while its file is)
    symbol = (_decimal_symbol(lang), _percent_affixes(lang), _count(1000, lang))
    cached = _CONTEXTS.get((id(rs), id(data), symbol))
    if cached is not None and cached[0] is rs and cached[1] is data:
        return cached[2]
    try:
        context = _context(
            data,
            [c["id"] for c in rs.clauses],
            set(rs.differences),
            lang,
            _solo(rs),
            lambda: _rules(rs),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return {"state": "missing", "command": command}  # another layout: as if none
    out = {"state": "ok", **context, "command": command}
    if len(_CONTEXTS) >= 256:
        _CONTEXTS.clear()
    _CONTEXTS[id(rs), id(data), symbol] = (rs, data, out)
    return out


#: The figures of the last books, by ruleset, summary and decimal sign (see book_context).
_CONTEXTS: dict[tuple[int, int, Any], tuple[Ruleset, Any, dict[str, Any]]] = {}


def _solo(rs: Ruleset) -> bool:
    """Every side is a single player for the whole game: no partnerships, no partner chosen."""
    return max((len(team) for team in rs.teams), default=1) == 1 and rs.partner_call == "none"


_T = TypeVar("_T")


def _per_ruleset(memo: dict[str, tuple[Ruleset, _T]], rs: Ruleset, make: Callable[[], _T]) -> _T:
    """``make()`` for ``rs``, remembered for the last ruleset of its id (a build renders each
    book in 12 forms)."""
    cached = memo.get(rs.id)
    if cached is not None and cached[0] is rs:
        return cached[1]
    value = make()
    memo[rs.id] = (rs, value)
    return value


#: The engine rules and the fingerprint of the last rulesets asked, per variant id.
_RULES: dict[str, tuple[Ruleset, Rules]] = {}
_FINGERPRINTS: dict[str, tuple[Ruleset, str]] = {}


def _rules(rs: Ruleset) -> Rules:
    """The engine rules of ``rs``."""
    from ..runtime.engine.rules import Rules

    return _per_ruleset(_RULES, rs, lambda: Rules(rs.tables))


def _fingerprint(rs: Ruleset) -> str:
    """The rules fingerprint of ``rs``."""
    return _per_ruleset(_FINGERPRINTS, rs, lambda: rules_fingerprint(rs.tables))


def _context(
    data: dict[str, Any],
    clause_ids: Sequence[str],
    changed: set[str],
    lang: str,
    solo: bool = False,
    rules: Callable[[], Rules] | None = None,
) -> dict[str, Any]:
    """The formatted figures; ``solo``: every side is one player (the section says "player");
    ``rules()``: the variant's engine rules (asked only to say why a changed rule is rare)."""
    figs = data["figures"]
    kinds = [{"key": k, **_fig(v, lang, True)} for k, v in figs["kinds"].items() if v["k"]]
    made = [
        {"key": k, "tricks": k.isdigit(), **_fig(v, lang, True)}
        for k, v in figs["make_rate"].items()
        if v["n"]
    ]
    endings = [{"key": k, **_fig(v, lang, True)} for k, v in figs["endings"].items() if v["k"]]
    clauses = [
        {"id": shown, **_fig(v, lang, True)}
        for k, v in figs["clauses"].items()
        if (shown := _shown_clause(k, figs["clauses"], clause_ids)) is not None
    ]
    sides = int(data["sides"])
    bots = set(data["bots"])
    out: dict[str, Any] = {
        # who played: one kind of computer player at every seat, or several kinds
        "players": next(iter(bots)) if len(bots) == 1 else "mixed",
        "solo": solo,
        "games": data["games"],
        "seed": data["seed"],
        "bots": ", ".join(data["bots"]),
        "max_hands": data["max_hands"],
        "length": _fig(figs["game"]["hands_per_game"], lang, False),
        "kinds": kinds,
        "made": made,
        "gain": _fig(figs["points"]["contractor"], lang, False),
        "against": _fig(figs["points"]["opponents"], lang, False),
        "endings": endings,
        "dealer": _fig(figs["first_dealer"]["0"], lang, True),
        "fair": _pct(1 / sides, lang),
        "clauses": clauses,
        "compare": None,
    }
    if data.get("against"):
        if rules is None:
            raise ValueError("a comparison needs the variant's rules")
        out["compare"] = _compare(data, clause_ids, changed, lang, rules)
    return out


def _shown_clause(key: str, keys: Mapping[str, Any], clause_ids: Sequence[str]) -> str | None:
    """The rule a clause count is shown under in the book, or None: a clause id is its own; a
    narrower count (``auction.higher/by-value``) stands for its rule only where the study has
    no count of the rule itself (the ladder ranked by value: how often a bid of fewer tricks
    overcalled one of more)."""
    base = key.split("/")[0]
    if base not in clause_ids:
        return None
    if key == base:
        return key
    others = [k for k in keys if k.split("/")[0] == base]
    return base if base not in keys and others[0] == key else None


#: Rows of the comparison table shown whether or not they differ.
_ALWAYS: frozenset[tuple[str, str]] = frozenset(
    {
        ("game", "hands_per_game"),
        ("make_rate", "all"),
        ("points", "contractor"),
        ("points", "opponents"),
    }
)
#: The groups of the comparison table, in order.
_COMPARE_GROUPS = ("game", "make_rate", "points", "kinds", "endings", "clauses")


def _compare(
    data: dict[str, Any],
    clause_ids: Sequence[str],
    changed: set[str],
    lang: str,
    rules: Callable[[], Rules],
) -> dict[str, Any]:
    """The comparison with the base: the headline figures, every figure that differs
    significantly, and the clauses this variant changes (reached or not)."""
    against = data["against"]
    mine, theirs, diffs = data["figures"], against["figures"], against["differences"]
    rows = []
    omitted = 0
    for group in _COMPARE_GROUPS:
        for key, d in diffs.get(group, {}).items():
            a = theirs.get(group, {}).get(key)
            b = mine.get(group, {}).get(key)
            if a is None and b is None:
                continue
            shown = key
            if group == "clauses":
                keys = {**theirs.get(group, {}), **mine.get(group, {})}
                if (found := _shown_clause(key, keys, clause_ids)) is None:
                    continue
                shown = found
            significant = bool(d.get("significant"))
            if not (
                significant or (group, key) in _ALWAYS or (group == "clauses" and shown in changed)
            ):
                omitted += 1
                continue
            percent = "k" in (a or b or {})
            f = _pct if percent else _dec
            diff = d.get("diff")
            rows.append(
                {
                    "group": group,
                    "key": shown,
                    "this": _fig(b or {}, lang, percent)["value"],
                    "base": _fig(a or {}, lang, percent)["value"],
                    "diff": DASH if diff is None else f(diff, lang, True),
                    "significant": significant,
                }
            )
    return {
        "base": against["variant"],
        "rows": rows,
        "omitted": omitted,
        "rare": _rare(data, clause_ids, changed, lang, rules),
    }


def _count(x: int, lang: str) -> str:
    """A whole number in the language's grouping (8,363; nl 8.363; nb 8 363)."""
    try:
        return str(format_decimal(x, locale=Locale.parse(lang.replace("-", "_"))))
    except (UnknownLocaleError, ValueError, TypeError):
        return str(x)


def _rare(
    data: dict[str, Any],
    clause_ids: Sequence[str],
    changed: set[str],
    lang: str,
    rules: Callable[[], Rules],
) -> list[Any]:
    """The clauses this variant changes that its computer players reached in under
    :data:`~fivehundred.runtime.studies.rare.RARE` of the hands: ``{"id", "k", "n", "never",
    "why"}`` each (the counts written for ``lang``), in clause order. ``why`` is the reason
    :func:`~fivehundred.runtime.studies.rare.why_rare` gives from the summary's figures and
    model trials (``{"kind", "message", "args"}``, the message an ``N_()`` msgid the template
    translates), or None; ``rules()`` gives the variant's engine rules."""
    from ..runtime.studies.rare import RARE, why_rare

    figures = data["figures"]
    out = []
    for cid in clause_ids:
        f = figures.get("clauses", {}).get(cid)
        if cid in changed and f and f["n"] and f["k"] < RARE * f["n"]:
            k, n = (_count(x, lang) for x in (f["k"], f["n"]))
            reason = why_rare(cid, rules(), figures, data.get("trials") or {})
            why = None
            if reason is not None:
                why = {
                    "kind": reason.kind,
                    "message": reason.message,
                    "args": {a: _count(x, lang) for a, x in reason.args.items()},
                }
            out.append({"id": cid, "k": k, "n": n, "never": not f["k"], "why": why})
    return out
