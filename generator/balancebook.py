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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal

from ..runtime.balance import (
    DEFAULT_MAX_HANDS,
    ENDINGS,
    BalanceError,
    Study,
    compare,
    rules_fingerprint,
    run_study,
)
from ..runtime.balancereport import comparison_json, study_json
from ..runtime.rules import Rules
from .model import Ruleset

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
    max_hands: int = DEFAULT_MAX_HANDS,
    progress: Any = None,
) -> list[Path]:
    """Play and write the summaries of ``variants`` (built-in ids; None: all of them)."""
    from .build import _commit

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
    _commit(SUMMARY_DIR, files, [])
    return [summary_path(v) for v in wanted]


def load_summary(variant: str, folder: Path | None = None) -> dict[str, Any] | None:
    """The committed summary of ``variant``, or None when there is none (or it is unreadable
    or of another layout: the book then says that no summary has been computed)."""
    path = (folder or SUMMARY_DIR) / f"{variant}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
        return None
    return data


# -- what the rule-book template gets ---------------------------------------------------------


def _dec(x: float, lang: str, signed: bool = False) -> str:
    pattern = "+0.0;-0.0" if signed else "0.0"
    return str(format_decimal(x, format=pattern, locale=lang.replace("-", "_")))


def _pct(x: float, lang: str, signed: bool = False) -> str:
    return _dec(x * 100, lang, signed) + "%"


def _fig(fig: dict[str, Any], lang: str, percent: bool) -> dict[str, Any]:
    f = _pct if percent else _dec
    value, low, high = fig.get("value"), fig.get("low"), fig.get("high")
    return {
        "value": DASH if value is None else f(value, lang),
        "range": "" if low is None or high is None else f"{f(low, lang)}{DASH}{f(high, lang)}",
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
    if data.get("rules") != rules_fingerprint(rs.tables()):
        return {"state": "stale", "command": command}
    try:
        context = _context(data, [c.id for c in rs.clauses], lang)
    except (KeyError, TypeError, ValueError, AttributeError):
        return {"state": "missing", "command": command}  # another layout: as if none
    return {"state": "ok", **context, "command": command}


def _context(data: dict[str, Any], clause_ids: Sequence[str], lang: str) -> dict[str, Any]:
    figs = data["figures"]
    kinds = [{"key": k, **_fig(v, lang, True)} for k, v in figs["kinds"].items() if v["k"]]
    made = [
        {"key": k, "tricks": k.isdigit(), **_fig(v, lang, True)}
        for k, v in figs["make_rate"].items()
        if v["n"]
    ]
    endings = [{"key": k, **_fig(v, lang, True)} for k, v in figs["endings"].items() if v["k"]]
    clauses = [
        {"id": k, **_fig(v, lang, True)}
        for k, v in figs["clauses"].items()
        if "/" not in k and k in clause_ids
    ]
    sides = int(data["sides"])
    out: dict[str, Any] = {
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
        out["compare"] = _compare(data, clause_ids, lang)
    return out


#: The rows of the comparison table: (group, key or None for every key, shown when).
_COMPARE_ROWS: tuple[tuple[str, str | None], ...] = (
    ("game", "hands_per_game"),
    ("make_rate", "all"),
    ("make_rate", None),
    ("points", "contractor"),
    ("points", "opponents"),
    ("kinds", None),
    ("endings", None),
    ("clauses", None),
)


def _compare(data: dict[str, Any], clause_ids: Sequence[str], lang: str) -> dict[str, Any]:
    against = data["against"]
    mine, theirs, diffs = data["figures"], against["figures"], against["differences"]
    rows = []
    for group, only in _COMPARE_ROWS:
        keys = [only] if only else list(diffs.get(group, {}))
        for key in keys:
            if only is None and group == "make_rate" and (key == "all" or key.isdigit()):
                continue  # per level: in the table above; misères only here
            a = theirs.get(group, {}).get(key)
            b = mine.get(group, {}).get(key)
            d = diffs.get(group, {}).get(key)
            if d is None or (a is None and b is None):
                continue
            if group == "clauses" and ("/" in key or key not in clause_ids):
                continue
            percent = "k" in (a or b or {})
            if percent and not ((a or {}).get("k") or (b or {}).get("k")):
                continue  # zero on both sides: nothing to compare
            f = _pct if percent else _dec
            diff = d.get("diff")
            rows.append(
                {
                    "group": group,
                    "key": key,
                    "this": _fig(b or {}, lang, percent)["value"],
                    "base": _fig(a or {}, lang, percent)["value"],
                    "diff": DASH if diff is None else f(diff, lang, True),
                    "significant": bool(d.get("significant")),
                }
            )
    return {"base": against["variant"], "rows": rows, "endings": list(ENDINGS)}
