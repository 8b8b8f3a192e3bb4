"""The ``fivehundred`` command line (INTERCHANGE.md, "Command line").

Every user error prints one line per problem (``file:line:col: message`` for rule files) on
standard error and exits with code 2; nothing a user types produces a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from ..engine.errors import (
    ArgumentError,
    Diagnostic,
    FiveHundredError,
    IllegalActionError,
    RecordError,
    SpecError,
)
from ..engine.messages import N_, Phrase, render
from ..files import os_error_text
from ..terminal import SafeStream, json_printable, progress

if TYPE_CHECKING:
    from ..engine.rules import Rules

__all__ = ["main"]

EXIT_USAGE = 2


def _err(message: str) -> None:
    """One line on standard error: a newline inside ``message`` (a file name given as
    ``$'a\\nb'``) is shown as ``\\n``, as :class:`SafeStream` shows the other controls."""
    print(message.replace("\n", "\\n"), file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    """Check rule files; print every problem; exit 2 if any."""
    from ...generator.pipeline import check_spec
    from ...generator.resolve import merge_summary

    tr = None
    if args.lang != "en":
        from ...generator.i18n import load_translations

        tr = load_translations(args.lang)
    bad = 0
    for name in args.files:
        path = Path(name)
        try:
            if not path.is_file():
                raise SpecError([_diag(name, Phrase(N_("no such rule file")))])
            checked = check_spec(path)
        except SpecError as exc:
            bad += 1
            for d in exc.diagnostics:
                _err(d.located(tr))
            continue
        for warning in checked.warnings:  # even with --quiet: they change the rule book
            _err(warning.located(tr))
        rs = checked.ruleset
        if not args.quiet:
            line = f"{name}: ok ({rs.id}: {len(rs.deck)} cards, {len(rs.ladder)} bids)"
            if checked.base is not None:
                line += f"; extends {checked.base}: {merge_summary(checked.notes)}"
            if checked.warnings:
                n = len(checked.warnings)
                line += f"; {n} warning{'s' if n != 1 else ''}"
            print(line)
        if args.explain:
            for note in checked.notes:
                print(f"  {note}")
    return EXIT_USAGE if bad else 0


def _diag(file: str, message: str) -> Diagnostic:
    return Diagnostic(file, 1, 1, message)


def cmd_build(args: argparse.Namespace) -> int:
    """Compile every built-in variant into generated/ (or check that it is up to date)."""
    report: Any = None
    if not args.no_cache:
        # Nothing changed since the last build: known from the cache alone (no rule file
        # compiled, no template engine imported).
        from ...generator.buildcache import up_to_date

        report = up_to_date()
    _BUILT.append(True)
    if report is None:
        from ...generator.build import BuildInterrupted, build

        try:
            report = build(check=args.check, wait=_err, cache=False if args.no_cache else None)
        except BuildInterrupted as exc:
            # Ctrl-C came after the last file was in place: say what is done, then exit 130
            _print_build(exc.report)
            _err("interrupted after the build had completed: generated/ is up to date")
            return 130
        except KeyboardInterrupt:
            _err("interrupted: generated/ is as it was")
            return 130
    for lang, variants in report.incomplete.items():
        _err(
            f"{lang}: {len(variants)} rule book(s) translated in part, built with an "
            f'"incomplete translation" banner and linked from nowhere '
            f"(see `fivehundred i18n status --lang {lang}`)"
        )
    if args.check:
        if report.changed:
            for rel in report.sources:
                _err(f"{rel}: stale (run `fivehundred build`)")
            for rel in report.written:
                _err(f"generated/{rel}: stale (run `fivehundred build`)")
            for rel in report.removed:
                _err(f"generated/{rel}: no longer produced (run `fivehundred build`)")
            return 1
        print(f"generated/ is up to date ({report.unchanged} files)")
        return 0
    _print_build(report)
    return 0


def _print_build(report: Any) -> None:
    for rel in report.sources:
        print(f"wrote {rel}")
    for rel in report.written:
        print(f"wrote generated/{rel}")
    for rel in report.removed:
        print(f"removed generated/{rel}")
    print(
        f"{len(report.written)} written, {len(report.removed)} removed, "
        f"{report.unchanged} unchanged"
    )


def cmd_list(args: argparse.Namespace) -> int:
    """List the built-in variants."""
    from ...generator.build import compile_builtins

    for variant, (_, rs) in sorted(compile_builtins().items()):
        base = f" (extends {rs.extends})" if rs.extends else ""
        print(f"{variant:<24} {rs.name}{base}")
    return 0


def _ruleset(name: str):  # type: ignore[no-untyped-def]
    from ...generator.pipeline import check_spec, find_spec

    checked = check_spec(find_spec(name))
    for warning in checked.warnings:  # stale inherited prose: left out, and said so
        _err(str(warning))
    return checked.ruleset


def cmd_show(args: argparse.Namespace) -> int:
    """Print a variant's ladder, score table and card order per trump."""
    from ...generator.show import show_text

    sys.stdout.write(show_text(_ruleset(args.variant)))
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    """Render a variant's rule book (Markdown or one HTML page) in any language."""
    from ...generator.docs import book_gaps, book_messages, render_html, render_markdown
    from ...generator.i18n import load_translations

    translations = load_translations(args.lang)
    render = render_html if args.format == "html" else render_markdown
    rs = _ruleset(args.variant)
    missing = book_gaps(rs, args.lang)
    if missing:
        _err(
            f"{args.lang}: {len(missing)} of the {len(book_messages(rs))} messages of this rule "
            f"book are not translated and fall back to English (the book says so at the top):"
        )
        for gap in missing:
            _err(f"  {gap}")
    _write_out(args.output, render(rs, args.lang, translations, missing=missing))
    return 0


def cmd_i18n(args: argparse.Namespace) -> int:
    """Translations: extract the template, update the catalogues, report their coverage."""
    from ...generator import i18n

    pot = "specs/locales/messages.pot"
    if args.action == "extract":
        changed = i18n.write_pot(check=args.check)
        if args.check and changed:
            _err(f"{pot}: stale (run `fivehundred i18n extract`)")
            return 1
        print(f"{pot}: {'written' if changed and not args.check else 'up to date'}")
    elif args.action == "update":
        for lang, what in i18n.update_catalogues(args.lang):
            print(f"specs/locales/{lang}/LC_MESSAGES/{i18n.DOMAIN}.po: {what}")
    else:
        return _i18n_status(args)
    return 0


def _i18n_status(args: argparse.Namespace) -> int:
    """``i18n status``: coverage per language; with ``--lang`` or ``--book`` also every message
    that is not translated (``file.po:line: state: 'msgid'``); problems on standard error.

    Exit (with ``--check``): 2 when a translated message is broken (a placeholder...), 1 when a
    catalogue is incomplete, else 0. Without ``--check``: 2 on a broken message, else 0.
    """
    from ...generator import i18n

    print(
        f"{'lang':<6} {'translated':>10} {'total':>6} {'coverage':>9} "
        f"{'fuzzy':>6} {'empty':>6} {'missing':>8}"
    )
    complete = True
    books: list[tuple[str, Any]] = []
    if args.book:
        from ...generator.docs import book_messages

        books = [(name, book_messages(_ruleset(name))) for name in args.book]
    langs = [c.lang for c in i18n.coverage(args.lang)]
    for c in i18n.coverage(args.lang):
        if not books:
            complete = complete and c.translated == c.total
        print(
            f"{c.lang:<6} {c.translated:>10} {c.total:>6} {c.percent:>8.1f}% "
            f"{c.fuzzy:>6} {c.untranslated:>6} {c.missing:>8}"
        )
    for name, keys in books:
        for lang in langs:
            gaps = i18n.gaps(lang, keys)
            complete = complete and not gaps
            print(
                f"\n{lang} {name}: {len(keys) - len(gaps)} of the {len(keys)} messages of this "
                f"rule book translated, {len(gaps)} shown in English"
            )
            for gap in gaps:
                print(f"  {gap}")
    if args.lang and not books:
        for lang in langs:
            gaps = i18n.gaps(lang)
            if gaps:
                print(f"\n{lang}: {len(gaps)} message(s) not translated")
            for gap in gaps:
                print(f"  {gap}")
    broken = False
    for lang in langs:
        used = i18n.catalogue_problems(lang, fuzzy=False)
        broken = broken or bool(used)
        for problem in used:
            _err(problem)
        for problem in i18n.catalogue_problems(lang):
            if problem not in used:
                _err(f"{problem} (a fuzzy message: fix it when you review it)")
    if broken:
        return EXIT_USAGE
    if args.check and not complete:
        return 1
    return 0


def _write_out(output: str | None, text: str) -> None:
    """Write a generated document (a rule book, a rule file) to ``output`` or standard output.

    The document is written as it is, past the terminal-safe wrapper of standard output: a
    right-to-left rule book holds balanced Unicode isolates (LRI ... PDI) of ours around its
    codes and numbers, which must reach a redirected file intact; any control character of
    the author's was already neutralised by the book's filters (generator/docs.py).
    """
    if output is None or output == "-":
        raw = getattr(sys.stdout, "stream", sys.stdout)
        try:
            raw.write(text)
        except UnicodeEncodeError:  # an ASCII standard output: the document is UTF-8 still
            buffer = getattr(raw, "buffer", None)
            if buffer is None:
                raise ArgumentError(
                    f"standard output cannot hold this document ({raw.encoding}): use -o FILE"
                ) from None
            raw.flush()
            buffer.write(text.encode("utf-8"))
        return
    from ..files import write_output

    write_output(output, text.encode("utf-8"))


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record (.json) or records (.jsonl), one at a time as they are read.

    Every record gets its result (or, with ``--json``, one JSON line); a broken record or an
    illegal action gets an error on its line (stderr; with ``--json`` an ``{"error": ...}``
    line) and the run goes on. Exit 2 at the end if any failed.
    """
    from ...generator.i18n import load_translations
    from ..engine.records import error_object, read_records, replay, replay_view
    from ..loading import record_loader

    translations = load_translations(args.lang)
    load_rules = record_loader(args.rules or ())
    name = args.record
    failed = 0
    for number, record in read_records(name):
        if isinstance(record, RecordError):  # not JSON, too long: the message has its place
            failed += 1
            error = {"index": None, "action": None, "clause": None, "message": str(record)}
            _replay_failed(args.json, error, str(record))
            continue
        try:
            state = replay(record, load=load_rules)
            view = replay_view(state)
        except FiveHundredError as exc:
            failed += 1
            where = f"{name}:{number}" if number else name
            rules = _record_rules(record, load_rules)
            _replay_failed(
                args.json,
                error_object(exc, translations),
                _human(exc, where, translations, rules),
            )
            continue
        if args.json:
            print(json_printable(json.dumps(view, ensure_ascii=False)))
        else:
            _print_replay(view, translations, state.rules)
    return EXIT_USAGE if failed else 0


def _record_rules(record: object, load: Any) -> Rules | None:
    """The rules a record names (to name its special bids in an error), None when it names
    none that loads."""
    variant = record.get("variant") if isinstance(record, dict) else None
    if not isinstance(variant, str):
        return None
    try:
        rules: Rules = load(variant)
    except FiveHundredError:
        return None
    return rules


def _human(exc: FiveHundredError, where: str, translations: Any, rules: Rules | None = None) -> str:
    """Plain ``replay``'s one line for a record that failed: place, action index, message."""
    if isinstance(exc, IllegalActionError):
        return f"{where}: {_illegal_line(exc, translations, rules)}"
    index = getattr(exc, "index", None)
    from ..engine.records import one_line

    text = one_line(exc, translations)
    if index is None:
        return f"{where}: {text}"
    return f"{where}: {render(ACTION_ERROR, {'index': index, 'error': text}, translations)}"


def _replay_failed(as_json: bool, error: dict[str, Any], line: str) -> None:
    if as_json:
        print(json_printable(json.dumps({"error": error}, ensure_ascii=False)))
    else:
        _err(line)


#: How ``replay`` reports an illegal action, in the language of ``--lang``: the action's index,
#: then the sentence of :data:`ILLEGAL_BY_KIND` and the rule id.
# Translators: the line replay prints for a move that is no move at all: index is the move's
# position in the record (0 for the first), error a message such as "'7X' is not a card...".
ACTION_ERROR = N_("action %(index)s: %(error)s")
# Translators: the line replay prints for an illegal move: index is the move's position in the
# record (0 for the first), sentence a message such as "seat 2 may not bid '6S': ...", clause a
# rule id such as auction.higher (leave it as it is).
ILLEGAL_ACTION = N_("action %(index)s: %(sentence)s [%(clause)s]")


def _illegal_line(exc: IllegalActionError, translations: Any, rules: Rules | None = None) -> str:
    """The one line naming the action's index, the seat, the action and the rule id."""
    from ..engine.messages import illegal
    from ..engine.notation import notation_of

    # a person reads this line: B♥, 7 SA in Dutch, a special bid by its name (misère)
    notation = notation_of(translations, rules)
    explanation = exc.explanation
    reason = explanation.text(translations, notation) if explanation is not None else exc.reason
    kind = getattr(exc, "kind", None)
    params = {
        "index": getattr(exc, "index", "?"),
        "sentence": illegal(exc.seat, exc.action, kind, reason, translations, notation),
        "clause": exc.clause,
    }
    return render(ILLEGAL_ACTION, params, translations)


# Translators: plain replay's lines. calls are seat:call (0:pass 1:7♥), bid a bid in your
# notation, side a side's number; hand, scores and next are JSON or lists, as they are.
REPLAY_AUCTION = N_("auction: %(calls)s")
REPLAY_PASSED = N_("all passed: the hand is thrown in")
# Translators: plain replay: seat asked for a redeal (the house rule "no ace, no face").
REPLAY_REDEAL = N_(
    "seat %(seat)s asked for a redeal (no ace, no face): the same dealer deals again"
)
REPLAY_CONTRACT = N_("contract: %(bid)s by seat %(seat)s (side %(side)s)")
# Translators: plain replay: one trick, number its number (1 to 10, right-aligned), cards each
# as seat:card, seat the seat that won it.
REPLAY_TRICK = N_("trick %(number)s: %(cards)s  -> seat %(seat)s")
REPLAY_HAND = N_("hand: %(hand)s")
# Translators: plain replay: the scores after the hand, scores a list of one item per side
# (REPLAY_SIDE_SCORE or REPLAY_SEAT_SCORE below).
REPLAY_SCORES = N_("scores: %(scores)s")
# Translators: plain replay: one side's score in the scores line; side is its number, seats
# its seats' numbers (0, 2), score its points.
REPLAY_SIDE_SCORE = N_("side %(side)s (seats %(seats)s) %(score)s")
# Translators: plain replay: the score of a side that is one player (seat its number).
REPLAY_SEAT_SCORE = N_("seat %(seat)s %(score)s")
# Translators: plain replay: the game ended with this hand; side is the winning side's number,
# seats its seats' numbers (0, 2).
REPLAY_SIDE_WON = N_("the game is over: side %(side)s (seats %(seats)s) won")
# Translators: plain replay: the game ended with this hand, won by the one player of a side.
REPLAY_SEAT_WON = N_("the game is over: seat %(seat)s won")
REPLAY_GOES_ON = N_("no side has won the game yet: the game goes on")
# Translators: plain replay: the record stops before the end of the hand.
REPLAY_UNFINISHED = N_("the record stops before the end of the hand: the game is not decided")
REPLAY_NEXT = N_("next: %(next)s")


def _print_replay(
    view: dict[str, Any], translations: Any = None, rules: Rules | None = None
) -> None:
    """Plain ``replay``'s lines: in the language of ``translations``, the calls, the contract
    and the tricks' cards in its notation (``B♥``, ``7 SA`` in Dutch; ``J♥`` in English; a
    special bid of ``rules`` by its name), the JSON of the hand as it is, the scores side by
    side and whether the game is over and who won, in words."""
    from ..engine.notation import notation_of

    notation = notation_of(translations, rules)

    def say(template: str, **params: Any) -> None:
        print(render(template, params, translations))

    contract = view["contract"]

    def item(seat: object, code: str, kind: str) -> str:  # 2:7 SA, one isolate in Arabic
        return notation.isolate(f"{seat}:{notation.action_text(code, kind)}")

    calls = " ".join(item(c["seat"], c["call"], "bid") for c in view["auction"])
    say(REPLAY_AUCTION, calls=calls)
    redeal = [c["seat"] for c in view["auction"] if c["call"] == "redeal"]
    if redeal:
        say(REPLAY_REDEAL, seat=redeal[0])
    elif contract is None:
        # thrown in: not while the auction goes on, nor when an all-passed hand is played
        if view["hand"]["complete"] and not view["tricks"]:
            say(REPLAY_PASSED)
    else:
        bid = notation.isolate(notation.bid(contract["bid"]))
        say(REPLAY_CONTRACT, bid=bid, seat=contract["seat"], side=contract["side"])
    for n, trick in enumerate(view["tricks"], 1):
        cards = " ".join(item(c["seat"], c["card"], "card") for c in trick["cards"])
        say(REPLAY_TRICK, number=f"{n:>2}", cards=cards, seat=trick["winner"])
    say(REPLAY_HAND, hand=json.dumps(view["hand"]))
    sides = _replay_sides(view, rules)
    separator = translations.pgettext("list separator", ", ") if translations else ", "

    def side_text(template_side: str, template_seat: str, side: int, **params: Any) -> str:
        seats = sides[side] if side < len(sides) else []
        if len(seats) == 1:
            return render(template_seat, {"seat": seats[0], **params}, translations)
        shown = separator.join(str(seat) for seat in seats)
        return render(template_side, {"side": side, "seats": shown, **params}, translations)

    scores = [
        side_text(REPLAY_SIDE_SCORE, REPLAY_SEAT_SCORE, side, score=_signed(score, notation))
        for side, score in enumerate(view["scores"])
    ]
    say(REPLAY_SCORES, scores=separator.join(scores))
    if view["winner"] is not None:
        print(side_text(REPLAY_SIDE_WON, REPLAY_SEAT_WON, view["winner"]))
    elif view["hand"]["complete"]:
        say(REPLAY_GOES_ON)
    else:
        say(REPLAY_UNFINISHED)
    if "next" in view:
        say(REPLAY_NEXT, next=json.dumps(view["next"]))


def _replay_sides(view: dict[str, Any], rules: Rules | None) -> list[list[int]]:
    """The seats of each side (by the rules; without them, each side its own seat)."""
    if rules is None:
        return [[side] for side in range(len(view["scores"]))]
    return [
        [seat for seat in range(rules.players) if rules.side_of_seat[seat] == side]
        for side in range(rules.n_sides)
    ]


def _signed(score: int, notation: Any) -> str:
    """A score with a real minus sign, isolated in a right-to-left language."""
    return notation.isolate(f"\u2212{-score}") if score < 0 else str(score)


def cmd_conformance(args: argparse.Namespace) -> int:
    """Clause coverage of a variant's conformance vectors; with --engine, run an engine on them."""
    from ...generator.build import GENERATED_DIR
    from ...generator.pipeline import compile_spec, find_spec
    from ..adapters.conformance import (
        EngineError,
        build_vectors,
        check_engine,
        coverage,
        read_vectors,
        vector_file,
    )
    from ..loading import load_rules

    timeout = args.timeout
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise ArgumentError(
            f"--timeout must be seconds from 0 to {MAX_TIMEOUT} (more than 0), not {timeout:g}"
        )
    if args.show < 0:
        raise ArgumentError(f"--show must be 0 or more, not {args.show}")
    if args.engine is not None and not args.engine.strip():
        raise ArgumentError("--engine is empty: give the engine's command line")
    if args.vectors is not None and not args.vectors:
        raise ArgumentError("--vectors is empty: give a conformance file")
    rules = load_rules(args.variant)
    with contextlib.ExitStack() as stack:
        vectors: Any
        if args.vectors is not None:  # read a vector at a time: a file of any size
            vectors = stack.enter_context(vector_file(args.vectors))
        else:
            built = GENERATED_DIR / "conformance" / f"{rules.variant}.jsonl"
            builtin = "/" not in args.variant and not args.variant.endswith((".yaml", ".yml"))
            if builtin and built.is_file():
                _, vectors = read_vectors(built.read_text(encoding="utf-8"))
            else:
                # A rule file's records name the file, so that any engine given them can find
                # it.
                vectors = [
                    {**v, "record": {**v["record"], "variant": args.variant}}
                    for v in build_vectors(rules)
                ]
        clause_ids = [c["id"] for c in compile_spec(find_spec(args.variant)).clauses]
        cov = coverage(clause_ids, vectors)
        print(f"{rules.variant}: {len(vectors)} vectors")
        for line in cov.lines():
            print(line)
        if args.engine is None:
            return 0
        try:
            run = check_engine(args.engine, vectors, timeout=args.timeout, keep=args.show)
        except EngineError as exc:
            _err(f"conformance: {exc}")
            return EXIT_USAGE
    for d in run.disagreements:
        print(d.line())
    more = run.wrong - len(run.disagreements) + (1 if run.too_many else 0)
    if run.too_many and len(run.disagreements) < args.show:
        print(f'(end): lines: expected {run.vectors}, got "more"')
        more -= 1
    if more > 0:
        print(f"... and {more} more")
    print(f"{run.vectors - run.wrong}/{run.vectors} vectors agree")
    return 1 if run.wrong or run.too_many else 0


#: The longest line ``play`` reads from a pipe or a file (as ``replay`` reads records).
MAX_INPUT_LINE = 1 << 20

#: The longest ``conformance --timeout`` (a week of seconds).
MAX_TIMEOUT = 604_800


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many hands or games with bots; print a summary."""
    from ..bots.registry import BotSpecError, make_bot, split_bots
    from ..loading import load_rules
    from ..studies.simulate import CHECK_SAMPLE, MAX_HANDS, progress_bar, simulate

    if (args.hands is None) == (args.games is None):
        raise SpecError([_diag("simulate", "give exactly one of --hands N or --games N")])
    count = args.hands if args.hands is not None else args.games
    if count < 1:
        raise SpecError([_diag("simulate", "the count must be at least 1")])
    if args.max_hands is not None and args.games is None:
        raise SpecError([_diag("--max-hands", "--max-hands caps a game: give it with --games N")])
    max_hands = MAX_HANDS if args.max_hands is None else args.max_hands
    if max_hands < 1:
        raise SpecError([_diag("--max-hands", f"must be at least 1, not {max_hands}")])
    rules = load_rules(args.variant)
    bots = split_bots(args.bots) if args.bots is not None else None  # '': no bot named
    for bot in bots or []:
        try:
            make_bot(bot)
        except BotSpecError as exc:
            raise SpecError([_diag("--bots", str(exc))]) from None
    if bots and len(bots) not in (1, rules.players):
        raise SpecError([_diag("--bots", f"give 1 or {rules.players} bots")])
    # a bar on a terminal; elsewhere a plain line every few seconds of a long run (a short one
    # prints none): bots that search take seconds a game, so even 200 games show progress
    show_progress = not args.json
    with contextlib.ExitStack() as stack:
        out: Any = None
        if args.records is not None:  # '' is refused by open_output, not ignored
            from ..files import open_output

            out = stack.enter_context(open_output(args.records, text=True))
        summary = simulate(
            rules,
            hands=args.hands or 0,
            games=args.games or 0,
            seed=args.seed,
            bots=bots,
            records=out,
            check=not args.no_check,
            check_every=1 if args.check_all else CHECK_SAMPLE,
            progress=progress_bar(unit="hands" if args.hands else "games")
            if show_progress
            else None,
            max_hands=max_hands,
            clauses=args.clauses,
        )
    data = summary.as_json()
    if args.json:
        print(json.dumps(data))
    else:
        if summary.interrupted:
            done = summary.hands if args.hands else summary.games
            unit = "hands" if args.hands else "games"
            print(f"interrupted: the figures below are of the {done} of {count} {unit} finished")
        for key, value in data.items():
            if key == "clauses" and value is not None:
                print("clauses (hands in which the rule decided something):")
                for clause, hands in value.items():
                    print(f"  {clause}: {hands}")
            elif key != "interrupted" and value is not None:
                print(f"{key}: {value}")
        if summary.cut_off:
            print(
                f"note: {summary.cut_off} of {summary.games} games had no winner after "
                f"{max_hands} hands and were cut off (not counted as won by anyone); "
                "raise --max-hands to play them further"
            )
    return 130 if summary.interrupted else 0


def cmd_balance(args: argparse.Namespace) -> int:
    """A balance study: whole games by bots, figures with confidence intervals."""
    from .balancecli import run_balance

    return run_balance(args)


def cmd_play(args: argparse.Namespace) -> int:
    """Play a game against bots at the terminal, in the language of ``--lang``."""
    from ...generator.i18n import load_translations
    from ..bots.registry import BotSpecError, make_bot, split_bots
    from ..loading import load_rules
    from .play import play_match

    rules = load_rules(args.variant)
    if not 0 <= args.seat < rules.players:
        raise SpecError([_diag("--seat", f"a seat is 0..{rules.players - 1}")])
    bots = split_bots(args.bots) if args.bots is not None else ["heuristic"]
    for bot in bots:
        try:
            make_bot(bot)
        except BotSpecError as exc:
            raise SpecError([_diag("--bots", str(exc))]) from None
    if len(bots) not in (1, rules.players):
        raise SpecError([_diag("--bots", f"give 1 or {rules.players} bots")])

    translations = load_translations(args.lang)
    if sys.stdin is None or sys.stdin.closed:
        raise ArgumentError("play reads your moves from standard input, which is closed")

    stdin = sys.stdin
    interactive = stdin.isatty()

    def read(prompt: str) -> str:
        if interactive:  # a person types: line editing, and the terminal bounds a line
            return input(prompt)  # EOFError ends the game quietly
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = stdin.readline(MAX_INPUT_LINE + 1)  # a pipe or a file: at most 1 MiB a line
        if not line:
            raise EOFError
        if len(line) > MAX_INPUT_LINE:
            raise ArgumentError(
                f"play: a line of standard input is longer than {MAX_INPUT_LINE} characters"
            )
        return line.rstrip("\r\n")

    play_match(
        rules,
        read,
        sys.stdout,
        seed=args.seed,
        seat=args.seat,
        bots=bots,
        translations=translations,
        autoplay=not args.no_autoplay,
    )
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    """A position from one seat's view; print the bot's action and its reason.

    The hand and the actions may be written with suit symbols (``J♥``) or in the notation of
    ``--lang`` (Dutch ``B♥``); the plain line names the action in that notation and gives the
    bot's reason in that language (its bids in the notation too), ``--json`` keeps the code and
    the English reason.
    """
    from ...generator.i18n import load_translations
    from ..adapters.api import Game
    from ..bots.registry import BotSpecError, make_bot
    from ..engine.notation import notation_of
    from ..loading import load_rules
    from ..terminal import printable

    try:
        make_bot(args.bot)
    except BotSpecError as exc:
        raise SpecError([_diag("--bot", str(exc))]) from None
    translations = load_translations(args.lang)
    rules = load_rules(args.variant)
    notation = notation_of(translations, rules)  # a special bid by its name (misère)
    game = Game(rules)
    scores: list[int] | None = None
    if args.scores.strip():
        try:
            scores = [int(x) for x in args.scores.split(",")]
        except ValueError:
            raise SpecError([_diag("--scores", "whole numbers, comma-separated")]) from None
        if len(scores) != game.num_sides:
            raise SpecError([_diag("--scores", f"give {game.num_sides} scores, one per side")])
    actions = [a.strip() for a in args.actions.split(",") if a.strip()]
    state = game.position(
        args.seat,
        args.hand.split(),
        actions,
        dealer=args.dealer,
        scores=scores,
        kitty=args.kitty.split() or None,
        notation=notation,
    )
    if state.is_over():
        raise ArgumentError("hint: the hand is over after those actions")
    seat = state.hand.controller(state.hand.to_move)
    if seat != args.seat:
        raise ArgumentError(f"hint: seat {seat} is to decide after those actions, not {args.seat}")
    action, reason = state.hint(args.bot)
    if args.json:
        print(
            json.dumps(
                {
                    "seat": seat,
                    "phase": state.phase,
                    "action": action,
                    "reason": reason,
                    "bot": args.bot,
                }
            )
        )
    else:
        from ..bots.reasons import reason_text
        from .play import HINT

        shown = notation.action(action, "bid" if state.phase == "auction" else None)
        said = {"action": shown, "reason": reason_text(reason, translations)}
        print(printable(render(HINT, said, translations)))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve tables in the browser until interrupted."""
    import socket
    import sqlite3

    from ..server.app import serve
    from ..server.store import Store

    if not 0 <= args.port <= 65535:
        raise SpecError([_diag("--port", "a port is 0..65535")])
    try:
        with socket.create_server((args.host, args.port)):
            pass  # free and allowed: uvicorn binds it next
    except OSError as exc:
        raise ArgumentError(
            f"{args.host}:{args.port}: cannot listen: {os_error_text(exc)}"
        ) from None
    if args.db != ":memory:":
        folder = Path(args.db).resolve().parent
        if not folder.is_dir():
            raise ArgumentError(f"{args.db}: no such folder {folder}")
        if Path(args.db).exists() and not Path(args.db).is_file():
            raise ArgumentError(f"{args.db}: not a file; give the tables' database file")
    try:  # a folder, a full disk, a file that is no database: said now, not by a traceback
        Store(args.db).close()
    except sqlite3.Error as exc:
        raise ArgumentError(f"{args.db}: cannot keep the tables there: {exc}") from None
    where = f"http://{args.host}:{args.port}/"
    print(f"fivehundred serve: {where} (tables kept in {args.db}; Ctrl-C stops)", flush=True)
    serve(args.host, args.port, args.db)
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    """Two bots play whole games against each other; print A's win rate and its interval."""
    from ..bots.registry import BotSpecError, make_bot
    from ..loading import load_rules
    from ..studies.duel import DuelResult, duel

    for bot in (args.a, args.b):
        try:
            make_bot(bot)
        except BotSpecError as exc:
            raise SpecError([_diag("duel", str(exc))]) from None
    if args.games < 1:
        raise SpecError([_diag("--games", f"must be at least 1, not {args.games}")])
    if args.max_hands < 1:
        raise SpecError([_diag("--max-hands", f"must be at least 1, not {args.max_hands}")])
    rules = load_rules(args.variant)

    bar = progress(sys.stderr, "duel", "games", last_line=False)

    def show(done: DuelResult) -> None:
        bar(done.games, args.games)

    live = not args.json
    result = duel(
        rules,
        args.a,
        args.b,
        args.games,
        seed=args.seed,
        max_hands=args.max_hands,
        progress=show if live else None,
    )
    data = result.as_json()
    if args.json:
        print(json.dumps(data))
    else:
        for key, value in data.items():
            print(f"{key}: {value}")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    """Print the rule differences between two variants in plain English."""
    from ...generator.diff import format_differences

    sys.stdout.write(format_differences(_ruleset(args.a), _ruleset(args.b)))
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    """Write a commented starter rule file for a house variant (never overwrites)."""
    from ...generator.newvariant import new_variant

    path = new_variant(args.name, args.extends, args.output)
    print(f"wrote {path}: edit it, then `fivehundred validate {path}`")
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    """Build, remove or report the compiled build of the bots' hot modules (runtime/native.py)."""
    from ..native import NativeError, build, remove, status

    if args.remove:
        for path in remove():
            print(f"removed {path}")
    elif not args.status:
        try:
            made = build(verbose=args.verbose)
        except NativeError as exc:
            _err(f"fivehundred compile: {exc}")
            return 2
        for path in made:
            print(f"wrote {path}")
    for state in status():
        print(state.line())
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Time the engine's fast path against the hand-written reference in the same run."""
    from ..engine.game import load_builtin
    from ..studies.benchmark import run_benchmark

    if args.hands < 1 or args.rounds < 1:
        raise ArgumentError(
            f"bench needs --hands and --rounds of at least 1, got {args.hands} and {args.rounds}"
        )
    variants = None
    if args.variants is not None:
        variants = [v for v in args.variants.split(",") if v]
        if not variants:
            raise ArgumentError(
                f"bench --variants names no variant ({args.variants!r}): give ids from"
                " fivehundred list, separated by commas"
            )
        for variant in variants:
            try:
                load_builtin(variant)
            except KeyError:
                raise ArgumentError(
                    f"bench --variants: {variant!r} is not a built-in variant (fivehundred list)"
                ) from None
    result = run_benchmark(args.hands, args.seed, args.rounds, variants)
    if args.json:
        print(json.dumps(result))
        return 0
    for key, value in result.items():
        if key != "variants":
            print(f"{key}: {value}")
    print(
        f"{'variant':<22} {'hands/s':>9} {'decisions/s':>12} {'x checked':>9} {'x reference':>11}"
    )
    for variant, row in result["variants"].items():
        print(
            f"{variant:<22} {row['hands_per_second']:>9,.0f} {row['decisions_per_second']:>12,.0f}"
            f" {row['ratio_to_checked_engine']:>9.2f} {row['ratio_to_reference_decisions']:>11.2f}"
            + ("" if row["generated"] else "  (checked path: no generated engine)")
        )
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivehundred",
        description="Five Hundred and its variants: rule specs, engine and rule books.",
    )
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    p = sub.add_parser("validate", help="check rule files; every problem as file:line:col")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    p.add_argument(
        "--lang",
        default="en",
        help="language of the problems' messages (the quoted keys and values as written): en, "
        "nl, nb, da, ar, pt (default en)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="list what extends did: each setting overridden or added, each special bid and "
        "choice inherited, overridden, added or removed, each list replaced",
    )
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("build", help="compile the built-in variants into generated/")
    p.add_argument("--check", action="store_true", help="fail (exit 1) if generated/ is stale")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="render every file (ignore and do not update .fivehundred-cache/)",
    )
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("list", help="list the built-in variants")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("show", help="ladder, score table and card order per trump")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("docs", help="render a variant's rule book")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--lang", default="en", help="language: en, nl, nb, da, ar, pt (default en)")
    p.add_argument("--format", default="md", choices=["md", "html"])
    p.add_argument("-o", "--output", help="write here instead of standard output")
    p.set_defaults(run=cmd_docs)

    p = sub.add_parser("replay", help="replay a game record; print the hand and its score")
    p.add_argument("record", metavar="RECORD", help="a .json record or a .jsonl of records")
    p.add_argument("--json", action="store_true", help="one JSON object per record")
    p.add_argument(
        "--lang",
        default="en",
        help="language of the plain output and the error messages, cards and bids in its "
        "notation (nl: B♥, 7 SA); --json keeps the codes (default en)",
    )
    p.add_argument(
        "--rules",
        action="append",
        metavar="FILE",
        help="a rule file the records may name (by its id or this path; repeatable); without "
        "it a record's variant must be a built-in id",
    )
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser(
        "conformance",
        help="clause coverage of the conformance vectors; run another engine over them",
        description="Print the clause coverage of a variant's conformance vectors "
        "(generated/conformance/VARIANT.jsonl; built in memory for a rule file). With --engine, "
        "run CMD once, write every vector's record to its stdin as one JSON line, read one JSON "
        "line per record from its stdout (what `replay --json` prints, or an error object) and "
        "list the disagreements. Exit 0: all agree; 1: disagreements; 2: the variant, the "
        "vectors or the engine could not be used.",
    )
    p.add_argument("variant", metavar="VARIANT", help="a built-in variant id or a rule file")
    p.add_argument("--engine", metavar="CMD", help="the engine command line to run")
    p.add_argument("--vectors", metavar="FILE", help="a vector file instead of the built one")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds (default 120)")
    p.add_argument("--show", type=int, default=20, help="disagreements to print (default 20)")
    p.set_defaults(run=cmd_conformance)

    p = sub.add_parser("simulate", help="play many hands or games with bots")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--hands", type=int, help="independent hands from 0-0")
    p.add_argument("--games", type=int, help="whole games to the end")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--bots",
        help="bot names, one or one per seat, comma-separated: random, heuristic, search, "
        "search:SAMPLES[:SECONDS], search:samples=N,ms=M,... (random)",
    )
    p.add_argument("--records", metavar="OUT.jsonl", help="write every hand's record here")
    p.add_argument("--json", action="store_true", help="print one JSON summary")
    p.add_argument(
        "--clauses",
        action="store_true",
        help="count the hands in which each rule clause decided something (checked engine)",
    )
    checks = p.add_mutually_exclusive_group()
    checks.add_argument(
        "--no-check", action="store_true", help="skip the invariant checks of finished hands"
    )
    checks.add_argument(
        "--check-all",
        action="store_true",
        help="check every hand (default: the first 64 hands, then every 64th)",
    )
    p.add_argument(
        "--max-hands",
        type=int,
        metavar="N",
        help="with --games: stop a game still without a winner after N hands and report it "
        "as cut off (default 10000)",
    )
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser(
        "balance",
        help="balance study: whole games by bots; what the rules do to the game",
        description="Play whole games of a variant with bots and report contracts, make "
        "rates, points, game length and endings, seat advantage and the rule clauses reached, "
        "each with a 95% confidence interval; --against compares two variants on the same "
        "deals. --write refreshes the committed summaries the rule books read.",
    )
    p.add_argument("variant", metavar="VARIANT|FILE", nargs="*", help="(--write: default all)")
    p.add_argument("--against", metavar="VARIANT|FILE", help="compare with this variant")
    p.add_argument("--games", type=int, metavar="N", help="whole games per variant")
    p.add_argument(
        "--bots", metavar="NAME", help="bot name, or one per seat comma-separated (heuristic)"
    )
    p.add_argument("--seed", type=int, default=1, metavar="S", help="master seed (1)")
    p.add_argument("--workers", type=int, metavar="K", help="processes on this machine (all cores)")
    p.add_argument("--ray", metavar="ADDRESS", help="run as Ray tasks: a cluster address, or local")
    p.add_argument("--max-hands", type=int, metavar="M", help="cut a game off after M hands (200)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", metavar="DIR", help="write report.md, report.json and SVG charts")
    p.add_argument(
        "--write",
        action="store_true",
        help="refresh generated/balance/ (the rule books' summaries), then rebuild the books",
    )
    p.set_defaults(run=cmd_balance)

    p = sub.add_parser("play", help="play a game against bots at the terminal")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--seat", type=int, default=0, help="your seat (0)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--bots",
        help="the other seats' bots: one name, or one per seat (yours ignored), comma-separated: "
        "random, heuristic, search, search:SAMPLES[:SECONDS], search:samples=N,ms=M,... "
        "(heuristic)",
    )
    p.add_argument(
        "--lang",
        default="en",
        help="language of the game: its messages, and cards and bids in its notation, which "
        "you may type besides the codes (nl: B♥, 7 SA); en, nl, nb, da, ar, pt (default en)",
    )
    p.add_argument(
        "--no-autoplay",
        action="store_true",
        help="ask for every move, even the only legal one (by default it is played for you, "
        "and a line says so)",
    )
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("serve", help="tables in the browser: play with friends and bots")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8500, help="port (8500)")
    p.add_argument(
        "--db", default="fivehundred-tables.sqlite", help="the tables' SQLite file (created)"
    )
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser(
        "hint", help="a position from one seat's view: what a bot would do there, and why"
    )
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--seat", type=int, required=True, help="the seat to decide for")
    p.add_argument("--hand", required=True, help="its cards now, e.g. 'JK JH 10H 9S'")
    p.add_argument(
        "--actions",
        default="",
        help="the hand so far as a record writes it, comma-separated, from the first call "
        "(another seat's discard left out): '6H,pass,7S,pass,pass,pass,take,discard 4D 5C 6C,AS'",
    )
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (0)")
    p.add_argument("--kitty", default="", help="the kitty's cards, if the seat took it")
    p.add_argument("--scores", default="", help="the sides' scores, comma-separated (0 each)")
    p.add_argument("--bot", default="heuristic", help="heuristic (default), heuristic-1, search")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--lang",
        default="en",
        help="language of the line printed; the notation of its cards and bids, which the hand "
        "and the actions may use besides the codes (nl: B♥, 7 SA; default en: J♥, 7NT)",
    )
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser(
        "duel", help="two bots play whole games, seats and deals balanced; A's win rate"
    )
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument(
        "a",
        metavar="A",
        help="bot A (random, heuristic, search[:SAMPLES[:SECONDS]], "
        "search:samples=N,ms=M,..., search-1)",
    )
    p.add_argument("b", metavar="B", help="bot B")
    p.add_argument("--games", type=int, default=100, help="games to play (100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-hands", type=int, default=200, help="cut a game off after N hands")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_duel)

    p = sub.add_parser("diff", help="the rule differences between two variants, in English")
    p.add_argument("a", metavar="A", help="variant id or rule file")
    p.add_argument("b", metavar="B", help="variant id or rule file")
    p.set_defaults(run=cmd_diff)

    p = sub.add_parser("new", help="write a commented starter file for a house variant")
    p.add_argument("name", metavar="NAME", help="the new variant's id; the file is NAME.yaml")
    p.add_argument("--extends", required=True, metavar="VARIANT", help="base: id or rule file")
    p.add_argument("-o", "--output", metavar="PATH", help="write here instead of ./NAME.yaml")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("i18n", help="translations: extract, update catalogues, coverage")
    p.add_argument(
        "action",
        choices=["extract", "update", "status"],
        help="extract: write specs/locales/messages.pot; update: merge it into the catalogues "
        "(creating those of new --lang codes); status: coverage per language",
    )
    p.add_argument(
        "--lang",
        action="append",
        metavar="LL",
        help="only this language (repeatable); status: also list its untranslated messages",
    )
    p.add_argument(
        "--book",
        action="append",
        metavar="VARIANT",
        help="status: the messages this variant's rule book needs, per language (repeatable)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="extract: exit 1 if messages.pot is stale; status: exit 1 unless complete "
        "(exit 2 on a broken message, with or without --check)",
    )
    p.set_defaults(run=cmd_i18n)

    p = sub.add_parser(
        "compile",
        help="compile the heuristic bot and the seat view to C with mypyc (optional: faster "
        "balance studies and simulations with heuristic bots)",
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument("--remove", action="store_true", help="delete the compiled build")
    what.add_argument("--status", action="store_true", help="say what is compiled and current")
    p.add_argument(
        "--verbose", action="store_true", help="show mypyc's and the C compiler's output"
    )
    p.set_defaults(run=cmd_compile)

    p = sub.add_parser("bench", help="engine speed as a ratio to a hand-written reference")
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3, help="best of this many timings each")
    p.add_argument(
        "--variants",
        metavar="VARIANT[,VARIANT...]",
        help="the built-in variants to time one by one (default: all; a tenth of --hands each)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench)
    return parser


class _Closed:
    """Standard output or error when the process was started with it closed: writing fails."""

    def __init__(self, which: str) -> None:
        self.which = which
        self.closed = True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, f"standard {self.which} is closed")

    def flush(self) -> None:
        """Nothing was written."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Everything printed goes through :class:`~fivehundred.runtime.terminal.SafeStream`, so text
    from rule files and records cannot drive the terminal. Every user error, and every refusal
    of the system (a full disk, a closed output), is one line on standard error and exit code 2;
    Ctrl-C is exit code 130.
    """
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = cast(TextIO, SafeStream(stdout if stdout is not None else _Closed("output")))
    sys.stderr = cast(TextIO, SafeStream(stderr if stderr is not None else _Closed("error")))
    try:
        code = _run(argv)
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _quiet_stdout()
        except OSError as exc:
            _quiet_stdout()
            _report(f"cannot write to standard output: {os_error_text(exc)}")
            code = EXIT_USAGE
        return code
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _report(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # no standard error: the exit code says it
        _err(message)


def _quiet_stdout() -> None:
    """Point file descriptor 1 at /dev/null so the interpreter's last flush cannot fail noisily
    (the recipe of Python's documentation for SIGPIPE)."""
    real = sys.__stdout__
    if real is None:
        return
    if getattr(sys.stdout, "stream", None) is not sys.__stdout__:
        return  # not the process's own standard output (a test's capture): leave it alone
    with contextlib.suppress(OSError, ValueError):
        fd = real.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)


class Terminated(BaseException):
    """SIGTERM or SIGHUP came: unwound like Ctrl-C, so every temporary is removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _terminate_cleanly() -> Any:
    """For the block, SIGTERM and SIGHUP raise :class:`Terminated` in this process (an output
    being written, such as ``simulate --records``, removes its temporary on the way out);
    forked workers keep the default action. Only in the main thread (signals go there)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def handler(signum: int, frame: Any) -> None:
        if os.getpid() != owner:  # a forked worker: die as it would have
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated(signum)

    names = [n for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    previous = {n: signal.signal(getattr(signal, n), handler) for n in names}
    try:
        yield
    finally:
        for n, old in previous.items():
            signal.signal(getattr(signal, n), old)


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        with _terminate_cleanly():
            code: int = args.run(args)
    except SpecError as exc:
        for d in exc.diagnostics:
            _report(str(d))
        return EXIT_USAGE
    except FiveHundredError as exc:
        for problem in getattr(exc, "problems", None) or [str(exc)]:  # a catalogue's: each
            _report(problem)
        for note in getattr(exc, "__notes__", ()):
            _report(note)
        return EXIT_USAGE
    except KeyboardInterrupt:
        _report("interrupted")
        return 130
    except Terminated as exc:
        _report("terminated")
        return 128 + exc.signum
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as exc:
        if exc.filename is None:  # standard output (full disk, closed): drop what is buffered
            _quiet_stdout()
            _report(f"cannot write: {os_error_text(exc)}")
        elif exc.filename2 is not None:
            _report(f"{exc.filename} -> {exc.filename2}: {os_error_text(exc)}")
        else:
            _report(f"{exc.filename}: {os_error_text(exc)}")
        return EXIT_USAGE
    except RecursionError:
        _report("the input is nested too deeply to read")
        return EXIT_USAGE
    except MemoryError:
        _report("out of memory")
        return EXIT_USAGE
    return code


#: Set by a build that ran: the process may end without tearing its heap down (see run()).
_BUILT: list[bool] = []


def run() -> None:
    """The ``fivehundred`` command: :func:`main`, then exit with its code.

    After a build (every file written, synced and closed) the process ends at once, skipping
    the interpreter's tear-down of the rule files, templates and books it holds, which costs
    a build a fifteenth of its time; standard output and error are flushed first. Any other
    command exits normally (its libraries may have exit handlers)."""
    code = main()
    if _BUILT:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
