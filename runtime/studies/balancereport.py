"""Balance reports: the figures of one or two studies as text, one JSON object, or a folder with
a Markdown report and SVG charts.

Every figure carries its 95% confidence interval; with two studies every figure is shown side by
side with the difference (second minus first), the difference's interval, the p-value of the
test (two-proportion z-test for shares and rates, Welch's t-test for means) and a star when the
difference is significant at the 5% level. Many figures are tested at once, so about one in
twenty differences that are really nothing will carry a star: look at the size of the
difference and at the rule you changed, not at the stars alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .balance import (
    ENDINGS,
    BalanceError,
    Figure,
    Study,
    compare,
    figures,
    trajectory,
)
from .rare import KIND_WORDS, RARE, SITUATIONS, model_trials, why_rare
from .reached import EVENTS
from .stats import LEVEL, Comparison, Mean, Proportion
from .svgchart import MARKER, Bar, Line, bar_chart, line_chart

__all__ = [
    "FORMAT",
    "OWN_FILES",
    "check_out",
    "figure_json",
    "markdown_report",
    "report_json",
    "text_report",
    "write_report",
]

#: The en dash of ranges and of figures that cannot be measured.
DASH = "\u2013"

#: The version of the ``--json`` object's layout (README, "Balance studies").
FORMAT = 1
#: The files ``--out DIR`` writes; nothing else in DIR is touched.
OWN_FILES = ("report.md", "report.json", "contracts.svg", "make-rate.svg", "score.svg")
_TAG = "fivehundred balance"

GROUP_TITLES: dict[str, str] = {
    "game": "Game",
    "contracts": "Contracts, by bid (share of hands)",
    "kinds": "Contracts, by kind (share of hands)",
    "make_rate": "Contracts made (by tricks bid; misères by bid)",
    "points": "Points per hand with a contract",
    "endings": "How games end (share of games)",
    "first_dealer": "Games won, by the side of the seat at each position from the first dealer",
    "position_points": "Points per hand, by the side of the seat at each position from the dealer",
    "position_contracts": "Contracts, by the contractor's position from the dealer",
    "clauses": "Rule clauses that decided something (share of hands)",
    "situations": "Situations a rule governs, whatever the players chose (share of hands)",
}
_STRAIN_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "no trumps"}


def _position(pos: int) -> str:
    if pos == 0:
        return "dealer"
    if pos == 1:
        return "dealer's left (first to bid)"
    return f"{pos} to the dealer's left"


def label(group: str, key: str) -> str:
    """The English label of a figure."""
    if group == "game":
        return {"hands_per_game": "hands per game"}.get(key, key)
    if key == "pass":
        return "everybody passed"
    if key == "redeal":
        return "redealt (no ace, no face)"
    if group == "kinds":
        return _STRAIN_NAMES.get(key, f"misère {key}")
    if group == "make_rate":
        if key == "all":
            return "all contracts"
        return f"{key} tricks" if key.isdigit() else f"misère {key}"
    if group == "points":
        return {
            "contractor": "contractor's side",
            "opponents": "opponents, all sides together",
        }.get(key, key)
    if group == "endings":
        return ENDINGS.get(key, key)
    if group in ("first_dealer", "position_points", "position_contracts"):
        return _position(int(key))
    if group == "clauses":
        return f"{key}: {EVENTS.get(key, '')}"
    if group == "situations":
        return f"{key}: {SITUATIONS.get(key, '')}"
    return key


# -- numbers ----------------------------------------------------------------------------------


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def figure_json(fig: Figure) -> dict[str, Any]:
    """A figure as JSON: a share ``{k, n, value, low, high}`` or a mean ``{n, value, sd, low,
    high}``; ``value``, ``low`` and ``high`` are null when there is nothing to measure."""
    ci = fig.interval()
    low, high = (None, None) if ci is None else ci
    if isinstance(fig, Proportion):
        return {"k": fig.k, "n": fig.n, "value": _r(fig.value), "low": _r(low), "high": _r(high)}
    var = fig.variance
    return {
        "n": fig.n,
        "value": _r(fig.value),
        "sd": None if var is None else _r(max(var, 0.0) ** 0.5),
        "low": _r(low),
        "high": _r(high),
    }


def comparison_json(cmp: Comparison) -> dict[str, Any]:
    """A difference as JSON: ``{diff, low, high, p, significant, test}``."""
    return {
        "diff": _r(cmp.diff),
        "low": _r(cmp.low),
        "high": _r(cmp.high),
        "p": _r(cmp.p),
        "significant": cmp.significant,
        "test": cmp.test,
    }


def study_json(study: Study) -> dict[str, Any]:
    """One study's figures as JSON."""
    r = study.rules
    return {
        "variant": r.variant,
        "name": r.name,
        "extends": r.extends,
        "games": study.tally.games,
        "hands": study.tally.hands,
        "target": r.target,
        "figures": {
            group: {key: figure_json(fig) for key, fig in rows.items()}
            for group, rows in figures(study).items()
        },
        "score_over_hands": [
            {"hand": k, "games": on, "leader": _r(lead, 2), "other": _r(other, 2)}
            for k, on, lead, other in trajectory(study)
        ],
        # what the bots' model made of each misère bid (rare.model_trials): why they bid it
        "trials": model_trials(r, study.bots),
    }


def report_json(studies: Sequence[Study], *, timing: bool = True) -> dict[str, Any]:
    """The ``--json`` object (keys documented in the README, "Balance studies")."""
    s0 = studies[0]
    out: dict[str, Any] = {
        "report": _TAG,
        "format": FORMAT,
        "confidence": LEVEL,
        "games": s0.games,
        "seed": s0.seed,
        "bots": list(s0.bots),
        "max_hands": s0.max_hands,
        "variants": [study_json(s) for s in studies],
        "differences": None,
    }
    if len(studies) == 2:
        out["differences"] = {
            group: {key: comparison_json(c) for key, (_, _, c) in rows.items()}
            for group, rows in compare(studies[0], studies[1]).items()
        }
    if timing:
        seconds = sum(s.seconds for s in studies)
        played = sum(s.tally.games for s in studies)
        out["seconds"] = round(seconds, 3)
        out["games_per_second"] = round(played / seconds, 2) if seconds else None
    return out


def fmt(fig: Figure) -> str:
    """A figure and its interval: ``12.3% (11.0-13.7)`` or ``10.4 (9.9-10.9)`` (an en dash)."""
    ci = fig.interval()
    if isinstance(fig, Proportion):
        if fig.value is None:
            return DASH
        if ci is None:
            return f"{fig.value:.1%}"
        return f"{fig.value:.1%} ({ci[0] * 100:.1f}{DASH}{ci[1] * 100:.1f})"
    if fig.value is None:
        return DASH
    if ci is None:
        return f"{fig.value:.1f}"
    return f"{fig.value:.1f} ({ci[0]:.1f}{DASH}{ci[1]:.1f})"


def fmt_diff(fig: Figure, cmp: Comparison) -> str:
    """A difference and its interval; shares in percentage points."""
    if cmp.diff is None:
        return DASH
    if isinstance(fig, Mean):
        text = f"{cmp.diff:+.1f}"
        if cmp.low is not None and cmp.high is not None:
            text += f" ({cmp.low:+.1f} to {cmp.high:+.1f})"
        return text
    text = f"{cmp.diff * 100:+.1f} pp"
    if cmp.low is not None and cmp.high is not None:
        text += f" ({cmp.low * 100:+.1f} to {cmp.high * 100:+.1f})"
    return text


def fmt_p(cmp: Comparison) -> str:
    """The p-value, starred when significant."""
    if cmp.p is None:
        return DASH
    text = "<0.001" if cmp.p < 0.001 else f"{cmp.p:.3f}"
    return text + (" *" if cmp.significant else "")


def _shown(group: str, fig: Figure) -> bool:
    """Whether a single study's row is worth a line (a bid never played is left out)."""
    if group == "contracts" and isinstance(fig, Proportion):
        return fig.k > 0
    return True


def _header(studies: Sequence[Study]) -> list[str]:
    s0 = studies[0]
    names = " against ".join(f"{s.rules.variant} ({s.rules.name})" for s in studies)
    seconds = sum(s.seconds for s in studies)
    played = sum(s.tally.games for s in studies)
    rate = f", {played / seconds:.1f} games/s" if seconds else ""
    return [
        f"Balance study: {names}",
        f"{s0.games} games per variant (same deal seeds for each), bots: {','.join(s0.bots)}, "
        f"seed {s0.seed}, hand limit {s0.max_hands}; played in {seconds:.1f} s{rate}",
        f"{int(LEVEL * 100)}% confidence intervals in brackets"
        + (
            f"; difference = {_minus(studies)}, p from a two-proportion z-test (shares) or "
            "Welch's t-test (means), * = significant at the 5% level"
            if len(studies) == 2
            else ""
        ),
    ]


def _minus(studies: Sequence[Study]) -> str:
    """How a difference reads: house minus base when the second variant extends the first."""
    a, b = studies[0].rules, studies[1].rules
    if b.extends == a.variant:
        return f"house minus base ({b.variant} minus {a.variant})"
    if a.extends == b.variant:
        return f"{b.variant} minus {a.variant} (base minus house)"
    return f"{b.variant} minus {a.variant}"


def house_changes(studies: Sequence[Study], changed: Sequence[str]) -> list[dict[str, Any]]:
    """For each clause the second variant changes: how often it acted in each study's hands
    (the clause counts of :mod:`.reached`), and a warning in words when under
    :data:`~.rare.RARE`, with why it acted so seldom where :mod:`.rare` knows (``why``: by
    variant, the reason's kind and English sentence)."""
    out: list[dict[str, Any]] = []
    for clause in changed:
        acted: dict[str, dict[str, Any]] = {}
        why: dict[str, dict[str, str]] = {}
        warnings: list[str] = []
        for st in studies:
            figs = figures(st)
            rows = figs["clauses"]
            keys = [k for k in rows if k.split("/")[0] == clause]
            if not keys:
                continue
            fig = rows[keys[0]]
            assert isinstance(fig, Proportion)
            acted[st.rules.variant] = {"k": fig.k, "n": fig.n}
            if fig.n and fig.k / fig.n < RARE:
                warning = (
                    f"in {st.rules.variant} the bots reached this rule in {fig.k:,} of "
                    f"{fig.n:,} hands: the figures below say little about it"
                )
                shown = {
                    g: {k: {"k": f.k, "n": f.n} for k, f in fs.items() if isinstance(f, Proportion)}
                    for g, fs in figs.items()
                }
                reason = why_rare(clause, st.rules, shown, model_trials(st.rules, st.bots))
                if reason is not None:
                    why[st.rules.variant] = {"kind": reason.kind, "text": reason.english()}
                    warning += f". Why ({KIND_WORDS[reason.kind]}): {reason.english()}"
                warnings.append(warning)
        note = "; ".join(warnings)
        if not acted:
            note = (
                "not counted: the study counts only the clauses that decide something in play "
                "(this one acts through the deal, the ladder or the score)"
            )
        out.append({"clause": clause, "acted": acted, "note": note, "why": why})
    return out


def _change_lines(studies: Sequence[Study], changed: Sequence[str]) -> list[str]:
    if not changed or len(studies) != 2:
        return []
    lines = [
        "",
        f"The house file's changes ({studies[1].rules.variant} against "
        f"{studies[0].rules.variant}): how often each changed clause acted",
    ]
    for row in house_changes(studies, changed):
        shares = ", ".join(
            f"{v} {a['k']:,}/{a['n']:,} hands ({a['k'] / a['n']:.1%})" if a["n"] else f"{v} -"
            for v, a in row["acted"].items()
        )
        text = f"  {row['clause']}: {shares}" if shares else f"  {row['clause']}"
        if row["note"]:
            text += f" - {row['note']}"
        lines.append(text)
    return lines


def _rows(studies: Sequence[Study]) -> list[tuple[str, list[list[str]]]]:
    """Per group: its title and its rows of cells (label, figure(s)[, difference, p])."""
    out: list[tuple[str, list[list[str]]]] = []
    if len(studies) == 1:
        for group, rows in figures(studies[0]).items():
            cells = [[label(group, k), fmt(f)] for k, f in rows.items() if _shown(group, f)]
            if cells:
                out.append((GROUP_TITLES[group], cells))
        return out
    for group, rows2 in compare(studies[0], studies[1]).items():
        cells = []
        for key, (fa, fb, cmp) in rows2.items():
            if (
                group == "contracts"
                and isinstance(fa, Proportion)
                and isinstance(fb, Proportion)
                and fa.k == fb.k == 0
            ):
                continue
            cells.append([label(group, key), fmt(fa), fmt(fb), fmt_diff(fa, cmp), fmt_p(cmp)])
        if cells:
            out.append((GROUP_TITLES[group], cells))
    return out


def text_report(studies: Sequence[Study], changed: Sequence[str] = ()) -> str:
    """The plain-text report printed by ``fivehundred balance``; with two studies and the
    clauses the second changes (``changed``), it opens with how often each acted."""
    lines = _header(studies) + _change_lines(studies, changed)
    heads = (
        ["", studies[0].rules.variant, studies[1].rules.variant, "difference", "p"]
        if len(studies) == 2
        else ["", studies[0].rules.variant]
    )
    for title, rows in _rows(studies):
        widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
        widths[0] = min(widths[0], 60)
        lines += ["", title]
        if len(studies) == 2:
            lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)))
        for row in rows:
            first = row[0] if len(row[0]) <= 60 else row[0][:59] + "…"
            cells = [first.ljust(widths[0])] + [
                c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
            ]
            lines.append("  " + "  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


# -- the report folder ------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    """Author text (a variant's name or id) made safe for Markdown."""
    from ...generator.docs import md_text

    return md_text(text)


def _md_own(text: str) -> str:
    """Our own text (figures, labels): only what would break a table cell is escaped."""
    for raw, safe in (("\\", "\\\\"), ("|", "\\|"), ("*", "\\*"), ("<", "&lt;"), (">", "&gt;")):
        text = text.replace(raw, safe)
    return text


def markdown_report(studies: Sequence[Study]) -> str:
    """The Markdown report of ``--out DIR`` (it shows the SVG charts beside it)."""
    head = _header(studies)
    lines = [
        f"<!-- written by {_TAG}; a new run rewrites this file -->",
        f"# {_md_cell(head[0])}",
        "",
        _md_cell(head[1]) + ".",
        "",
        _md_own(head[2]) + ".",
        "",
        "![Contracts, by bid](contracts.svg)",
        "",
        "![Contracts made, by tricks bid](make-rate.svg)",
        "",
        "![Score over hands](score.svg)",
    ]
    if len(studies) == 2:
        cols = ["", studies[0].rules.variant, studies[1].rules.variant, "difference", "p"]
        align = "|---|---:|---:|---:|---:|"
    else:
        cols = ["", studies[0].rules.variant]
        align = "|---|---:|"
    for title, rows in _rows(studies):
        lines += ["", f"## {_md_own(title)}", ""]
        lines.append("| " + " | ".join(_md_cell(c) for c in cols) + " |")
        lines.append(align)
        for row in rows:
            lines.append("| " + " | ".join(_md_own(c) for c in row) + " |")
    return "\n".join(lines) + "\n"


def _names(studies: Sequence[Study]) -> list[str]:
    return [s.rules.variant for s in studies]


def contracts_svg(studies: Sequence[Study]) -> str:
    """Bar chart: share of hands per contract (bids played in either study, then all-pass)."""
    figs = [figures(s)["contracts"] for s in studies]
    keys: list[str] = []
    for f in figs:
        keys += [k for k, v in f.items() if isinstance(v, Proportion) and v.k and k not in keys]
    series = []
    for name, f, s in zip(_names(studies), figs, studies, strict=True):
        bars = []
        for k in keys:
            fig = f.get(k) or Proportion(0, s.tally.hands)
            ci = fig.interval()
            bars.append(Bar(fig.value, *(ci or (None, None))))
        series.append((name, bars))
    return bar_chart(
        "Contracts, by bid (share of hands)",
        [{"pass": "all passed", "redeal": "redealt"}.get(k, k) for k in keys],
        series,
        desc="Share of hands played at each contract, with 95% confidence intervals.",
    )


def make_rate_svg(studies: Sequence[Study]) -> str:
    """Bar chart: share of contracts made per level and per misère bid."""
    figs = [figures(s)["make_rate"] for s in studies]
    keys: list[str] = []
    for f in figs:
        keys += [k for k in f if k not in keys]
    series = []
    for name, f in zip(_names(studies), figs, strict=True):
        bars = []
        for k in keys:
            fig = f.get(k)
            if fig is None or fig.value is None:
                bars.append(Bar(None))
                continue
            ci = fig.interval()
            bars.append(Bar(fig.value, *(ci or (None, None))))
        series.append((name, bars))
    cats = [label("make_rate", k) for k in keys]
    return bar_chart(
        "Contracts made",
        cats,
        series,
        desc="Share of contracts made, per number of tricks bid and per misère bid, with 95% "
        "confidence intervals.",
    )


def score_svg(studies: Sequence[Study]) -> str:
    """Line chart: mean score of the game's final leader and of the best other side by hand."""
    lines = []
    for i, study in enumerate(studies):
        pts = trajectory(study)
        name = study.rules.variant
        lines.append(Line(f"{name}: winner", [(k, lead) for k, _, lead, _ in pts], dashed=i))
        lines.append(Line(f"{name}: best other side", [(k, o) for k, _, _, o in pts], dashed=i))
    target = studies[0].rules.target
    return line_chart(
        "Score over hands (games still on)",
        lines,
        x_label="hand",
        y_label="mean score",
        guide=(target, f"target {target}"),
        desc="Mean score after each hand of the side that went on to win (or led at the end) "
        "and of the best other side, over the games still on at that hand.",
    )


def report_files(studies: Sequence[Study]) -> dict[str, str]:
    """Every file of the report folder: name -> text."""
    data = report_json(studies)
    return {
        "report.md": markdown_report(studies),
        "report.json": json.dumps(data, indent=1, ensure_ascii=False) + "\n",
        "contracts.svg": contracts_svg(studies),
        "make-rate.svg": make_rate_svg(studies),
        "score.svg": score_svg(studies),
    }


def write_report(folder: str | Path, studies: Sequence[Study]) -> list[Path]:
    """Write the report folder atomically (all files or none); return the paths written.

    The folder is created if missing. Files there other than :data:`OWN_FILES` are never
    touched, and an existing file with one of those names is replaced only if an earlier run
    wrote it (it carries the report's marker); otherwise :class:`BalanceError`, nothing written.
    """
    from ..transaction import commit_files

    root = check_out(folder)
    files = report_files(studies)
    try:
        commit_files(root.resolve(), {n: t.encode("utf-8") for n, t in files.items()}, [])
    except OSError as exc:
        raise BalanceError(f"--out {folder}: cannot write: {exc}") from None
    return [root / n for n in files]


def check_out(folder: str | Path) -> Path:
    """The report folder ``folder`` if a report can be written there, checked before any game
    is played (a mistyped path costs no run): it is a folder or can be made in the nearest
    folder that exists, which must be writable, and no file of :data:`OWN_FILES` there is
    someone else's. :class:`BalanceError` otherwise."""
    root = Path(folder)
    ancestor = root
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise BalanceError(f"--out {folder}: {ancestor} is not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise BalanceError(f"--out {folder}: cannot write in {ancestor}")
    if root.exists() and not root.is_dir():
        raise BalanceError(f"--out {folder}: not a folder")
    for name in OWN_FILES:
        path = root / name
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise BalanceError(f"--out {folder}: {name} exists and is not a plain file")
        if path.is_file():
            try:
                with path.open("rb") as handle:
                    head = handle.read(400)
            except OSError as exc:
                raise BalanceError(f"--out {folder}: cannot read {name}: {exc}") from None
            if _TAG.encode() not in head and MARKER.encode() not in head:
                raise BalanceError(
                    f"--out {folder}: {name} exists and was not written by fivehundred "
                    "balance; choose another folder (nothing was written)"
                )
    return root
