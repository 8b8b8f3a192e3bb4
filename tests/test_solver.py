"""The double-dummy solver (runtime/bots/solver.py) against the engine itself.

- Its legal moves and trick winners are the engine's (play.follow-suit, joker.trump,
  trump.left-bower, joker.no-trumps.lead / .follow / .misere-void / .lead-last-only /
  .nominate, the sitting-out partner of a misère), over random play in variants that between
  them have every joker rule;
- its trick counts are brute-force minimax over the engine (``HandState.copy``,
  ``legal_actions``, ``apply_fast``) on small endgames of every kind of contract: a suit (the
  joker and both bowers trumps), no trumps (the joker suitless, led naming a suit, or
  nominated), misère (zero tricks the target; the hand ends when the contractor takes one);
- and for every legal move of the seat to move, not only the ones it tries (equivalent cards).
"""

from __future__ import annotations

from random import Random

import pytest

from fivehundred.runtime.bots.heuristic import HeuristicBot
from fivehundred.runtime.bots.solver import Solver, contract_sides
from fivehundred.runtime.engine.codes import NT, SUITLESS
from fivehundred.runtime.engine.hand import OVER, PLAY, HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.loading import load_rules

#: Between them: the joker's suit nominated (australian), named on lead from any suit
#: (american) or an unled one, led only to the last trick (g-variations), two jokers
#: (australian-46), a misère played with both hands (both-hands-misere), three and six hands.
VARIANTS = [
    "australian",
    "american",
    "g-variations",
    "australian-46",
    "both-hands-misere",
    "three-handed",
    "six-handed",
]


def _contracts(rules: Rules) -> list[int]:
    """The lowest bid of every strain, and every misère bid (not blind)."""
    out: dict[object, int] = {}
    for i in range(rules.n_bids):
        if rules.bid_blind[i]:
            continue
        key = (rules.bid_kind[i], rules.bid_strain[i], rules.bid_open[i], rules.bid_partner[i])
        out.setdefault(key, i)
    return sorted(out.values())


def _endgames(rules: Rules, left: int, each: int, seed: int) -> list[HandState]:
    """Positions of the play with ``left`` tricks to go (some of them mid-trick), ``each`` of
    every contract of the variant, reached by heuristic play from random deals (the joker's
    suit nominated at random where the contractor may)."""
    bot = HeuristicBot()
    rng = Random(seed)
    out: list[HandState] = []
    for contract in _contracts(rules):
        found = 0
        for _ in range(60 * each):
            if found == each:
                break
            state = HandState.new(rules, rng.randrange(rules.players), rng)
            seat = rng.randrange(rules.players)
            holders = [t for t in range(rules.players) if state.hands[t] & rules.joker_mask]
            if holders and rng.random() < 0.5:
                seat = holders[0]  # the contractor holds a joker (to nominate, in no trumps)
            state.end_auction_with(seat, contract)
            stop_mid = rng.randrange(rules.players)
            while state.phase != OVER:
                if (
                    state.phase == PLAY
                    and rules.hand_size - state.n_tricks <= left
                    and len(state.trick) == stop_mid
                ):
                    break
                noms = [a for a in state.legal_actions() if a >= rules.NOMINATE]
                if state.phase == PLAY and noms and rng.random() < 0.7:
                    state.apply_fast(noms[rng.randrange(len(noms))])
                    continue
                a = bot.decide(state).action
                keep = [b for b in state.legal_actions() if b < rules.JOKER_LEAD]
                keep = [b for b in keep if not rules.joker_mask >> b & 1]
                if state.phase == PLAY and (a >= rules.JOKER_LEAD or rules.joker_mask >> a & 1):
                    a = keep[0] if keep else a  # keep the joker for the endgame
                state.apply_fast(a)
            if state.phase == PLAY and not any(a >= rules.NOMINATE for a in state.legal_actions()):
                out.append(state)
                found += 1
    return out


def _brute(state: HandState, counted: int, maximiser: int) -> int:
    """Minimax over the engine: the counted seats' tricks still to come."""
    if state.phase == OVER:
        return 0
    before = sum(w for s, w in enumerate(state.tricks_won) if counted >> s & 1)
    values = []
    for a in state.legal_actions():
        w = state.copy()
        w.apply_fast(a)
        after = sum(x for s, x in enumerate(w.tricks_won) if counted >> s & 1)
        values.append(after - before + _brute(w, counted, maximiser))
    return max(values) if maximiser >> state.controller(state.to_move) & 1 else min(values)


def _kinds(state: HandState) -> set[str]:
    """The joker and bower situations a position holds (to check the tests cover them all)."""
    r = state.rules
    live = 0
    for h in state.hands:
        live |= h
    kinds = set()
    if state.misere:
        kinds.add("misere")
    if state.strain < NT and live & state.masks[state.strain] & r.joker_mask:
        kinds.add("trump joker")
    if state.strain < NT:
        for c in range(r.n_cards):
            if live >> c & 1 and state.suit_of[c] == state.strain != r.card_suit[c] < 4:
                kinds.add("left bower")
    if state.strain == NT and live & state.masks[SUITLESS]:
        kinds.add("suitless joker")
    if state.nominated >= 0 and live & r.joker_mask:
        kinds.add("nominated joker")
    return kinds


@pytest.mark.parametrize("variant", VARIANTS)
def test_solver_matches_brute_force_minimax_on_endgames(variant):
    rules = load_rules(variant)
    left = 2 if rules.players >= 5 else 3
    seen: set[str] = set()
    for state in _endgames(rules, left, 4 if rules.players < 5 else 8, seed=len(variant)):
        counted, maximiser = contract_sides(state)
        solver = Solver(state)
        assert solver.tricks() == _brute(state, counted, maximiser), state.dealt
        for a in state.legal_actions():
            w = state.copy()
            before = sum(x for s, x in enumerate(w.tricks_won) if counted >> s & 1)
            w.apply_fast(a)
            gained = sum(x for s, x in enumerate(w.tricks_won) if counted >> s & 1) - before
            assert solver.after(a) == gained + _brute(w, counted, maximiser), (state.dealt, a)
        seen |= _kinds(state)
    # Every joker and bower situation of the variant came up at least once.
    want = {"trump joker", "left bower", "suitless joker", "misere"}
    if rules.joker_nominate == "contractor":
        want.add("nominated joker")
    if not rules.joker_cards:
        want -= {"trump joker", "suitless joker"}
    if "misere" not in rules.bid_kind:
        want.discard("misere")
    assert want <= seen, want - seen


@pytest.mark.parametrize("variant", ["australian", "three-handed"])
def test_a_guess_changes_the_order_of_the_searches_not_the_count(variant):
    """``tricks(guess=g)`` and ``after(a, guess=g)`` give the exact count whatever ``g`` is
    (below, at, above the answer, out of range), from a fresh solver and from one whose table
    the other guesses filled."""
    rules = load_rules(variant)
    for state in _endgames(rules, 4, 2, seed=5):
        exact = Solver(state).tricks()
        shared = Solver(state)
        for g in range(-1, rules.hand_size - state.n_tricks + 3):
            assert Solver(state).tricks(guess=g) == exact, (state.dealt, g)
            assert shared.tricks(guess=g) == exact, (state.dealt, g)
        for a in state.legal_actions():
            if a >= rules.NOMINATE:
                continue
            want = Solver(state).after(a)
            for g in (0, want - 1, want, want + 1, 9):
                assert shared.after(a, guess=g) == want, (state.dealt, a, g)


def test_a_misere_is_solved_to_its_target_of_no_tricks():
    """score.misere: the contractor must take no trick; the defenders maximise its tricks,
    and with ``cap=1`` one trick is as good as any."""
    rules = load_rules("australian")
    for state in _endgames(rules, 3, 6, seed=7):
        if not state.misere:
            continue
        counted, maximiser = contract_sides(state)
        assert counted == state.allies and maximiser & counted == 0
        solver = Solver(state)
        assert solver.tricks(cap=1) == min(1, _brute(state, counted, maximiser))


@pytest.mark.parametrize("variant", VARIANTS)
def test_solver_moves_and_trick_winners_are_the_engines(variant):
    """Random play through the engine and the solver side by side: the same legal moves at
    every step, the same winner of every trick, the hand over at the same moment."""
    rules = load_rules(variant)
    rng = Random(3)
    contracts = _contracts(rules)
    for k in range(30):
        state = HandState.new(rules, k % rules.players, rng)
        state.end_auction_with(rng.randrange(rules.players), contracts[k % len(contracts)])
        while state.phase != PLAY and state.phase != OVER:
            legal = state.legal_actions()
            state.apply_fast(legal[rng.randrange(len(legal))])
        if state.phase != PLAY:
            continue
        legal = [a for a in state.legal_actions() if a < rules.NOMINATE]
        noms = [a for a in state.legal_actions() if a >= rules.NOMINATE]
        if noms and rng.random() < 0.7:
            state.apply_fast(noms[rng.randrange(len(noms))])  # nominate the joker's suit first
        solver = Solver(state)
        counted, _ = contract_sides(state)
        while state.phase == PLAY:
            legal = [a for a in state.legal_actions() if a < rules.NOMINATE]
            assert solver.legal_actions() == legal
            assert solver.to_move == state.to_move
            a = legal[rng.randrange(len(legal))]
            before = sum(x for s, x in enumerate(state.tricks_won) if counted >> s & 1)
            state.apply_fast(a)
            gained = solver.play(a)
            assert gained == sum(x for s, x in enumerate(state.tricks_won) if counted >> s & 1) - (
                before
            )
            if state.phase == OVER:
                assert solver.to_move == -1
            elif not state.trick:
                assert solver.to_move == state.tricks[-1][2]  # the winner leads


def test_equivalent_cards_are_tried_once():
    """Cards of one suit with no live card between them are one move."""
    rules = load_rules("australian")
    for state in _endgames(rules, 3, 3, seed=11):
        solver = Solver(state)
        moves = solver.moves()
        legal = solver.legal_actions()
        assert set(moves) <= set(legal) and moves
        values = {a: solver.after(a) for a in legal}
        # Every legal move is worth the same as one tried: dropping the others lost nothing.
        assert {values[a] for a in legal} <= {values[a] for a in moves}
        assert max(values.values()) == max(values[a] for a in moves)
        assert min(values.values()) == min(values[a] for a in moves)
