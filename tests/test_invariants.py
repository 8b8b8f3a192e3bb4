"""Random play: invariants, records, whole games, the hand-written reference, and hidden cards."""

from __future__ import annotations

import io
import json
from collections import Counter
from random import Random

from conftest import codes_of

from fivehundred.runtime.engine.codes import normalise_card
from fivehundred.runtime.engine.errors import IllegalActionError
from fivehundred.runtime.engine.game import Match
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.records import replay
from fivehundred.runtime.studies import benchmark
from fivehundred.runtime.studies.simulate import simulate

# score.table (G) by hand: value = 40 + 20 * strain + 100 * (tricks - 6); misères 250 / 500 / 500.
STRAIN_VALUE = {"S": 40, "C": 60, "D": 80, "H": 100, "NT": 120}
MISERE_VALUE = {"MIS": 250, "OMIS": 500, "BMIS": 500}


def value_of(bid: str) -> int:
    if bid in MISERE_VALUE:
        return MISERE_VALUE[bid]
    level = int(bid.rstrip("SCDHNT"))
    return STRAIN_VALUE[bid.lstrip("0123456789")] + 100 * (level - 6)


def expected_points(bid: str, tricks_by_side: tuple[int, ...], cside: int) -> tuple[int, int]:
    """A hand's points from score.table (G), written independently of the engine."""
    points = [0, 0]
    own, other = tricks_by_side[cside], tricks_by_side[1 - cside]
    value = value_of(bid)
    if bid in MISERE_VALUE:
        points[cside] = value if own == 0 else -value
        return tuple(points)
    level = int(bid.rstrip("SCDHNT"))
    if own >= level:
        points[cside] = 250 if own == 10 and value < 250 else value
    else:
        points[cside] = -value
    points[1 - cside] = 10 * other
    return tuple(points)


def test_simulate_hands_invariants(rules):
    summary = simulate(rules, hands=10000, seed=20240501, check=True)
    assert summary.hands == 10000
    assert summary.invariant_checks == 10000
    assert summary.made + summary.failed + summary.thrown_in + summary.all_passed_played == 10000
    assert sum(summary.contracts.values()) == summary.made + summary.failed
    assert set(summary.contracts) <= set(rules.bid_codes)
    # Every hand takes at least the four calls of the auction.
    assert summary.decisions >= 4 * 10000


def test_simulate_records_replay(rules):
    buf = io.StringIO()
    summary = simulate(rules, hands=1000, seed=77, records=buf, check=True)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 1000
    contracts: Counter[str] = Counter()
    made = failed = thrown = decisions = 0
    for i, line in enumerate(lines):
        rec = json.loads(line)
        assert rec["variant"] == "australian" and rec["dealer"] == i % 4
        assert rec["scores"] == [0, 0]
        state = replay(rec)
        # A whole discard is one record text but one decision per card.
        decisions += sum(len(a.split()) - 1 if a[:8] == "discard " else 1 for a in rec["actions"])
        assert state.is_over, i
        res = state.result
        if res.contract < 0:
            thrown += 1
            assert res.points == (0, 0)
            continue
        bid = rules.bid_codes[res.contract]
        contracts[bid] += 1
        made += bool(res.made)
        failed += not res.made
        # The tricks add up, and the points are the table's (score.table).
        assert sum(res.tricks_by_side) == len(state.tricks)
        assert res.complete == (len(state.tricks) == 10)
        if not res.complete:
            assert bid in MISERE_VALUE and res.made is False
        cside = rules.side_of_seat[res.contractor]
        assert res.points == expected_points(bid, res.tricks_by_side, cside), (i, bid, res)
    # The replays found the very contracts and results the simulation counted.
    assert dict(contracts) == summary.contracts
    assert (made, failed, thrown) == (summary.made, summary.failed, summary.thrown_in)
    assert decisions == summary.decisions


def my_winner(scores: list[int], result, rules) -> int | None:
    """end.must-bid-to-win and end.lose (G): a side wins only by reaching 500 on its own successful
    contract; a side at -500 or below loses."""
    if result.contract < 0:
        return None
    cside = rules.side_of_seat[result.contractor]
    if result.made and scores[cside] >= 500:
        return cside
    for side in (0, 1):
        if scores[side] <= -500:
            return 1 - side
    return None


def test_whole_games(rules):
    rng = Random(99)
    ended_by_contract = ended_backwards = 0
    for _ in range(50):
        match = Match(rules, rng)
        totals = [0, 0]
        while match.winner is None:
            match.hand.playout(rng)
            result = match.finish_hand()
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            assert match.scores == totals
            assert match.winner == my_winner(totals, result, rules)
            assert match.hands_played < 1000
        if result.made and totals[match.winner] >= 500:
            ended_by_contract += 1
        else:
            assert totals[1 - match.winner] <= -500
            ended_backwards += 1
    assert ended_by_contract + ended_backwards == 50
    summary = simulate(rules, games=50, seed=5, check=True)
    assert summary.games == 50 and sum(summary.wins_by_side) == 50


def test_engine_agrees_with_reference(rules):
    """benchmark.reference_hand is a hand-written playout making the same random choices."""
    a, b = Random(314), Random(314)
    for i in range(5000):
        contract, decisions, tricks, points = benchmark.engine_hand(rules, i % 4, a)
        want = benchmark.reference_hand(i % 4, b)
        assert (contract, decisions, tuple(tricks), tuple(points)) == want, i


def _cards_in(obj, key: str = "") -> set[str]:
    """Every card code mentioned in an observation (bids in the auction are not cards)."""
    if isinstance(obj, str):
        out = set()
        for word in obj.replace(":", " ").split():
            code = normalise_card(word)
            if code is not None:
                out.add(code)
        return out
    if isinstance(obj, dict):
        return set().union(
            set(), *(_cards_in(v, k) for k, v in obj.items() if k not in ("auction", "contract"))
        )
    if isinstance(obj, list):
        return set().union(set(), *(_cards_in(v, key) for v in obj))
    return set()


def test_observations_never_leak(rules):
    rng = Random(4242)
    checked = 0
    opens = 0
    omis = rules.bid_action("OMIS")
    for n in range(150):
        state = HandState.new(rules, n % 4, rng)
        if n % 3 == 0:
            state.apply(omis)  # every third hand is an open misère, to see it faced
            while state.phase_name == "auction":
                state.apply(rules.PASS)
        while True:
            played = set()
            for _, cards, _ in state.tricks:
                played |= {rules.action_str(a).split(":")[0] for a in cards}
            played |= {rules.action_str(a).split(":")[0] for a in state.trick}
            for seat in range(4):
                obs = state.observation(seat)
                checked += 1
                own = set(codes_of(rules, state.hands[seat]))
                assert set(obs["hand"]) == own
                faced = {c for cards in obs["faced"].values() for c in cards}
                if faced:
                    opens += 1
                    assert rules.bid_open[state.contract] == "after-first-trick"
                    assert state.n_tricks >= 1 and seat != state.contractor
                    assert faced == set(codes_of(rules, state.hands[state.contractor]))
                hidden = set()
                for other in range(4):
                    if other != seat:
                        hidden |= set(codes_of(rules, state.hands[other]))
                if state.phase_name == "auction":
                    hidden |= set(codes_of(rules, state.kitty))
                if seat != state.contractor:
                    hidden |= set(codes_of(rules, state.discarded))
                hidden -= played | faced
                seen = _cards_in({k: v for k, v in obs.items() if k != "legal"})
                if "legal" in obs:
                    assert state.to_move == seat
                    if state.phase_name != "auction":
                        seen |= _cards_in(obs["legal"])
                assert not seen & hidden, (seat, seen & hidden, state.phase_name)
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
    assert checked > 10000
    assert opens > 0  # some open misère was faced along the way


def test_illegal_actions_cite_clauses_of_the_variant(rules):
    """Random states: every legal action applies (checked), and every other action of the
    australian action space is refused with an IllegalActionError citing a clause australian
    has, leaving the state as it was."""
    rng = Random(8)
    candidates = [
        *range(rules.NOMINATE + 4),
        *range(rules.DISCARD, rules.n_actions),  # one card discarded per action
    ]
    refused = 0
    for n in range(60):
        state = HandState.new(rules, n % 4, rng)
        while not state.is_over:
            legal = state.legal_actions()
            for a in legal[:12]:
                state.copy().apply(a)
            before = (
                state.legal_actions(),
                list(state.hands),
                list(state.calls),
                list(state.trick),
            )
            for a in candidates:
                if a in legal:
                    continue
                try:
                    state.apply(a)
                except IllegalActionError as exc:
                    assert exc.clause in rules.clause_ids, (exc.clause, str(exc))
                    refused += 1
                else:  # pragma: no cover - a failure
                    raise AssertionError(f"{rules.action_str(a)} was applied")
            assert (state.legal_actions(), state.hands, state.calls, state.trick) == before
            state.apply(legal[int(rng.random() * len(legal))])
    assert refused > 10000
