"""Game records (INTERCHANGE.md): reading, checking, replaying, and the ``replay --json`` view."""

from __future__ import annotations

import json
import reprlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .codes import bits
from .errors import (
    FiveHundredError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    SpecError,
)
from .game import game_winner, gone_out, load_builtin
from .hand import OVER, HandState
from .messages import N_
from .rules import Rules

__all__ = [
    "MAX_RECORD_BYTES",
    "MAX_SCORE",
    "RECORD_FORMAT",
    "error_object",
    "hand_from_record",
    "json_lines",
    "json_lines_of",
    "load_records",
    "one_line",
    "parse_record",
    "read_records",
    "record_actions",
    "record_of",
    "replay",
    "replay_view",
]


#: The record errors about one place of the deal, each a whole sentence per place (a hand, the
#: kitty, the dead hand), so a translator never has to fit a place into a sentence.
_PLACE_ERRORS: dict[str, tuple[str, str, str, str]] = {
    "hand": (
        N_("the hand of seat %(seat)s must be a list of card codes"),
        # Translators: code is what the record has instead of a card (quoted), variant an id.
        N_("the hand of seat %(seat)s holds %(code)s, which is not a card of %(variant)s"),
        N_("the hand of seat %(seat)s holds %(card)s, which the deal has already given out"),
        N_(
            "the number of cards in the hand of seat %(seat)s is %(count)s, but %(variant)s "
            "deals %(size)s to each seat"
        ),
    ),
    "kitty": (
        N_("the kitty must be a list of card codes"),
        N_("the kitty holds %(code)s, which is not a card of %(variant)s"),
        N_("the kitty holds %(card)s, which the deal has already given out"),
        N_("the number of cards in the kitty is %(count)s, but %(variant)s has %(size)s"),
    ),
    "dead": (
        N_("the dead hand must be a list of card codes"),
        N_("the dead hand holds %(code)s, which is not a card of %(variant)s"),
        N_("the dead hand holds %(card)s, which the deal has already given out"),
        N_("the number of cards in the dead hand is %(count)s, but %(variant)s has %(size)s"),
    ),
}


def _cards(rules: Rules, codes: Any, place: str, seat: int, size: int, seen: set[int]) -> int:
    """The cards of one place of the deal as a mask; :class:`RecordError` in a whole sentence."""
    not_list, not_card, twice, count = _PLACE_ERRORS[place]
    if not isinstance(codes, list):
        raise RecordError.of(not_list, seat=seat)
    mask = 0
    for code in codes:
        try:
            c = rules.card(code) if isinstance(code, str) else -1
        except InvalidActionError:
            c = -1
        if c < 0:
            raise RecordError.of(not_card, seat=seat, code=repr(code), variant=rules.variant)
        if c in seen:
            raise RecordError.of(twice, seat=seat, card=rules.deck[c])
        seen.add(c)
        mask |= 1 << c
    if mask.bit_count() != size:
        raise RecordError.of(
            count, seat=seat, count=mask.bit_count(), variant=rules.variant, size=size
        )
    return mask


#: The version of the game-record format (INTERCHANGE.md, "Game record"): written by
#: :func:`record_of`; a record without ``format`` is of format 1.
RECORD_FORMAT = 1


def hand_from_record(
    record: Any, rules: Rules | None = None, load: Callable[[str], Rules] | None = None
) -> tuple[Rules, HandState, list[Any]]:
    """The rules, the freshly dealt hand and the action list of a record; :class:`RecordError`.

    ``rules`` (a variant loaded already, e.g. from a rule file) is used instead of loading the
    record's ``variant``, which must then name it. Otherwise ``load`` finds the record's variant
    (by default only a built-in one: see :func:`fivehundred.runtime.loading.load_rules` for rule
    files).
    """
    if not isinstance(record, dict):
        raise RecordError.of(N_("a record must be a JSON object"))
    version = record.get("format", RECORD_FORMAT)
    if version != RECORD_FORMAT or isinstance(version, bool):
        raise RecordError.of(
            N_("this engine reads game records of format %(expected)s, not %(format)s"),
            expected=RECORD_FORMAT,
            format=repr(version),
        )
    if "variant" not in record:
        raise RecordError.of(N_("the record has no 'variant'"))
    variant = record["variant"]
    if not isinstance(variant, str):  # a number, a list: no variant's id (quoted short)
        raise RecordError.of(
            N_("the record's variant %(variant)s is not a built-in variant"),
            variant=reprlib.repr(variant),
        )
    if rules is None:
        rules = _builtin_of_record(variant) if load is None else load(variant)
    elif variant != rules.variant:
        raise RecordError.of(
            N_("the record is of %(variant)s, not %(expected)s"),
            variant=repr(variant),
            expected=repr(rules.variant),
        )
    dealer = record.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise RecordError.of(
            N_("'dealer' must be a seat from 0 to %(last)s, not %(dealer)s"),
            last=rules.players - 1,
            dealer=repr(dealer),
        )
    deal = record.get("deal")
    if not isinstance(deal, dict):
        raise RecordError.of(N_("the record has no 'deal'"))
    hands_in = deal.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != rules.players:
        raise RecordError.of(
            N_("'deal.hands' must hold %(count)s hands, one per seat"), count=rules.players
        )
    seen: set[int] = set()
    hands = [
        _cards(rules, codes, "hand", seat, rules.hand_size, seen)
        for seat, codes in enumerate(hands_in)
    ]
    kitty = _cards(rules, deal.get("kitty", []), "kitty", 0, rules.kitty, seen)
    dead = _cards(rules, deal.get("dead", []), "dead", 0, rules.dead_hand, seen)
    scores = record.get("scores", [0] * rules.n_sides)
    if (
        not isinstance(scores, list)
        or len(scores) != rules.n_sides
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and -MAX_SCORE <= s <= MAX_SCORE
            for s in scores
        )
    ):
        raise RecordError.of(
            N_("'scores' must be %(count)s whole numbers, one per side"), count=rules.n_sides
        )
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError.of(N_("'actions' must be a list"))
    return rules, HandState(rules, dealer, hands, kitty, dead, scores), actions


def _builtin_of_record(variant: str) -> Rules:
    try:
        return load_builtin(variant)
    except KeyError:
        raise RecordError.of(
            N_("the record's variant %(variant)s is not a built-in variant"),
            variant=repr(variant),
        ) from None


def replay(
    record: Any, rules: Rules | None = None, load: Callable[[str], Rules] | None = None
) -> HandState:
    """Replay a record's actions with every check; errors name the action's index.

    ``rules``, ``load``: see :func:`hand_from_record`. Raises :class:`RecordError` or
    :class:`IllegalActionError` (with ``index``) on the first bad one.
    """
    _, state, actions = hand_from_record(record, rules, load)
    for index, text in enumerate(actions):
        try:
            if state.phase == OVER:
                raise IllegalActionError(
                    state.to_move, str(text), "end.continue", "the hand is already over"
                )
            if not isinstance(text, str):
                raise InvalidActionError(f"{text!r} is not an action string")
            state.apply_str(text, notation=None)  # a record: the codes alone
        except FiveHundredError as exc:
            exc.index = index  # type: ignore[attr-defined]
            if not isinstance(exc, IllegalActionError):
                exc.action = text  # type: ignore[attr-defined]
            raise
    return state


def one_line(exc: FiveHundredError, translations: Any = None) -> str:
    """An error's message on one line: a rule file's several problems joined by ``; ``; in the
    language of ``translations`` (a gettext object) when given and the message is marked."""
    if isinstance(exc, SpecError):
        return "; ".join(str(d) for d in exc.diagnostics)
    return exc.text(translations)


def error_object(exc: FiveHundredError, translations: Any = None) -> dict[str, Any]:
    """The ``replay --json`` error object of a record that failed with ``exc``.

    ``index`` and ``action``: the offending action's position in ``actions`` and its text (None
    for a broken record); ``clause``: the rule's clause id when the rules forbid the action, else
    None; ``message``: for an illegal action the reason the rule gives (translated by
    ``translations``, a gettext object, when given), else the error's own sentence, one line.
    """
    index = getattr(exc, "index", None)
    if isinstance(exc, IllegalActionError):
        explanation = exc.explanation
        if explanation is not None and translations is not None:
            reason = explanation.text(translations)
        else:
            reason = exc.reason
        return {"index": index, "action": exc.action, "clause": exc.clause, "message": reason}
    return {
        "index": index,
        "action": getattr(exc, "action", None),
        "clause": None,
        "message": one_line(exc, translations),
    }


def replay_view(state: HandState) -> dict[str, Any]:
    """The ``replay --json`` object of a (possibly unfinished) hand (INTERCHANGE.md)."""
    r = state.rules
    obs = state.observation(0)  # only its public parts are used
    result = state.result
    if result is None:
        by_side = [0] * r.n_sides
        for seat, won in enumerate(state.tricks_won):
            by_side[r.side_of_seat[seat]] += won
        hand = {"complete": False, "made": None, "tricks_by_side": by_side, "points": None}
        scores = list(state.scores)
        winner = None
    else:
        hand = {
            "complete": True,
            "made": result.made,
            "tricks_by_side": list(result.tricks_by_side),
            "points": list(result.points),
        }
        scores = [s + p for s, p in zip(state.scores, result.points, strict=True)]
        barred = frozenset(
            s
            for s in range(r.n_sides)
            if r.out_backwards == "cannot-win" and gone_out(r, state.scores[s])
        )
        winner = game_winner(r, scores, result, state, barred)
    view: dict[str, Any] = {
        "variant": r.variant,
        "auction": obs["auction"],
        "contract": obs["contract"],
        "tricks": obs["tricks"],
        "hand": hand,
        "scores": scores,
        "winner": winner if winner is None or winner >= 0 else None,
        "game_over": winner is not None,
    }
    if state.phase != OVER:
        view["next"] = {
            "seat": state.to_move,
            "phase": state.phase_name,
            "legal": [r.action_str(a) for a in state.legal_actions()],
        }
    return view


def record_of(state: HandState, actions: list[int]) -> dict[str, Any]:
    """A game record (INTERCHANGE.md) of a hand dealt as ``state.dealt``, played as ``actions``."""
    r = state.rules
    hands, kitty, dead = state.dealt
    deal: dict[str, Any] = {
        "hands": [[r.deck[c] for c in bits(h)] for h in hands],
        "kitty": [r.deck[c] for c in bits(kitty)],
    }
    if r.dead_hand:
        deal["dead"] = [r.deck[c] for c in bits(dead)]
    return {
        "format": RECORD_FORMAT,
        "variant": r.variant,
        "dealer": state.dealer,
        "deal": deal,
        "scores": list(state.scores),
        "actions": record_actions(r, actions),
    }


def record_actions(rules: Rules, actions: list[int]) -> list[str]:
    """The record texts of action ints: a whole discard (one int per card) is one text,
    ``discard 4D 5C 6C``, its cards in deck order; a discard cut short stays one text per card."""
    out: list[str] = []
    lo, hi = rules.DISCARD, rules.DISCARD + rules.n_cards  # not the redeal id after them
    i = 0
    while i < len(actions):
        j = i
        while j < len(actions) and lo <= actions[j] < hi:
            j += 1
        if j - i == rules.discard_count and j > i:
            out.append(rules.discard_str(sum(1 << (a - lo) for a in actions[i:j])))
            i = j
            continue
        if j == i:
            j = i + 1
        out.extend(rules.action_str(a) for a in actions[i:j])
        i = j
    return out


#: The longest line of a ``.jsonl`` (and the largest ``.json`` record) read, in bytes: a record
#: of the largest variant with every action is a few kilobytes.
MAX_RECORD_BYTES = 1 << 20
#: How much of a records file is read at a time.
_CHUNK = 1 << 16


def parse_record(data: bytes | str, name: str, lineno: int | None = None) -> Any:
    """One record from its JSON text; :class:`RecordError` if it is not UTF-8, not JSON, nested
    too deeply or holds a number past Python's digit limit. The message starts with the place:
    ``name:line:column:`` (``lineno``: the line of a ``.jsonl`` the text is)."""

    def where(line: int, col: int) -> str:
        return f"{name}:{lineno}:{col}" if lineno is not None else f"{name}:{line}:{col}"

    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where(1, exc.start + 1)}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where(exc.lineno, exc.colno)}: bad JSON: {exc.msg}") from None
    except RecursionError:
        raise RecordError(f"{where(1, 1)}: bad JSON: nested too deeply") from None
    except ValueError:  # an integer with more digits than Python converts
        limit = sys.get_int_max_str_digits()
        raise RecordError(
            f"{where(1, 1)}: bad JSON: a number has more than {limit} digits"
        ) from None


def read_records(name: str) -> Iterator[tuple[int, Any]]:
    """The records of the file ``name``, read as they come: pairs of the line number (0 for a
    ``.json`` file, which holds one record) and the record, or the :class:`RecordError` that
    line gives (bad JSON, a line longer than :data:`MAX_RECORD_BYTES`), its message starting
    with ``name:line:column:``. Blank lines are skipped.

    The file is read in chunks, so memory stays bounded whatever its size (``/dev/zero``
    included) and Ctrl-C is never held up. A file that cannot be opened or read raises
    :class:`RecordError` at once.
    """
    try:
        handle = open(name, "rb")  # noqa: SIM115
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    with handle:
        if not name.endswith(".jsonl"):
            data = _read(handle, name, MAX_RECORD_BYTES + 1)
            if len(data) > MAX_RECORD_BYTES:
                yield 0, RecordError(f"{name}: a record is larger than {MAX_RECORD_BYTES} bytes")
                return
            try:
                yield 0, parse_record(data.removeprefix(_BOM), name)
            except RecordError as exc:
                yield 0, exc
            return
        yield from _lines(handle, name)


#: The largest score (in magnitude) a hand may start from, in a record or through the API: a
#: signed 64-bit integer, as every integer of a rule file (10**400 once replayed, then made the
#: observation tensors fail with OverflowError).
MAX_SCORE = 2**63 - 1

#: A byte order mark, as editors on Windows start a UTF-8 file: not part of the first record.
_BOM = b"\xef\xbb\xbf"


def json_lines(name: str) -> Iterator[tuple[int, Any]]:
    """The JSON values of the lines of the file ``name`` (whatever its name ends in), read as
    they come: ``(line number, value or RecordError)`` as :func:`read_records` gives them, each
    line at most :data:`MAX_RECORD_BYTES`."""
    try:
        handle = open(name, "rb")  # noqa: SIM115
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    with handle:
        yield from _lines(handle, name)


def json_lines_of(handle: Any, name: str) -> Iterator[tuple[int, Any]]:
    """As :func:`json_lines`, from an open binary stream (anything with ``read(size)``)."""
    return _lines(handle, name)


def _read(handle: Any, name: str, size: int) -> bytes:
    try:
        data: bytes = handle.read(size)
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    return data


def _lines(handle: Any, name: str) -> Iterator[tuple[int, Any]]:
    lineno = 0
    pending = b""  # the start of the current line
    skipping = False  # the current line is too long: its error is out, drop the rest
    first = True
    while True:
        chunk = _read(handle, name, _CHUNK)
        if not chunk:
            break
        if first:
            first = False
            chunk = chunk.removeprefix(_BOM)  # (a BOM split across two reads stays an error)
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            if skipping:
                skipping = False
            elif len(pending) + end - start > MAX_RECORD_BYTES:
                lineno += 1
                yield lineno, _too_long(name, lineno)
            else:
                lineno += 1
                yield from _line(lineno, pending + chunk[start:end], name)
            pending = b""
            start = end + 1
        if not skipping:
            pending += chunk[start:]
            if len(pending) > MAX_RECORD_BYTES:
                lineno += 1
                skipping = True
                pending = b""
                yield lineno, _too_long(name, lineno)
    if pending and not skipping:
        yield from _line(lineno + 1, pending, name)


def _too_long(name: str, lineno: int) -> RecordError:
    return RecordError(f"{name}:{lineno}: line longer than {MAX_RECORD_BYTES} bytes")


def _line(lineno: int, data: bytes, name: str) -> Iterator[tuple[int, Any]]:
    if not data.strip():
        return
    try:
        yield lineno, parse_record(data, name, lineno)
    except RecordError as exc:
        yield lineno, exc


def load_records(text: str, name: str) -> list[Any]:
    """Records from a ``.json`` (one object) or ``.jsonl`` (one per line) text; the first bad
    one raises :class:`RecordError`."""
    if name.endswith(".jsonl"):
        return [
            parse_record(line, name, lineno)
            for lineno, line in enumerate(text.splitlines(), 1)
            if line.strip()
        ]
    return [parse_record(text, name)]
