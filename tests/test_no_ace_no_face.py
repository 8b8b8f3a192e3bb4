"""No ace, no face (issue 17 §4): a published house rule, the Five Hundred rules of Iowa State
University's intramural sports: "If you have no aces, jacks, queens, kings or joker, then at your
turn to bid you may announce 'no ace - no face'" and the cards are redealt by the same dealer.

The option ``auction.no_ace_no_face`` (default off) and its house variant ``no-ace-no-face``
(Australian): the action ``redeal``, legal in place of a seat's first call when its hand holds no
ace, king, queen, jack (the bowers are jacks) or joker; the hand is thrown in, scores nothing and
the same dealer deals again. The published rule lets the partner refuse; here the claim decides.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random

import pytest

import fivehundred
from fivehundred.generated.rulesets import VARIANTS
from fivehundred.runtime.adapters.tensors import information_state_layout, observation_layout
from fivehundred.runtime.bots.registry import make_bot
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.errors import IllegalActionError, InvalidActionError
from fivehundred.runtime.engine.fast import FastEngine, FastMatch, Playout, fast_engine
from fivehundred.runtime.engine.game import Match, load_builtin
from fivehundred.runtime.engine.hand import OVER, HandState
from fivehundred.runtime.engine.records import RECORD_FORMAT, record_of, replay, replay_view
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.engine.tableformat import OPTIONS
from fivehundred.runtime.studies.reached import hand_events
from fivehundred.runtime.studies.simulate import Summary, _tally

VARIANT = "no-ace-no-face"
RULES = load_builtin(VARIANT)
BASE = load_builtin("australian")

# Seat 1 (the dealer's left, dealer 0) holds no ace, king, queen, jack or joker, and a hand
# worth no bid; seat 2 the four jacks (the bowers of every trump suit) and low cards; seat 3 the
# joker and low cards only; seat 0 the aces and kings.
HANDS = [
    "AS KS QS AC KC QC AD KD AH KH",
    "9S 10S 9C 10C 8D 9D 10D 8H 9H 10H",
    "JS JC JD JH 5S 6S 7S 8S 5C 6C",
    "JK 7C 8C 4D 5D 6D 7D 4H 5H 6H",
]
KITTY = "QD QH 7H"


def _hand(dealer: int = 0, faceless: int = 1) -> HandState:
    """The hands above, dealt by ``dealer``, turned so that the faceless one is ``faceless``'s
    (and the others follow it clockwise, as above)."""
    masks = [sum(1 << RULES.card(c) for c in h.split()) for h in HANDS]
    turned = [masks[(s - faceless + 1) % 4] for s in range(4)]
    kitty = sum(1 << RULES.card(c) for c in KITTY.split())
    return HandState(RULES, dealer, turned, kitty)


def test_the_option_is_registered_off_by_default_and_set_by_the_house_variant() -> None:
    """The registry's entry (default off, late: the stored summaries of every other variant stay
    valid), its clause, and the source it cites; only the house variant turns it on."""
    opt = next(o for o in OPTIONS if o.path == "auction.no_ace_no_face")
    assert opt.default is False and opt.late and opt.clause == "auction.no-ace-no-face"
    assert "Iowa State" in opt.description and "joker counts" in opt.description
    assert RULES.tables["auction"]["no_ace_no_face"] is True
    assert "Iowa State University intramural Five Hundred rules" in RULES.tables["sources"]
    for variant in VARIANTS:
        if variant != VARIANT:
            assert load_builtin(variant).tables["auction"]["no_ace_no_face"] is False, variant
    assert "auction.no-ace-no-face" in RULES.clause_ids
    assert "auction.no-ace-no-face" not in BASE.clause_ids


def test_the_face_cards_are_aces_kings_queens_jacks_and_the_joker() -> None:
    """The published rule: "no aces, jacks, queens, kings or joker"; the bowers are jacks; the
    numbered 11, 12 and 13 of the six-handed pack are no face cards."""
    faces = {RULES.deck[c] for c in range(RULES.n_cards) if RULES.face_mask >> c & 1}
    assert faces == {f"{r}{s}" for r in "AKQJ" for s in "SCDH"} | {"JK"}
    tables = copy.deepcopy(load_builtin("six-handed").tables)
    tables["auction"]["no_ace_no_face"] = True
    six = Rules(tables)
    ranks = {tables["card_rank"][c] for c in range(six.n_cards) if six.face_mask >> c & 1}
    assert ranks == {"A", "K", "Q", "J", "JK"}
    assert {"11", "12", "13"} <= set(tables["card_rank"])


def test_a_faceless_hand_may_ask_in_place_of_its_first_call() -> None:
    """Seat 1 (no ace, no face) may ask for a redeal at its first call; it is optional (pass
    and the bids stay legal)."""
    state = _hand()
    legal = state.legal_actions()
    assert RULES.REDEAL in legal and RULES.PASS in legal and RULES.bid_action("6S") in legal
    assert legal[-1] == RULES.REDEAL  # the last id
    assert state.observation(1)["legal"][-1] == "redeal"


def test_a_faceless_hand_may_ask_after_others_have_bid() -> None:
    """The claim is made at one's turn to bid, whatever was called before (Iowa State)."""
    state = _hand(dealer=0)
    # Seat 1 passes: seat 2's first call may not ask (it holds JS), seat 3's neither (JK).
    state.apply(RULES.PASS)
    for seat, card in ((2, "JS"), (3, "JK")):
        assert state.to_move == seat
        with pytest.raises(IllegalActionError) as info:
            state.apply(RULES.REDEAL)
        assert info.value.clause == "auction.no-ace-no-face"
        assert f"he holds {card}" in info.value.reason
        state.apply(RULES.bid_action("6S") if seat == 2 else RULES.PASS)
    # The faceless hand dealt to the dealer, who calls last: a bid and passes come before it.
    late = _hand(dealer=0, faceless=0)  # the faceless hand is the dealer's: it calls last
    late.apply(RULES.bid_action("6S"))
    late.apply(RULES.PASS)
    late.apply(RULES.PASS)
    assert late.to_move == 0 and RULES.REDEAL in late.legal_actions()


def test_a_jack_a_bower_or_the_joker_bars_the_claim_with_a_sentence_naming_the_rule() -> None:
    """A hand with a jack (JD is the left bower at hearts) or with the joker may not ask: the
    refusal names the seat, the move, a card that bars it and the rule."""
    state = _hand(dealer=0, faceless=0)  # seat 1 holds the jacks, seat 2 the joker
    assert state.to_move == 1
    with pytest.raises(IllegalActionError) as info:
        state.apply_str("redeal")
    err = info.value
    assert (err.seat, err.action, err.clause, err.kind) == (
        1,
        "redeal",
        "auction.no-ace-no-face",
        "redeal",
    )
    assert str(err) == (
        "seat 1 may not ask for a redeal: he holds JS (no ace, no face) [auction.no-ace-no-face]"
    )
    state.apply(RULES.PASS)
    why = state.verify(RULES.REDEAL)
    assert why is not None and why.text() == "he holds JK (no ace, no face)"
    state.apply(RULES.PASS)
    # An ace is named first when the hand holds one (seat 3: the four aces, kings, queens).
    why = state.verify(RULES.REDEAL)
    assert why is not None and why.text() == "he holds AS (no ace, no face)"
    state.apply(RULES.PASS)
    assert state.to_move == 0  # the dealer, faceless: may ask at his first call
    assert state.verify(RULES.REDEAL) is None


def test_the_claim_is_only_in_place_of_the_first_call() -> None:
    """In a rounds auction a second call may not be a redeal."""
    state = _hand()
    state.apply(RULES.bid_action("6D"))  # seat 1, faceless, bids instead of asking
    state.apply(RULES.bid_action("6H"))
    state.apply(RULES.PASS)
    state.apply(RULES.PASS)
    assert state.to_move == 1
    why = state.verify(RULES.REDEAL)
    assert why is not None and why.clause == "auction.no-ace-no-face"
    assert "first call" in why.text()
    assert RULES.REDEAL not in state.legal_actions()


def test_a_redeal_throws_the_hand_in_and_scores_nothing() -> None:
    state = _hand()
    state.apply(RULES.REDEAL)
    assert state.phase == OVER and state.result is not None
    res = state.result
    assert res.redeal and res.contract == -1 and res.points == (0, 0) and not state.tricks
    assert state.calls == [(1, RULES.REDEAL)]
    assert state.legal_actions() == []
    # the clause count of the balance studies and of simulate
    events = hand_events(state)
    assert "auction.no-ace-no-face" in events and "auction.all-pass" not in events
    summary = Summary(VARIANT)
    _tally(summary, RULES, state.dealer, 1, res.contract, res.made, res.tricks_by_side, res.redeal)
    assert (summary.redeals, summary.thrown_in) == (1, 1)
    assert summary.as_json()["redeals"] == 1


def test_the_same_dealer_deals_the_redeal_with_new_cards() -> None:
    """The usual form of the house rule: the same dealer deals again; a hand all pass is thrown
    in and the deal passes to the left as before."""
    match = Match(RULES, Random(5), dealer=0)
    match.hand = _hand(dealer=0)
    before = match.hand.dealt
    match.hand.apply(RULES.REDEAL)
    match.finish_hand()
    assert match.winner is None and match.scores == [0, 0] and match.hands_played == 1
    assert match.dealer == 0 and match.hand.dealer == 0
    assert match.hand.dealt != before and match.hand.phase_name == "auction"
    match.hand = _hand(dealer=0)
    for _ in range(4):
        match.hand.apply(RULES.PASS)
    match.finish_hand()
    assert match.dealer == 1 and match.hand.dealer == 1


def test_the_fast_match_keeps_the_dealer_after_a_redeal() -> None:
    """FastMatch (the fast path of whole games) keeps the dealer as Match does."""

    class Redealing(FastEngine):
        def playout(self, dealer, rng, scores=None, contract=None):  # type: ignore[no-untyped-def]
            zero = (0, 0)
            return Playout(-1, -1, None, zero, zero, True, (), False, (), [RULES.REDEAL],
                           ((), 0, 0), True)  # fmt: skip

    match = FastMatch(Redealing(RULES, None), Random(1), dealer=2)
    for _ in range(3):
        hand, dealer, _ = match.play_hand()
        assert hand.redeal and dealer == 2 and match.dealer == 2
    assert match.hands_played == 3 and match.scores == [0, 0]


def test_a_record_with_a_redeal_round_trips() -> None:
    """Records keep format 1: ``redeal`` is one more action text."""
    state = _hand()
    game = fivehundred.load(VARIANT)
    api_state = game.deal([h.split() for h in HANDS], KITTY.split(), dealer=0)  # public State
    api_state.apply("redeal")
    record = api_state.record()
    assert record["format"] == RECORD_FORMAT == 1 and record["actions"] == ["redeal"]
    again = replay(json.loads(json.dumps(record)), RULES)
    assert again.result is not None and again.result.redeal
    view = replay_view(again)
    assert view["auction"] == [{"seat": 1, "call": "redeal", "inkle": False}]
    assert view["contract"] is None and view["hand"]["points"] == [0, 0]
    state.apply(RULES.REDEAL)
    assert record_of(_hand(), [RULES.REDEAL]) == record
    assert game.from_record(record).is_over()


def test_the_command_line_refuses_an_illegal_claim_naming_the_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = record_of(_hand(), [])
    record["actions"] = ["pass", "redeal"]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "seat 2 may not ask for a redeal: he holds JS (no ace, no face)" in err
    assert "[auction.no-ace-no-face]" in err and "Traceback" not in err
    record["actions"] = ["redeal"]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert "asked for a redeal" in capsys.readouterr().out


def test_a_variant_without_the_option_has_no_redeal_and_its_ids_are_unchanged() -> None:
    """Every existing variant keeps its action ids (OpenSpiel's and PettingZoo's too, which are
    these ids): the redeal id is appended after the discards, only with the option."""
    for variant in VARIANTS:
        r = load_builtin(variant)
        if variant == VARIANT:
            continue
        assert r.REDEAL == -1 and r.n_actions == r.DISCARD + r.n_cards, variant
        assert all(kind != "redeal" or count == 0 for kind, _, count, _ in r.action_layout()), (
            variant
        )
        with pytest.raises(InvalidActionError):
            r.parse_action("redeal")
    assert BASE.n_actions == 172  # README's "172 for Australian 500"
    assert RULES.n_actions == BASE.n_actions + 1 and BASE.n_actions == RULES.REDEAL
    same = [row for row in RULES.action_layout() if row[0] != "redeal"]
    assert same == [row for row in BASE.action_layout() if row[0] != "redeal"]
    assert RULES.action_str(RULES.REDEAL) == "redeal"
    assert RULES.parse_action("REDEAL") == RULES.REDEAL
    assert fivehundred.load(VARIANT).num_distinct_actions == 173
    assert fivehundred.load("australian").num_distinct_actions == 172


def test_the_tensors_show_the_claim_only_where_the_option_is() -> None:
    """A section ``redeal`` (one per seat) is added to the variant's tensors; the other variants
    keep their shapes."""
    assert "redeal" not in observation_layout(BASE).by_name
    assert observation_layout(RULES).size == observation_layout(BASE).size + 4
    assert information_state_layout(RULES).size == information_state_layout(BASE).size + 4
    game = fivehundred.load(VARIANT)
    state = game.deal([h.split() for h in HANDS], KITTY.split(), dealer=0)
    state.apply("redeal")
    tensor = state.observation_tensor(2)
    section = observation_layout(RULES)["redeal"]
    assert tensor[section.offset : section.offset + 4] == [0.0, 1.0, 0.0, 0.0]
    assert len(state.information_state_tensor(2)) == information_state_layout(RULES).size


def test_the_heuristic_bots_ask_with_a_weak_hand_and_the_search_bot_decides() -> None:
    """The heuristic asks for the redeal when it would pass; the search bot does not crash."""
    for name in ("heuristic", "heuristic-1", "search:samples=2,bids=2", "random"):
        state = _hand()
        action = make_bot(name).choose(state, Random(3))
        assert action in state.legal_actions(), name
        if name.startswith("heuristic"):
            assert action == RULES.REDEAL, name


@pytest.mark.parametrize("seed_range", [range(0, 40_000)])
def test_the_compiled_engine_agrees_on_the_hands_with_a_redeal(seed_range: range) -> None:
    """The generated engine (generated/engines/no_ace_no_face.py) and the checked path give
    the same playout, redeal included, on every hand where the random stream asks for one."""
    fast = fast_engine(RULES)
    checked = FastEngine(RULES, None)
    assert fast.generated and not checked.generated
    redeals = 0
    for seed in seed_range:
        dealer = seed % 4
        got = fast.playout(dealer, Random(seed))
        if not got.redeal:
            continue
        redeals += 1
        want = checked.playout(dealer, Random(seed))
        assert got == want, seed
        assert got.actions[-1] == RULES.REDEAL and got.result().redeal
        if redeals >= 6:
            break
    assert redeals >= 3
    for seed in range(200):  # and on hands without one
        assert fast.playout(seed % 4, Random(seed)) == checked.playout(seed % 4, Random(seed))
