"""Conformance vectors: game records with the replay output of this engine, for other engines.

``fivehundred build`` writes ``generated/conformance/<variant>.jsonl``, one vector per line::

    {"id": "australian/h01", "clauses": ["auction.end", ...], "record": {...}, "expect": {...}}

``record`` is a game record (the input of ``replay``); ``expect`` is what ``replay --json`` prints
for it: the replay view of the hand (finished or not), or, when the record holds an illegal or
malformed action, ``{"error": {"index": i, "action": "...", "clause": "...", "message": "..."}}``
(``clause`` is null for a malformed action). ``clauses`` are the rule clause ids the vector
exercises. The vectors of a variant are fixed: seeded random hands kept while they reach a
clause the earlier ones did not, each hand also cut short before a decision (so ``next.legal``
is checked), and one illegal action for every clause id an illegal action can cite.

:func:`run_engine` feeds the records to an outside engine (one JSON line each on its stdin) and
compares its output lines with ``expect``; ``python -m fivehundred.runtime.adapters.conformance``
is this
engine speaking that protocol (the reference an outside engine is compared with).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import IO, Any

from ..engine.codes import bits
from ..engine.errors import FiveHundredError, RecordError
from ..engine.game import gone_out, reaches
from ..engine.hand import (
    AUCTION,
    DISCARD,
    OVER,
    PLAY,
    ActionKind,
    HandState,
    action_kind,
    bid_after_own_pass,
    deal,
    passes_reopen,
)
from ..engine.records import RECORD_FORMAT, error_object, record_of, replay, replay_view
from ..engine.rules import Rules
from ..engine.scoring import score_hand
from ..engine.tableformat import FORMAT as TABLES_FORMAT
from ..studies.reached import hand_events

__all__ = [
    "UNREACHABLE",
    "Coverage",
    "Disagreement",
    "EngineError",
    "EngineRun",
    "VectorFile",
    "build_vectors",
    "check_engine",
    "conformance_file",
    "coverage",
    "expected_output",
    "fingerprint",
    "read_vector_file",
    "read_vectors",
    "run_engine",
    "serve",
    "vector_file",
    "vectors_jsonl",
]

#: Seeded hands tried per variant, and the most kept (each adds at least one clause).
TRIES = 96
KEEP = 12
#: Seeded hands tried in all for the joker's rules that bind only in rare positions
#: (``_JOKER_EVENTS``), while a variant has one no earlier hand reached.
EXTRA_TRIES = 2000

#: Clauses no single-hand record can exercise, with the reason printed by the coverage report.
UNREACHABLE: dict[str, str] = {
    "deal.first-dealer": "a record states its dealer; the first dealer of a game is not in a hand",
    "deal.rotation": "a record holds one hand; who deals the next is decided between hands",
    "deal.packets": "a record states the dealt cards; packets matter only when shuffling",
}


def expected_output(
    record: Any, rules: Rules | None = None, load: Callable[[str], Rules] | None = None
) -> dict[str, Any]:
    """What ``replay --json`` prints for ``record``: the replay view, or ``{"error": {...}}``.

    ``rules``, ``load``: as for :func:`~fivehundred.runtime.engine.records.replay`.
    """
    try:
        return replay_view(replay(record, rules, load))
    except FiveHundredError as exc:
        return {"error": error_object(exc)}


# -- which clauses a hand exercises ------------------------------------------------------------


def clauses_reached(state: HandState, kinds: Sequence[ActionKind]) -> set[str]:
    """The clause ids a replayed hand exercises (``kinds``: the kind of each action applied)."""
    r = state.rules
    out = {"deck.cards"}
    calls = [a for _, a in state.calls]
    if calls:
        out.add("auction.order")
    if any(a not in (r.PASS, r.REDEAL) for a in calls):
        out |= {"auction.ladder", "auction.higher"}
    redeal = r.REDEAL in calls
    if redeal:
        out.add("auction.no-ace-no-face")
    if any(state.inkles):
        out.add("auction.inkles")
    if r.procedure == "single-round" and len(calls) == r.players:
        out.add("auction.single-round")
    if r.procedure == "rounds" and len(calls) > r.players and r.PASS in calls:
        if not passes_reopen(r):
            out.add("auction.pass-final")  # the auction went round again, skipping who passed
        elif bid_after_own_pass(r, state.calls):
            out.add("auction.pass-final")  # a player who had passed bid again
    if state.phase != AUCTION:
        if state.contract >= 0:
            out.add("auction.end")
            if r.procedure == "rounds":
                out.add("auction.raise-own-bid")
            clause = r.bid_clause[state.contract]
            if clause != "auction.ladder":
                out.add(clause)
        elif not redeal:
            out.add("auction.all-pass")
    if "discard" in kinds:
        out.add("kitty.take")
    if "kitty" in kinds:
        out.add("kitty.sans")
    if "partner" in kinds:
        out.add("seats.partner")
    if "nominate" in kinds:
        out.add("joker.no-trumps.nominate")
    if (
        state.contract >= 0
        and r.bid_kind[state.contract] == "misere"
        and state.phase in (PLAY, OVER)
    ):
        out.add("play.misere-partner")
        if r.bid_open[state.contract] != "no":
            out.add("play.open-misere")
    played = [(leader, cards, winner) for leader, cards, winner in state.tricks]
    if state.trick:
        played.append((state.trick_leader, tuple(state.trick), -1))
    strain = r.bid_strain[state.contract] if state.contract >= 0 else 4
    jokers = set(r.joker_cards)
    for n, (_, actions, winner) in enumerate(played):
        cards = [_card_of(r, a) for a in actions]
        if n == 0 and actions:
            out.add("play.opening-lead")
        if n == 1:
            out.add("play.next-lead")
        if len(actions) > 1:
            out.add("play.follow-suit")
        if winner >= 0:
            out.add("play.trick-winner")
        if any(c in jokers for c in cards):
            out.add("deck.joker")
            if strain < 4:
                out.add("joker.trump")
            else:
                out.add("joker.no-trumps.wins")
                if cards[0] not in jokers:
                    out.add("joker.no-trumps.follow")
                    if state.misere and r.joker_void_must_play != "never":
                        out.add("joker.no-trumps.misere-void")
        if actions and actions[0] >= r.JOKER_LEAD:
            out.add("joker.no-trumps.lead")
            if n == r.hand_size - 1:
                if r.joker_lead_only_last_trick:
                    out.add("joker.no-trumps.lead-last-only")
                if r.joker_lead == "name-unled-suit":
                    out.add("joker.no-trumps.last-trick")
        if strain < 4:
            trumps = r.masks[strain][strain]
            if any(trumps >> c & 1 for c in cards):
                out.add("trump.order")
            if any(trumps >> c & 1 and r.card_suit[c] not in (strain, -1) for c in cards):
                out.add("trump.left-bower")
    result = state.result
    if result is not None:
        out |= _scoring_clauses(state)
        # the joker's rules that bind only in some positions: where the finished hand reached
        # them (the balance studies' clause counts)
        out |= hand_events(state) & _JOKER_EVENTS
    return out


#: Clauses :func:`~fivehundred.runtime.studies.reached.hand_events` finds in a finished hand.
_JOKER_EVENTS = frozenset(
    {"joker.no-trumps.misere-low", "joker.no-trumps.first-or-last", "joker.no-trumps.void-suit"}
)


def _card_of(r: Rules, action: int) -> int:
    if action >= r.JOKER_LEAD:
        return r.joker_cards[(action - r.JOKER_LEAD) // 4]
    return action


def _scoring_clauses(state: HandState) -> set[str]:
    """The clauses of the finished hand's score: the scoring clauses that decided its points
    (:attr:`~fivehundred.runtime.engine.scoring.HandScore.clauses`), a misère that ended early,
    and the end of the game the scores after it reach."""
    r = state.rules
    result = state.result
    assert result is not None
    out = {"seats.teams"}
    scores = [s + p for s, p in zip(state.scores, result.points, strict=True)]
    if result.contract >= 0 or state.tricks:  # not thrown in: scored by score_hand
        score = score_hand(
            r, result.contract, state.allies, state.tricks_won, state.scores, result.sans
        )
        out |= score.clauses
    misere = result.contract >= 0 and r.bid_kind[result.contract] == "misere"
    if misere and (result.complete is False or state.n_tricks < r.hand_size):
        out.add("play.misere-ends")
    if any(reaches(r, s) for s in scores):
        out |= {"end.target", "end.must-bid-to-win"}
        if sum(reaches(r, s) for s in scores) > 1:
            out.add("end.both-out")
    if any(gone_out(r, s) for s in scores):
        out.add("end.lose")
    return out


# -- building the vectors ----------------------------------------------------------------------


def _score_presets(r: Rules) -> list[list[int]]:
    n = r.n_sides
    # scores two tricks short of the target: one trick short where only passing it counts
    short = 20 if reaches(r, r.target) else 10
    presets = [[0] * n, [r.target - short] * n]
    if r.lose_at is not None:
        presets.append([r.lose_at + 40] + [r.target - 40] * (n - 1))
    if r.opponents_freeze_at is not None and r.scoring["freeze"] == "threshold":
        # under the threshold and passing it, over it and scoring nothing (380 and 410 at 400)
        presets += [[r.opponents_freeze_at - 20] * n, [r.opponents_freeze_at + 10] * n]
    elif r.opponents_freeze_at is not None:
        presets.append([r.opponents_freeze_at - 10] * n)
    return presets


def _plans(r: Rules) -> list[tuple[str, str]]:
    """(auction plan, play plan) pairs the seeded hands cycle through, to reach rare clauses."""
    auctions = ["random", "low", "pass"] + [
        b for i, b in enumerate(r.bid_codes) if r.bid_kind[i] == "misere"
    ]
    if r.procedure == "rounds" and passes_reopen(r):
        auctions.append("rebid")  # auction.pass-final: a player bids after his own pass
    plays = ["random", "strong", "weak"]
    # no ace, no face: a hand rigged without aces and faces for the first caller, who asks
    redeal = [("redeal", "random")] if r.REDEAL >= 0 else []
    return [*redeal, ("slam", "strong")] + [(a, p) for p in plays for a in auctions]


def _rigged(r: Rules, hands: list[int], seat: int) -> list[int]:
    """The hands with ``seat`` given the strongest cards at spades (a slam to bid and make)."""
    pool = sorted((c for h in hands for c in bits(h)), key=lambda c: (-r.power[0][c], c))
    top = sum(1 << c for c in pool[: r.hand_size])
    rest = [c for c in pool[r.hand_size :]]
    out = []
    for s, h in enumerate(hands):
        if s == seat:
            out.append(top)
        else:
            n = h.bit_count()
            out.append(sum(1 << c for c in rest[:n]))
            rest = rest[n:]
    return out


def _faceless(r: Rules, hands: list[int], seat: int) -> list[int]:
    """The hands with ``seat`` given cards without an ace or a face card (no ace, no face),
    swapped with the other hands' lowest such cards."""
    plain = sorted(
        (c for s, h in enumerate(hands) if s != seat for c in bits(h & ~r.face_mask)),
        key=lambda c: (r.power[4][c], c),
    )
    out = list(hands)
    for face in bits(hands[seat] & r.face_mask):
        if not plain:
            break
        c = plain.pop(0)
        owner = next(s for s, h in enumerate(out) if h >> c & 1)
        out[seat] ^= 1 << face | 1 << c
        out[owner] ^= 1 << face | 1 << c
    return out


def _choose(state: HandState, legal: list[int], plan: tuple[str, str], rng: Random) -> int:
    r = state.rules
    auction, play = plan
    if state.phase == AUCTION and auction == "redeal" and r.REDEAL in legal:
        return r.REDEAL
    if state.phase == AUCTION and auction not in ("random", "redeal"):
        bids = [a for a in legal if a not in (r.PASS, r.REDEAL)]
        if auction == "pass" or not bids:
            return r.PASS
        if auction == "low":
            return bids[0] if state.high < 0 else r.PASS
        if auction == "rebid":  # the first caller passes, bids when asked again; one bid each
            own = [a for s, a in state.calls if s == state.to_move]
            if not state.calls or any(a != r.PASS for a in own):
                return r.PASS
            return bids[0]
        if auction == "slam":  # the rigged hand bids the lowest spades contract it may
            spades = [
                a
                for a in bids
                if r.bid_strain[a - r.BID] == 0
                and r.bid_kind[a - r.BID] != "misere"
                and (r.inkles is None or r.bid_level[a - r.BID] != r.inkles[1])
            ]
            return spades[0] if spades and state.high < 0 else r.PASS
        target = r.BID + r.bid_index[auction]
        if target in legal:
            return target
        need = r.bid_after[target - r.BID]
        if state.max_level < need and state.high < 0:
            ok = [a for a in bids if a < target and r.bid_level[a - r.BID] >= need]
            if ok:
                return ok[0]
        if state.high < 0 and r.bid_blind[target - r.BID]:
            return bids[0]
        return r.PASS
    if state.phase == DISCARD and play == "strong":
        power = r.power[r.bid_strain[state.contract]]
        return min(legal, key=lambda a: power[a - r.DISCARD])
    if state.phase == PLAY and play != "random" and state.contract >= 0:
        mine = state.allies >> state.controller(state.to_move) & 1
        cards = [a for a in legal if a < r.NOMINATE]
        if cards:
            high = (play == "strong") == bool(mine)
            key = sorted(cards, key=lambda a: state.power[_card_of(r, a)])
            return key[-1] if high else key[0]
    return legal[int(rng.random() * len(legal))]


def _play_random(
    state: HandState, rng: Random, plan: tuple[str, str] = ("random", "random")
) -> tuple[list[int], list[ActionKind], list[int]]:
    """Play a hand out by ``plan``: the actions, their kinds, and the decisions' legal counts."""
    actions: list[int] = []
    kinds: list[ActionKind] = []
    counts: list[int] = []
    r = state.rules
    while state.phase != OVER:
        legal = state.legal_actions()
        action = _choose(state, legal, plan, rng)
        counts.append(len(legal))
        kinds.append(action_kind(r, action))
        actions.append(action)
        state.apply_fast(action)
    return actions, kinds, counts


def _illegal_candidates(state: HandState) -> Iterator[int]:
    """A few actions to try at a decision: every call, every card, joker leads, nominations."""
    r = state.rules
    if state.phase == AUCTION:
        yield r.PASS
        yield from range(r.BID, r.BID + r.n_bids)
        yield r.TAKE if r.sans_kitty_bonus is not None else r.NOMINATE
        if r.REDEAL >= 0:
            yield r.REDEAL
        return
    if state.phase != PLAY:
        yield r.PASS
        return
    hand = state.hands[state.to_move]
    yield from bits(hand)
    for j, c in enumerate(r.joker_cards):
        if hand >> c & 1:
            yield from range(r.JOKER_LEAD + 4 * j, r.JOKER_LEAD + 4 * j + 4)
    yield from range(r.NOMINATE, r.NOMINATE + 4)
    yield r.PASS
    others = [c for c in range(r.n_cards) if not hand >> c & 1]
    if others:
        yield others[0]


@dataclass
class _Found:
    vectors: list[dict[str, Any]] = field(default_factory=list)
    clauses: set[str] = field(default_factory=set)
    illegal: set[str] = field(default_factory=set)


def build_vectors(rules: Rules) -> list[dict[str, Any]]:
    """The conformance vectors of a variant, deterministic for given rules (see the module)."""
    r = rules
    found = _Found()
    presets = _score_presets(r)
    plans = _plans(r)
    variant_clauses = {c["id"] for c in r.tables["clauses"]}
    kept = 0
    finished: dict[str, Any] | None = None
    for seed in range(EXTRA_TRIES):
        if seed >= TRIES and not (_JOKER_EVENTS & variant_clauses) - found.clauses:
            break
        if kept >= KEEP and seed < TRIES:
            continue
        rng = Random(seed)
        dealer = seed % r.players
        scores = presets[seed % len(presets)]
        hands, kitty, dead = deal(r, dealer, rng)
        plan = plans[seed % len(plans)]
        if plan[0] == "slam":
            hands = _rigged(r, hands, (dealer + 1) % r.players)
        elif plan[0] == "redeal":
            hands = _faceless(r, hands, (dealer + 1) % r.players)
        fresh = HandState(r, dealer, hands, kitty, dead, scores)
        state = fresh.copy()
        actions, kinds, counts = _play_random(state, rng, plan)
        reached = clauses_reached(state, kinds) & variant_clauses
        if not reached - found.clauses or (
            seed >= TRIES and not reached & _JOKER_EVENTS - found.clauses
        ):
            continue
        kept += 1
        record = record_of(fresh, actions)
        vid = f"{r.variant}/h{kept:02d}"
        found.vectors.append(_vector(vid, sorted(reached), record, r))
        found.clauses |= reached
        finished = finished or record
        # The same hand cut before a decision with several choices: `next` is compared too.
        cut = _cut_point(counts, rng)
        if cut is not None:
            part = record_of(fresh, actions[:cut])
            state_cut = fresh.copy()
            for a in actions[:cut]:
                state_cut.apply_fast(a)
            found.vectors.append(
                _vector(
                    f"{vid}-cut",
                    sorted(clauses_reached(state_cut, kinds[:cut]) & variant_clauses),
                    part,
                    r,
                )
            )
        _illegal_vectors(fresh, actions, found, vid)
    if finished is not None:
        record = {**finished, "actions": [*finished["actions"], "pass"]}
        found.vectors.append(_vector(f"{r.variant}/end-continue", ["end.continue"], record, r))
    return found.vectors


def _cut_point(counts: list[int], rng: Random) -> int | None:
    points = [i for i, n in enumerate(counts) if n > 1]
    if not points:
        return None
    return points[int(rng.random() * len(points))]


def _illegal_vectors(fresh: HandState, actions: list[int], found: _Found, vid: str) -> None:
    """One vector per clause id an illegal action cites that no earlier vector cited."""
    r = fresh.rules
    state = fresh.copy()
    for i, action in enumerate(actions):
        legal = set(state.legal_actions())
        for candidate in _illegal_candidates(state):
            if candidate in legal:
                continue
            why = state.explain_illegal(candidate)
            if why.clause in found.illegal:
                continue
            found.illegal.add(why.clause)
            prefix = record_of(fresh, actions[:i])
            text = r.action_str(candidate)
            record = {**prefix, "actions": [*prefix["actions"], text]}
            vector = _vector(f"{vid}-x{len(found.illegal):02d}", [why.clause], record, r)
            if vector["expect"].get("error", {}).get("clause") != why.clause:
                # The text reads back as another action (a bid code is a card in play): skip.
                found.illegal.discard(why.clause)
                continue
            found.vectors.append(vector)
            found.clauses.add(why.clause)
        state.apply_fast(action)


def _vector(vid: str, clauses: list[str], record: dict[str, Any], r: Rules) -> dict[str, Any]:
    return {
        "id": vid,
        "clauses": clauses,
        "record": record,
        "expect": expected_output(record, r),
    }


def vectors_jsonl(vectors: Iterable[dict[str, Any]]) -> str:
    """The text of a ``.jsonl`` vector file: one compact JSON object per line."""
    return "".join(json.dumps(v, ensure_ascii=False, separators=(",", ":")) + "\n" for v in vectors)


#: The engine modules whose behaviour the vectors record (their text is in the fingerprint).
ENGINE_MODULES = (
    "engine/codes.py", "engine/errors.py", "engine/game.py", "engine/hand.py",
    "engine/messages.py", "engine/records.py", "engine/rules.py", "engine/scoring.py",
    "adapters/conformance.py", "studies/reached.py",
)  # fmt: skip
#: The conformance file's own format: 2 since its header names the formats it is built on
#: (``tables_format``, the tables' FORMAT 2; ``record_format``, the records' 1); format 1 had a
#: bare ``"format": 1`` beside FORMAT 2 tables, which read as the tables' version.
FORMAT = 2


def fingerprint(tables_json: str) -> str:
    """A digest of a variant's JSON tables and of the engine modules that replay records."""
    digest = hashlib.sha256(tables_json.encode("utf-8"))
    here = Path(__file__).resolve().parent.parent
    for name in ENGINE_MODULES:
        digest.update(name.encode())
        digest.update((here / name).read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()[:20]


def conformance_file(
    rules: Rules, clause_ids: Sequence[str], tables_json: str, previous: str | None = None
) -> str:
    """The text of ``generated/conformance/<variant>.jsonl``: a header line, then the vectors.

    ``previous`` (the file as it stands) is returned unchanged when its header carries the same
    fingerprint: the vectors are what this engine gives for these tables, no need to replay.
    """
    mark = fingerprint(tables_json)
    if previous is not None:
        first = previous.split("\n", 1)[0]
        try:
            head = json.loads(first).get("header", {})
        except (ValueError, AttributeError):
            head = {}
        if isinstance(head, dict) and head.get("fingerprint") == mark:
            return previous
    vectors = build_vectors(rules)
    cov = coverage(clause_ids, vectors)
    header = {
        "header": {
            "format": FORMAT,
            "tables_format": TABLES_FORMAT,
            "record_format": RECORD_FORMAT,
            "variant": rules.variant,
            "fingerprint": mark,
            "vectors": len(vectors),
            "clauses": len(cov.clauses),
            "covered": len(cov.covered),
            "not_reached": dict(cov.missing),
        }
    }
    return vectors_jsonl([header, *vectors])


def read_vectors(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the vectors of a conformance file's text (see :func:`vectors_of`)."""
    lines = enumerate(text.splitlines(), 1)
    return vectors_of((n, _json_or_error(line, n)) for n, line in lines if line.strip())


def read_vector_file(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the vectors of the conformance file ``name``, read line by line (each at
    most 1 MiB, at most :data:`MAX_VECTORS` vectors): :class:`RecordError` for the first line
    that is not a vector, naming its ``file:line``. All of them in memory: for a file of any
    size, :func:`vector_file`."""
    from ..engine.records import json_lines

    return vectors_of(json_lines(name), name)


@dataclass(frozen=True)
class VectorFile:
    """A conformance file checked line by line and read again, a vector at a time, whenever it
    is iterated: memory does not grow with the file (see :func:`vector_file`)."""

    path: str
    name: str
    header: dict[str, Any]
    count: int
    clauses: frozenset[str]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        from ..engine.records import json_lines

        for lineno, item in json_lines(self.path):
            if isinstance(item, dict) and isinstance(item.get("header"), dict):
                continue
            problem = item if isinstance(item, RecordError) else _vector_problem(item)
            if problem:  # the file changed since it was checked
                raise RecordError(f"{self.name}:{lineno}: not a conformance vector: {problem}")
            yield item

    def __len__(self) -> int:
        return self.count


@contextlib.contextmanager
def vector_file(name: str) -> Iterator[VectorFile]:
    """The conformance file ``name`` checked as :func:`read_vector_file` checks it, keeping only
    its header, its count and the clauses its vectors exercise: the vectors are read again,
    one at a time, each time the :class:`VectorFile` is iterated. A stream that cannot be read
    twice (a FIFO, ``/dev/stdin``) is copied, as it is read, to a temporary file that the end
    of the ``with`` block removes."""
    import os
    import stat
    import tempfile

    from ..engine.records import json_lines_of

    try:
        handle = open(name, "rb")  # noqa: SIM115
        regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    copy: IO[bytes] | None = None
    try:
        source: Any = handle
        if not regular:
            copy = tempfile.NamedTemporaryFile(prefix="fivehundred-vectors-", delete=False)  # noqa: SIM115
            source = _Tee(handle, copy)
        header: dict[str, Any] = {}
        count = 0
        clauses: set[str] = set()
        for lineno, item in json_lines_of(source, name):
            if isinstance(item, RecordError):
                raise item
            if isinstance(item, dict) and isinstance(item.get("header"), dict):
                header = item["header"]
                continue
            problem = _vector_problem(item)
            if problem:
                raise RecordError(f"{name}:{lineno}: not a conformance vector: {problem}")
            if count == MAX_VECTORS:
                raise RecordError(f"{name}:{lineno}: more than {MAX_VECTORS} vectors")
            count += 1
            clauses.update(item["clauses"])
        handle.close()
        if copy is not None:
            copy.close()
        yield VectorFile(
            name if copy is None else copy.name, name, header, count, frozenset(clauses)
        )
    finally:
        handle.close()
        if copy is not None:
            copy.close()
            with contextlib.suppress(OSError):
                os.unlink(copy.name)


class _Tee:
    """A binary stream that also writes what is read from it to ``copy``."""

    def __init__(self, handle: IO[bytes], copy: IO[bytes]) -> None:
        self.handle, self.copy = handle, copy

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        self.copy.write(data)
        return data


#: The most vectors a file may hold (the built ones hold some thirty a variant).
MAX_VECTORS = 20_000


def _json_or_error(line: str, lineno: int) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as exc:
        return RecordError(f"{lineno}: not JSON: {exc}")


def vectors_of(
    items: Iterable[tuple[int, Any]], name: str = "vectors"
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the vectors among ``(line number, JSON value)`` pairs.

    A vector is an object with a string ``id``, ``clauses`` (a list of clause id strings), a
    ``record`` and an ``expect`` object; a header line is ``{"header": {...}}``. Anything else
    (a list, a vector without ``record``, ``clauses: 5``) is a :class:`RecordError` at its
    line.
    """
    header: dict[str, Any] = {}
    vectors: list[dict[str, Any]] = []
    for lineno, item in items:
        if isinstance(item, RecordError):
            text = str(item)
            raise RecordError(text if text.startswith(name) else f"{name}:{text}")
        if isinstance(item, dict) and isinstance(item.get("header"), dict):
            header = item["header"]
            continue
        problem = _vector_problem(item)
        if problem:
            raise RecordError(f"{name}:{lineno}: not a conformance vector: {problem}")
        if len(vectors) == MAX_VECTORS:
            raise RecordError(f"{name}:{lineno}: more than {MAX_VECTORS} vectors")
        vectors.append(item)
    return header, vectors


def _vector_problem(item: Any) -> str | None:
    if not isinstance(item, dict):
        return f"a JSON {type(item).__name__ if item is not None else 'null'}, not an object"
    for key in ("id", "clauses", "record", "expect"):
        if key not in item:
            return f"it has no {key!r}"
    if not isinstance(item["id"], str):
        return "'id' is not a string"
    clauses = item["clauses"]
    if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
        return "'clauses' is not a list of clause ids"
    if not isinstance(item["expect"], dict):
        return "'expect' is not an object"
    return None


# -- coverage ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coverage:
    """Which of a variant's clause ids the vectors exercise, and why the others are missing."""

    clauses: tuple[str, ...]
    covered: tuple[str, ...]
    missing: tuple[tuple[str, str], ...]

    def lines(self) -> list[str]:
        """The report: one summary line, then one line per clause not reached, with the reason."""
        out = [f"clause coverage: {len(self.covered)}/{len(self.clauses)}"]
        out.extend(f"  not reached: {cid}: {why}" for cid, why in self.missing)
        return out


def coverage(clause_ids: Sequence[str], vectors: Iterable[dict[str, Any]]) -> Coverage:
    """The clause coverage of ``vectors`` over a variant's ``clause_ids``."""
    seen: set[str] = set()
    for v in vectors:
        seen.update(v.get("clauses", []))
    covered = tuple(c for c in clause_ids if c in seen)
    missing = tuple(
        (c, UNREACHABLE.get(c, f"no seeded hand of {TRIES} reached it"))
        for c in clause_ids
        if c not in seen
    )
    return Coverage(tuple(clause_ids), covered, missing)


# -- running an outside engine -------------------------------------------------------------------


class EngineError(FiveHundredError):
    """The engine command could not be run, or did not answer one line per record."""


@dataclass(frozen=True)
class Disagreement:
    """One vector on which the engine's line differs from the expected output."""

    vector: str
    where: str
    expected: Any
    got: Any

    def line(self) -> str:
        """One line: the vector id, the first differing place, expected and got."""
        exp = json.dumps(self.expected, ensure_ascii=False)
        got = json.dumps(self.got, ensure_ascii=False)
        return f"{self.vector}: {self.where}: expected {exp}, got {got}"


#: The longest line read from an engine, and the tail of its standard error kept.
MAX_LINE = 1 << 20
_STDERR_TAIL = 4096
#: The longest JSON text of an expected or a got value a kept :class:`Disagreement` holds;
#: a longer one is kept as the start of that text (a line of the report stays readable and
#: a file of huge vectors costs no memory).
MAX_SHOWN = 2000


@dataclass(frozen=True)
class EngineRun:
    """What :func:`check_engine` found: the first disagreements (at most ``keep``), how many
    vectors disagree in all, and whether the engine wrote more lines than there were vectors."""

    disagreements: tuple[Disagreement, ...]
    wrong: int
    vectors: int
    too_many: bool


def run_engine(
    command: str, vectors: Iterable[dict[str, Any]], timeout: float = 120.0
) -> list[Disagreement]:
    """Every disagreement of the engine ``command`` with ``vectors`` (see :func:`check_engine`),
    and ``(end)`` when it wrote more lines than there are vectors."""
    run = check_engine(command, vectors, timeout)
    extra = [Disagreement("(end)", "lines", run.vectors, "more")] if run.too_many else []
    return [*run.disagreements, *extra]


def check_engine(
    command: str,
    vectors: Iterable[dict[str, Any]],
    timeout: float = 120.0,
    keep: int | None = None,
) -> EngineRun:
    """Run ``command`` once over every vector's record and compare its answers.

    ``vectors`` is iterated twice, at once: to feed the records and to compare the answers (a
    list, or a :class:`VectorFile`, which reads its file again a vector at a time). The records
    go to the engine's stdin, one JSON object per line, stdin then closed; the engine answers
    one JSON line per record, in order, each compared as it arrives, each at most
    :data:`MAX_LINE` bytes and no more lines than records and one (the engine is then
    stopped): memory does not grow with the vectors or with what the engine prints. A line
    that is not UTF-8 or not JSON is a disagreement. The first ``keep`` disagreements are kept
    (all when None), their values cut to :data:`MAX_SHOWN` characters of JSON. Raises
    :class:`EngineError` when the command cannot be split or started, times out (the engine
    and every process it started are then killed), prints a line longer than :data:`MAX_LINE`
    or exits with a non-zero status.
    """
    if not (math.isfinite(timeout) and timeout > 0):
        raise EngineError(f"the timeout must be a positive number of seconds, not {timeout!r}")
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineError(f"cannot split the engine command: {exc}") from None
    if not argv:
        raise EngineError("--engine is empty")
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: killed with whatever it started
        )
    except FileNotFoundError:
        raise EngineError(f"engine command not found: {argv[0]}") from None
    except OSError as exc:
        raise EngineError(f"cannot run the engine {argv[0]}: {exc.strerror or exc}") from None
    state = _Comparison(iter(vectors), keep)
    tail = bytearray()
    threads = [
        threading.Thread(target=_feed, args=(proc.stdin, vectors), daemon=True),
        threading.Thread(target=_read_answers, args=(proc, state), daemon=True),
        threading.Thread(target=_read_tail, args=(proc.stderr, tail), daemon=True),
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + min(timeout, 1e7)
    try:
        for thread in threads[1:]:
            thread.join(max(0.0, deadline - time.monotonic()))
        if threads[1].is_alive() or threads[2].is_alive():
            raise EngineError(f"the engine did not finish within {timeout:g} s")
        try:
            code = proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise EngineError(f"the engine did not finish within {timeout:g} s") from None
    finally:
        _kill_group(proc)
        proc.wait()
        for thread in threads:  # their pipes end once every process holding them is gone
            thread.join(5)
        if not any(thread.is_alive() for thread in threads):
            # closing a pipe a thread still reads would wait for that read for ever (a
            # process that left the group keeps it open): such pipes are left to the threads
            for handle in (proc.stdin, proc.stdout, proc.stderr):
                with contextlib.suppress(OSError):
                    if handle is not None:
                        handle.close()
    if state.error is not None:
        raise state.error
    if state.too_long:
        raise EngineError(
            f"line {state.lines + 1} of the engine's output is longer than {MAX_LINE} bytes"
        )
    too_many = state.lines > state.compared
    if code != 0 and not (too_many and code < 0):  # killed for talking too much: say that
        last = bytes(tail).decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        raise EngineError(f"the engine exited with status {code}: {last[0][:200]}")
    state.missing()  # vectors the engine gave no line for
    return EngineRun(tuple(state.kept), state.wrong, state.compared, too_many)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the engine and every process of its group (it started them; they may hold its
    pipes open after it exits)."""
    import os
    import signal

    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()


class _Comparison:
    """The engine's answers compared with the vectors, one line at a time (in the reading
    thread)."""

    def __init__(self, vectors: Iterator[dict[str, Any]], keep: int | None) -> None:
        self.vectors = vectors
        self.keep = keep
        self.kept: list[Disagreement] = []
        self.wrong = 0
        self.lines = 0  # lines the engine wrote
        self.compared = 0  # vectors compared (or found without a line)
        self.exhausted = False
        self.too_long = False
        self.error: FiveHundredError | None = None

    def _next(self) -> dict[str, Any] | None:
        if self.exhausted:
            return None
        try:
            return next(self.vectors)
        except StopIteration:
            self.exhausted = True
            return None

    def _add(self, d: Disagreement) -> None:
        self.wrong += 1
        if self.keep is None or len(self.kept) < self.keep:
            self.kept.append(Disagreement(d.vector, d.where, _shown(d.expected), _shown(d.got)))

    def answer(self, line: bytes) -> bool:
        """Compare one line of the engine; False once it has written one line too many."""
        self.lines += 1
        vector = self._next()
        if vector is None:
            return False
        self.compared += 1
        got = _answer(line)
        if isinstance(got, Disagreement):
            self._add(Disagreement(vector["id"], got.where, got.expected, got.got))
            return True
        diff = _compare(vector["expect"], got)
        if diff is not None:
            self._add(Disagreement(vector["id"], *diff))
        return True

    def missing(self) -> None:
        """Every vector left without a line of the engine's."""
        while (vector := self._next()) is not None:
            self.compared += 1
            self._add(Disagreement(vector["id"], "line", "one JSON line", "no line"))


def _shown(value: Any) -> Any:
    """``value``, or the start of its JSON text when that is longer than :data:`MAX_SHOWN`."""
    if isinstance(value, str | int | float | bool) or value is None:
        return (
            value
            if not isinstance(value, str) or len(value) <= MAX_SHOWN
            else value[:MAX_SHOWN] + "…"
        )
    text = json.dumps(value, ensure_ascii=False)
    return value if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def _feed(stdin: IO[bytes] | None, vectors: Iterable[dict[str, Any]]) -> None:
    """Write the records to the engine one line at a time, then close its stdin (an engine may
    stop reading)."""
    if stdin is None:
        return
    with contextlib.suppress(OSError, FiveHundredError):  # a broken pipe: it stopped reading
        for vector in vectors:
            stdin.write(json.dumps(vector["record"], ensure_ascii=False).encode("utf-8") + b"\n")
    with contextlib.suppress(OSError):
        stdin.close()


def _read_answers(proc: subprocess.Popen[bytes], state: _Comparison) -> None:
    """Read the engine's lines and compare each as it comes (a line past :data:`MAX_LINE`
    stops the reading); stop the engine after one line more than there are vectors."""
    stdout = proc.stdout
    if stdout is None:
        return
    try:
        with contextlib.suppress(OSError, ValueError):
            while True:
                line = stdout.readline(MAX_LINE + 1)
                if not line:
                    return
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    state.too_long = True  # no engine answers so: read no further
                    break
                if line.strip() and not state.answer(line):
                    break
    except FiveHundredError as exc:  # the vector file changed while it was read
        state.error = exc
    _kill_group(proc)


def _read_tail(stderr: IO[bytes] | None, tail: bytearray) -> None:
    """Read the engine's standard error to its end, keeping the last few KiB."""
    if stderr is None:
        return
    with contextlib.suppress(OSError, ValueError):
        while chunk := stderr.read(1 << 16):
            tail.extend(chunk)
            del tail[:-_STDERR_TAIL]


def _answer(line: bytes | None) -> Any:
    """An engine's line as JSON, or the :class:`Disagreement` (vector id left blank) it is."""
    assert line is not None  # a line too long stopped the run
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Disagreement("", "line", "UTF-8 text", f"byte {exc.start}: not UTF-8")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return Disagreement("", "line", "a JSON object", text.strip()[:200])


def _compare(expect: Any, got: Any, where: str = "") -> tuple[str, Any, Any] | None:
    """The first difference between the expected output and the engine's (or None).

    An error object is compared on ``index``, ``action`` and ``clause`` only (the message is the
    engine's own); ``next.legal`` is compared as a set.
    """
    if isinstance(expect, dict) and "error" in expect:
        if not isinstance(got, dict) or not isinstance(got.get("error"), dict):
            return ("error", expect["error"], got)
        for key in ("index", "action", "clause"):
            if got["error"].get(key) != expect["error"][key]:
                return (f"error.{key}", expect["error"][key], got["error"].get(key))
        return None
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            return (where or "(top)", expect, got)
        for key, value in expect.items():
            path = f"{where}.{key}" if where else key
            if key not in got:
                return (path, value, None)
            if path == "next.legal" and isinstance(got[key], list):
                if sorted(map(str, got[key])) != sorted(value):
                    return (path, value, got[key])
                continue
            diff = _compare(value, got[key], path)
            if diff is not None:
                return diff
        return None
    if isinstance(expect, list):
        if not isinstance(got, list) or len(got) != len(expect):
            return (where, expect, got)
        for i, (a, b) in enumerate(zip(expect, got, strict=True)):
            diff = _compare(a, b, f"{where}[{i}]")
            if diff is not None:
                return diff
        return None
    if expect != got or type(expect) is not type(got):
        return (where, expect, got)
    return None


# -- this engine, speaking the protocol ----------------------------------------------------------


def serve(stdin: IO[Any], stdout: IO[str], rule_files: Sequence[str] = ()) -> int:
    """Answer each record line of ``stdin`` with its expected-output line (the protocol).

    Records are read as ``replay`` reads them: each line at most 1 MiB (a longer one, bad JSON
    or JSON nested too deeply is answered with an error object, and the next line is read), and
    a record's ``variant`` is a built-in id or one of ``rule_files`` (by its id or its path as
    given, ``--rules FILE``): a record's text is never opened as a path.
    """
    from ..engine.records import json_lines_of
    from ..loading import record_loader

    load = record_loader(rule_files)
    source = getattr(stdin, "buffer", stdin)  # the bytes under a text stream
    for _, record in json_lines_of(source, "stdin"):
        if isinstance(record, RecordError):
            answer: dict[str, Any] = {
                "error": {"index": None, "action": None, "clause": None, "message": str(record)}
            }
        else:
            answer = expected_output(record, load=load)
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fivehundred.runtime.adapters.conformance [--rules FILE]…``: this engine
    speaking the protocol; a rule file a record names must be given with ``--rules``. A
    problem with the arguments or a rule file is one line on stderr and exit code 2."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m fivehundred.runtime.adapters.conformance",
        description="Answer game records on stdin with replay --json lines (the protocol).",
    )
    parser.add_argument("--rules", action="append", default=[], metavar="FILE")
    args = parser.parse_args(argv)
    try:
        return serve(sys.stdin, sys.stdout, args.rules)
    except FiveHundredError as exc:
        print(str(exc).replace("\n", "; "), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
