"""Two auction rules clubs use (issue 17 §4): bidding after a pass, and who deals after a hand
everybody passed.

``auction.bid_after_pass`` (a house rule; T's app offers bidding after a pass, G and T's main
text forbid it): ``never`` (G, T: "a player who passed may not bid again", the default),
``always`` (every bid cancels the passes before it) and ``if-changed`` (a passed player is asked
again only after a higher bid, and his pass stands until he bids again). ``auction.all_pass:
redeal``: a hand everybody passed is redealt by the same dealer, instead of the next (G, T, P:
"the deal passes").
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from fivehundred.runtime.bots.registry import make_bot
from fivehundred.runtime.engine.errors import IllegalActionError, SpecError
from fivehundred.runtime.engine.fast import FastMatch, fast_engine
from fivehundred.runtime.engine.game import Match
from fivehundred.runtime.engine.hand import HandState, next_dealer
from fivehundred.runtime.engine.records import record_of, replay
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.loading import load_rules
from fivehundred.runtime.studies.reached import event_applies, hand_events

NEVER, ALWAYS, CHANGED = "australian", "bid-after-pass", "bid-after-pass-if-changed"


def _auction(variant: str, calls: list[str], dealer: int = 0) -> HandState:
    """A hand of ``variant`` dealt by ``dealer`` (seat 1 calls first) after ``calls``."""
    state = HandState.new(Rules.builtin(variant), dealer, Random(3))
    for call in calls:
        state.apply_str(call)
    return state


def _codes(state: HandState) -> list[str]:
    return [state.rules.action_str(a) for a in state.legal_actions()]


def test_the_settings_of_the_house_files() -> None:
    """The house files set what their names say; the built-ins keep G's and T's rule."""
    got = {v: Rules.builtin(v).auction["bid_after_pass"] for v in (NEVER, ALWAYS, CHANGED)}
    assert got == {NEVER: "never", ALWAYS: "always", CHANGED: "if-changed"}
    assert Rules.builtin(CHANGED).all_pass == "redeal"
    assert Rules.builtin(ALWAYS).all_pass == "throw-in"


@pytest.mark.parametrize(
    ("variant", "to_move"),
    [(NEVER, 2), (ALWAYS, 1), (CHANGED, 1)],
)
def test_legal_actions_after_a_pass(variant: str, to_move: int) -> None:
    """Seat 1 passes, seat 2 bids 6S, seat 3 passes, seat 0 bids 6C. G, T (never): seat 1 has
    passed and is skipped, seat 2 is asked. always / if-changed: 6C is higher than anything
    bid when seat 1 passed, so seat 1 is asked again and may bid above 6C or pass."""
    state = _auction(variant, ["pass", "6S", "pass", "6C"])
    assert state.to_move == to_move
    legal = _codes(state)
    assert legal[:3] == ["pass", "6D", "6H"]
    assert "6C" not in legal and "6S" not in legal


def test_always_asks_every_passed_player_again_if_changed_keeps_the_pass() -> None:
    """After the calls above, seats 1 and 2 pass. always: seat 3's pass came before 6C, so he
    must pass after it too: he is asked. if-changed: seat 3's pass stands, every player but
    seat 0 stands passed, and the auction is over with seat 0's 6C."""
    calls = ["pass", "6S", "pass", "6C", "pass", "pass"]
    always = _auction(ALWAYS, calls)
    assert always.phase_name == "auction" and always.to_move == 3
    changed = _auction(CHANGED, calls)
    assert changed.phase_name != "auction"
    assert (changed.contractor, changed.rules.bid_codes[changed.contract]) == (0, "6C")


def test_always_ends_when_all_the_others_pass_in_succession_after_the_last_bid() -> None:
    """always: seat 3, who passed before 6C, bids 6D over it; the auction ends only when the
    three others have passed after 6D, seat 1 and seat 2 each a second time."""
    state = _auction(ALWAYS, ["pass", "6S", "pass", "6C", "pass", "pass", "6D", "pass"])
    assert state.phase_name == "auction" and state.to_move == 1
    state.apply_str("pass")
    assert state.phase_name == "auction" and state.to_move == 2
    state.apply_str("pass")
    assert state.phase_name != "auction"
    assert (state.contractor, state.rules.bid_codes[state.contract]) == (3, "6D")


def test_if_changed_asks_a_passed_player_only_after_a_higher_bid() -> None:
    """if-changed: seat 1 passes, 6S and 6C are bid after his pass, so he is asked again at
    his turn; after his second pass he stands passed (why_not_turn cites auction.pass-final)
    until seat 2 bids 6D, which gives him his voice back."""
    state = _auction(CHANGED, ["pass", "6S", "6C", "pass"])
    assert state.to_move == 1
    state.apply_str("pass")
    assert state.to_move == 2
    why = state.why_not_turn(1)
    assert why is not None and why.clause == "auction.pass-final"
    assert state.why_not_turn(3) is None  # he has not passed: he only waits for his turn
    state.apply_str("6D")
    assert state.why_not_turn(1) is None and state.to_move == 3
    never = _auction(NEVER, ["pass", "6S", "6C", "pass"])
    assert never.to_move == 2  # G, T: seat 1 is skipped


def test_never_skips_a_passed_player_for_good() -> None:
    """G, T: the auction goes round skipping who passed and ends when all but the high bidder
    have passed."""
    state = _auction(NEVER, ["pass", "6S", "pass", "6C", "pass"])
    assert state.phase_name != "auction"
    assert (state.contractor, state.rules.bid_codes[state.contract]) == (0, "6C")


def test_a_passed_players_bid_names_the_seat_the_bid_and_the_rule() -> None:
    """At a table, a bid by a seat whose pass stands is refused with auction.pass-final (not a
    bare "not your turn"): for good in G's game, until a higher bid with if-changed."""
    from fivehundred.runtime.server.table import Options, Seat, Table, TableError

    for variant, words in ((NEVER, "may not bid again"), (CHANGED, "only after someone bids")):
        rules = Rules.builtin(variant)
        table = Table("t", rules, (Seat(),) * 4, Options(), 7, {"variant": variant})
        first = table.to_move
        assert first is not None
        table.act(first, "6S")
        passer = table.to_move
        assert passer is not None
        table.act(passer, "pass")
        with pytest.raises(IllegalActionError) as caught:
            table.act(passer, "7H")
        err = caught.value
        assert (err.seat, err.action, err.clause) == (passer, "7H", "auction.pass-final")
        assert words in err.reason
        with pytest.raises(TableError):  # a seat that has not passed only waits
            table.act(first, "7H")


def test_bid_after_pass_is_refused_with_one_round_of_bidding(tmp_path: Path) -> None:
    """American (T) and three-handed (P) bid once round the table: nobody speaks after a pass,
    so the option is a semantic error at its line and column."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "id: club\nextends: american\nname: Club\nsummary: A club.\nsources: [T]\n"
        "auction:\n  bid_after_pass: if-changed\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as caught:
        load_rules(str(path))
    text = str(caught.value)
    assert f"{path}:7:19:" in text
    assert "bid_after_pass: if-changed needs procedure: rounds" in text
    assert "[auction.pass-final]" in text


def test_next_dealer_after_a_hand_everybody_passed() -> None:
    """G, T, P: the deal passes to the left, also after a throw-in; all_pass: redeal keeps the
    dealer after a throw-in, and passes the deal on after a hand that was bid."""
    g, club = Rules.builtin(NEVER), Rules.builtin(CHANGED)
    assert next_dealer(g, 3, -1) == 0 and next_dealer(g, 1, 5) == 2
    assert next_dealer(club, 3, -1) == 3 and next_dealer(club, 1, 5) == 2


class _PassingFirst(Random):
    """``random()`` is 0.0 for its first ``zeros`` calls, then the seeded stream: the random
    bot takes the first legal action, a pass in the auction, so the first hands are thrown in
    (in both engines alike: they draw the same numbers in the same order)."""

    def __init__(self, seed: int, zeros: int) -> None:
        super().__init__(seed)
        self.zeros = zeros

    def random(self) -> float:
        if self.zeros > 0:
            self.zeros -= 1
            return 0.0
        return super().random()


@pytest.mark.parametrize("variant", [NEVER, CHANGED])
def test_the_match_and_the_fast_match_rotate_the_deal_alike(variant: str) -> None:
    """Match and FastMatch deal the same sequence of hands: the next dealer after a bid hand,
    the same one after a hand thrown in (redeal), and a record of every hand replays."""
    rules = Rules.builtin(variant)
    redeals = throw_ins = 0
    for seed in range(3):
        match = Match(rules, _PassingFirst(seed, 150))
        fast = FastMatch(fast_engine(rules), _PassingFirst(seed, 150))
        while match.winner is None and match.hands_played < 60:
            state = match.hand
            actions: list[int] = []
            while not state.is_over:
                legal = state.legal_actions()
                actions.append(legal[int(match.rng.random() * len(legal))])
                state.apply(actions[-1])
            dealer = match.dealer
            res = match.finish_hand()
            playout, fast_dealer, _ = fast.play_hand()
            assert fast_dealer == dealer and playout.actions == actions
            assert fast.dealer == match.dealer
            if res.contract < 0:
                throw_ins += 1
                redeals += match.dealer == dealer
            elif match.winner is None:
                assert match.dealer == (dealer + 1) % 4
            again = replay(json.loads(json.dumps(record_of(state, actions))), rules)
            assert again.result == state.result
    assert throw_ins > 0
    assert redeals == (throw_ins if variant == CHANGED else 0)


def test_a_record_with_a_bid_after_a_pass_replays() -> None:
    """A game record where seat 3 bids 6D after his pass replays to the same result, and the
    balance study counts the bid after a pass."""
    rules = Rules.builtin(ALWAYS)
    state = HandState.new(rules, 0, Random(3))
    actions = [state.apply_str(c) for c in ["pass", "6S", "pass", "6C", "pass", "pass", "6D"]]
    while not state.is_over:
        actions.append(state.legal_actions()[0])
        state.apply(actions[-1])
    assert state.contractor in (0, 1, 2, 3) and state.calls[6] == (3, rules.BID + 2)
    record = json.loads(json.dumps(record_of(state, actions)))
    assert replay(record, rules).result == state.result
    assert "auction.pass-final/bid-again" in hand_events(state)


def test_the_balance_study_counts_the_rules_only_where_they_can_act() -> None:
    """The clause counts of a study: bidding after a pass and the same dealer's redeal are
    listed for the variants with the option, not for G's game."""
    g, always, club = (Rules.builtin(v) for v in (NEVER, ALWAYS, CHANGED))
    assert not event_applies(g, "auction.pass-final/bid-again") and not event_applies(
        g, "auction.all-pass/redeal"
    )
    assert event_applies(always, "auction.pass-final/bid-again")
    assert not event_applies(always, "auction.all-pass/redeal")
    assert event_applies(club, "auction.all-pass/redeal")
    thrown = _auction(CHANGED, ["pass"] * 4)
    assert {"auction.all-pass", "auction.all-pass/redeal"} <= hand_events(thrown)
    assert "auction.all-pass/redeal" not in hand_events(_auction(NEVER, ["pass"] * 4))


@pytest.mark.parametrize("bot", ["heuristic", "search:4"])
def test_bots_bid_from_the_legal_actions(bot: str) -> None:
    """The heuristic and search bots choose among the legal actions, a bid after a pass
    included; whole hands of both house files finish."""
    for variant in (ALWAYS, CHANGED):
        rules = Rules.builtin(variant)
        player = make_bot(bot)
        rng = Random(1)
        for dealer in range(2):
            state = HandState.new(rules, dealer, rng)
            while not state.is_over:
                seat = state.controller(state.to_move)
                action = player.choose(state, rng)
                assert state.is_legal(action), (variant, seat, rules.action_str(action))
                state.apply(action)


def test_action_ids_are_those_of_the_base() -> None:
    """OpenSpiel and PettingZoo number actions from the rules: pass and the bids already exist,
    so the house files keep the australian ids."""
    g = Rules.builtin(NEVER)
    for variant in (ALWAYS, CHANGED):
        r = Rules.builtin(variant)
        assert (r.n_actions, r.PASS, r.BID, r.bid_codes) == (
            g.n_actions,
            g.PASS,
            g.BID,
            g.bid_codes,
        )


@pytest.mark.parametrize(("variant", "same"), [(NEVER, False), (CHANGED, True)])
def test_pettingzoo_hand_episodes_rotate_the_deal_by_the_rules(variant: str, same: bool) -> None:
    """PettingZoo, one hand an episode: after a hand everybody passed the next reset deals
    from the next seat (G, T, P) or, with all_pass: redeal, from the same dealer; the pass and
    the bids keep their action ids."""
    from extras import require

    require("pettingzoo", "pettingzoo")
    from fivehundred.pettingzoo import env

    e = env(variant=variant)
    e.reset(seed=4, options={"dealer": 2})
    pass_id = Rules.builtin(variant).PASS
    for _agent in e.agent_iter():
        *_, termination, truncation, _ = e.last()
        e.step(None if termination or truncation else pass_id)
    assert e.unwrapped._state.hand.result.contract == -1
    e.reset()
    assert e.unwrapped._state.hand.dealer == (2 if same else 3)


@pytest.mark.parametrize("after_pass", ["always", "if-changed"])
def test_with_raising_ones_own_bid_the_compiled_engine_agrees(
    tmp_path: Path, after_pass: str
) -> None:
    """A club file with both T options (raise own bid, bidding after a pass) is compiled in
    memory into its engine, which plays the checked engine's hands action for action; the high
    bidder's extra call still closes the auction."""
    from test_engines import _disagreement

    path = tmp_path / "club.yaml"
    path.write_text(
        "id: club-raise\nextends: australian\nname: Club\nsummary: Both options.\n"
        f"sources: [T]\nauction:\n  raise_own_bid: true\n  bid_after_pass: {after_pass}\n",
        encoding="utf-8",
    )
    rules = load_rules(str(path))
    assert fast_engine(rules).generated
    problems = [_disagreement(rules, seed, None) for seed in range(300)]
    assert [p for p in problems if p] == []
    state = HandState.new(rules, 0, Random(1))
    for call in ["6S", "pass", "pass", "pass", "7S"]:  # seat 1 raises his own 6S
        state.apply_str(call)
    assert state.phase_name != "auction" and state.rules.bid_codes[state.contract] == "7S"


@pytest.mark.parametrize("variant", [NEVER, ALWAYS, CHANGED])
def test_simulate_counts_bids_after_a_pass_and_redeals(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """simulate says how often each rule acted: ``bid_again`` (a player bid after his own pass)
    and ``redealt`` (a hand thrown in and dealt again by the same dealer), the same on the
    fast path and the checked engine; the first hands are all passed (a stream of zeros)."""
    from fivehundred.runtime.studies import simulate as sim

    monkeypatch.setattr(sim, "Random", lambda seed: _PassingFirst(seed, 200))
    rules = Rules.builtin(variant)
    fast = sim.simulate(rules, seed=3, hands=400, check_every=9).as_json()
    monkeypatch.setattr(sim, "fast_engine", lambda rules: None)
    checked = sim.simulate(rules, seed=3, hands=400, check_every=9).as_json()
    for key in ("bid_again", "redealt", "thrown_in"):
        assert fast[key] == checked[key], key
    assert fast["thrown_in"] > 0
    assert fast["redealt"] == (fast["thrown_in"] if variant == CHANGED else 0)
    assert (fast["bid_again"] > 0) == (variant != NEVER)
