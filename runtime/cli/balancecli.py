"""The ``fivehundred balance`` verb: arguments in, a study run, the report out.

Progress goes to standard error: a bar on a terminal, otherwise a plain line every
:data:`PLAIN_EVERY` seconds (and one at the end), so logs of long runs show it is alive.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from ..loading import load_rules
from ..studies.balance import DEFAULT_MAX_HANDS, BalanceError, Progress, run_study
from ..studies.balancereport import check_out, report_json, text_report, write_report
from ..terminal import PLAIN_EVERY, progress

__all__ = ["PLAIN_EVERY", "progress_for", "run_balance"]


def progress_for(stream: IO[str]) -> Progress:
    """A bar on a terminal, else a plain line every :data:`PLAIN_EVERY` seconds and one at the
    end (:func:`fivehundred.runtime.terminal.progress`)."""
    return progress(stream, "balance", "games")


def _bots(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    from ..bots.registry import split_bots

    names = tuple(split_bots(text))
    if not all(names):
        raise BalanceError(f"--bots {text!r}: an empty bot name")
    return names


def run_balance(args: argparse.Namespace) -> int:
    """Run the verb; return the exit code."""
    if args.write:
        return _write(args)
    if len(args.variant) != 1:
        raise BalanceError("give one VARIANT or FILE (and --against for a second one)")
    if args.games is None:
        raise BalanceError("give --games N (whole games per variant)")
    names = [args.variant[0]]
    rules = [load_rules(args.variant[0])]
    if args.against is not None:
        names.append(args.against)
        rules.append(load_rules(args.against))
        if rules[0].extends == rules[1].variant:
            # `balance HOUSE --against BASE`: the base goes first, so that every difference
            # reads as an author reads it, house minus base
            names.reverse()
            rules.reverse()
    if args.out is not None:
        if not args.out:  # Path("") is the current folder
            raise BalanceError("--out is empty: give the report's folder")
        check_out(args.out)  # before the games: a mistyped path costs no run
    studies = run_study(
        rules,
        args.games,
        seed=args.seed,
        bots=_bots(args.bots),
        workers=args.workers,
        ray=args.ray,
        max_hands=DEFAULT_MAX_HANDS if args.max_hands is None else args.max_hands,
        progress=progress_for(sys.stderr),
    )
    if args.out is not None:
        paths = write_report(args.out, studies)
        if not args.json:
            print(f"wrote {', '.join(str(p) for p in paths)}", file=sys.stderr)
    if args.json:
        print(json.dumps(report_json(studies), ensure_ascii=False))
    else:
        changed: tuple[str, ...] = ()
        if args.against is not None:
            changed = _changed_clauses(names[0], names[1])
        sys.stdout.write(text_report(studies, changed))
    return 0


def _changed_clauses(base: str, house: str) -> tuple[str, ...]:
    """The clause ids whose rules ``house`` changes from ``base`` (``fivehundred diff``)."""
    from ...generator.diff import changed_clauses
    from ...generator.pipeline import check_spec, find_spec

    return changed_clauses(
        check_spec(find_spec(base)).ruleset, check_spec(find_spec(house)).ruleset
    )


def _write(args: argparse.Namespace) -> int:
    from ...generator.balancebook import BOOK_GAMES, write_summaries
    from ...generator.build import build

    if args.against is not None or args.out is not None or args.json:
        raise BalanceError(
            "--write refreshes the rule books' summaries; it takes no --against, --out or --json"
        )
    written = write_summaries(
        args.variant or None,
        games=BOOK_GAMES if args.games is None else args.games,
        seed=args.seed,
        bots=_bots(args.bots),
        workers=args.workers,
        ray=args.ray,
        max_hands=DEFAULT_MAX_HANDS if args.max_hands is None else args.max_hands,
        progress=progress_for(sys.stderr),
    )
    for path in written:
        print(f"wrote {path}")
    report = build()
    print(f"rule books rebuilt: {len(report.written)} files written")
    return 0
