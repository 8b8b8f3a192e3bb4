"""Rules tests of the variants beyond the Australian game, each named after its rule clause.

Every test plays real hands through the engine (``HandState.apply_str``, every action checked),
asks ``game_winner`` about a real finished hand, or plays whole games with ``Match``; deals are
built with ``deal_with`` (the named cards where the test needs them, the rest in deck order).
Each docstring cites the source: T (the app's help page), G (the Australian rules page), P (the
three-handed page) or the published two- and five-handed rules (beyond the sources). Every variant
is compiled in memory from its own file under ``specs/variants``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from random import Random

import pytest
from variant_helpers import act, deal_with, legal, overlay_rules, rules_of, spec_path

from fivehundred.generator.docs import render_markdown
from fivehundred.generator.pipeline import compile_spec
from fivehundred.runtime.engine.errors import IllegalActionError
from fivehundred.runtime.engine.game import NO_WINNER, Match, first_dealer, game_winner
from fivehundred.runtime.engine.hand import HandState, deal_cards
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.loading import load_rules
from fivehundred.runtime.studies.simulate import simulate

RANKS_4_TO_A = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def ranks(rules: Rules, suit: str) -> list[str]:
    """The ranks of ``suit`` in the deck, low to high."""
    return [code[:-1] for code in rules.deck if code[-1] == suit and code not in ("JK", "BJ")]


def refused(state: HandState, action: str, clause: str) -> None:
    """``action`` is illegal now and the engine cites ``clause``."""
    with pytest.raises(IllegalActionError) as info:
        state.apply_str(action)
    assert info.value.clause == clause, (info.value.clause, str(info.value))


def finish(state: HandState, seed: int = 0) -> HandState:
    """Play the rest of the hand at random."""
    state.playout(Random(seed))
    assert state.result is not None
    return state


def random_hands(rules: Rules, count: int, seed: int = 0) -> list[HandState]:
    """``count`` finished random hands."""
    rng = Random(seed)
    out = []
    for i in range(count):
        state = HandState.new(rules, i % rules.players, rng)
        state.playout(rng)
        out.append(state)
    return out


# -- australian-45 and australian-46 (T) ---------------------------------------------------------


def test_deck_cards_australian_45() -> None:
    """T: "widow 5" plays 4 to ace in all four suits plus the red joker: 45 cards, a kitty of 5."""
    r = rules_of("australian-45")
    assert r.n_cards == 45
    for suit in "SCDH":
        assert ranks(r, suit) == RANKS_4_TO_A
    assert [r.deck[c] for c in r.joker_cards] == ["JK"]
    assert (r.kitty, r.discard_count, r.hand_size) == (5, 5, 10)


def test_kitty_take_australian_45_five_cards() -> None:
    """T, G: the contractor takes the kitty and discards as many cards: five here."""
    r = rules_of("australian-45")
    state = deal_with(r, 0, {1: "JK AS KS QS JS AC KC QC JC 10S", "kitty": "4H 5H 6H 7H 8H"})
    act(state, "6S, pass, pass, pass")
    refused(state, "discard 4H 5H 6H", "kitty.take")
    act(state, "discard 4H 5H 6H 7H 8H")
    assert state.phase_name == "play"


def test_deck_cards_australian_46() -> None:
    """T: "widow 6" adds the black joker to the 45-card deck: 46 cards, a kitty of 6."""
    r = rules_of("australian-46")
    assert r.n_cards == 46
    assert [r.deck[c] for c in r.joker_cards] == ["JK", "BJ"]
    assert (r.kitty, r.discard_count) == (6, 6)


#: A deal of australian-46: seat 1 holds the red joker and top hearts, seat 2 the black joker and
#: no heart; dealer 0, so seat 1 bids first and leads.
DEAL_46 = {
    1: "JK AH KH QH JH 10H AS KS QS JS",
    2: "BJ 4C 5C 6C 7C 8C 9C 10C JC QC",
    3: "9H 8H 7H 6H",
    0: "5H 4H",
    "kitty": "4S 5S 6S 7S 8S 9S",
}


def test_deck_joker_black_beats_red_at_no_trumps_46() -> None:
    """T: "if two jokers are in play and both are played to the same trick, the black joker
    beats the red one" (no trumps)."""
    r = rules_of("australian-46")
    state = deal_with(r, 0, DEAL_46)
    act(state, "6NT, pass, pass, pass, discard 4S 5S 6S 7S 8S 9S")
    act(state, "JK:H")  # seat 1 leads the red joker naming hearts
    assert "BJ" in legal(state)  # seat 2 has no heart: he may play his joker
    act(state, "BJ, 6H, 4H")
    leader, _, winner = state.tricks[0]
    assert (leader, winner) == (1, 2)


def test_deck_joker_black_beats_red_as_trumps_46() -> None:
    """T: the black joker is high: as trumps it ranks above the red joker, which ranks above
    the right bower."""
    r = rules_of("australian-46")
    power = r.power[3]  # hearts
    assert power[r.card("BJ")] > power[r.card("JK")] > power[r.card("JH")] > power[r.card("JD")]
    state = deal_with(r, 0, DEAL_46)
    act(state, "6H, pass, pass, pass, discard 4S 5S 6S 7S 8S 9S")
    act(state, "JK")  # the red joker led as a trump
    assert legal(state) == ["BJ"]  # seat 2's only trump: he must follow with it
    act(state, "BJ, 6H, 4H")
    assert state.tricks[0][2] == 2


# -- american (T) ---------------------------------------------------------------------------------


def test_auction_inkles_cannot_win_american() -> None:
    """T: inkles "cannot win the bidding; they show strength in a suit to the partner"; if
    nobody bids otherwise, the hand is thrown in."""
    r = rules_of("american")
    state = HandState.new(r, 0, Random(1))
    act(state, "6S, 6H, pass, pass")
    assert state.is_over
    assert state.result is not None and state.result.contract == -1
    calls = state.observation(0)["auction"]
    assert [c["inkle"] for c in calls] == [True, True, False, False]


def test_auction_inkles_last_two_bidders_start_at_7_american() -> None:
    """T: "bidding starts at the 7 level for the last two players to bid"."""
    r = rules_of("american")
    state = HandState.new(r, 0, Random(1))
    act(state, "6NT, 6S")  # two inkles; the second may be lower: inkles are not bids to beat
    assert not any(code.startswith("6") for code in legal(state))
    refused(state, "6NT", "auction.inkles")
    act(state, "7S, pass")
    assert state.contract == r.bid_index["7S"] and state.contractor == 3


def test_auction_single_round_american() -> None:
    """T: "the American version has only one round of bidding": each player calls once."""
    r = rules_of("american")
    state = HandState.new(r, 0, Random(1))
    act(state, "7S, pass, 7H, pass")
    assert state.phase_name == "discard" and state.contractor == 3
    assert [seat for seat, _ in state.calls] == [1, 2, 3, 0]


def test_kitty_take_and_auction_misere_terms_american() -> None:
    """T: the undealt cards are the "widow" in the American version, and a bid to take no
    trick is "nullo"; the rule book uses these words throughout."""
    r = rules_of("american")
    assert r.terms["kitty"] == "widow" and r.terms["misere"] == "nullo"
    book = render_markdown(compile_spec(spec_path("american")), "en")
    prose = re.sub(r"\bkitty\.[a-z-]+", "", book)  # clause ids such as kitty.take stay
    assert "widow" in prose and "nullo" in prose
    assert "kitty" not in prose.lower() and "misère" not in prose.lower()


def test_play_open_misere_from_start_american() -> None:
    """T: open nullo "is played with the bidder's cards open": face up from the opening lead."""
    r = rules_of("american")
    state = HandState.new(r, 0, Random(3))
    act(state, "OMIS, pass, pass, pass")
    while state.phase_name == "discard":  # the discard, one card per action
        state.apply(state.legal_actions()[0])
    assert state.phase_name == "play" and not state.tricks
    assert state.observation(2)["faced"].keys() == {"1"}
    assert state.sitting_out == 1 << 3  # the partner does not play


def _american_hand(seed: int = 5) -> HandState:
    """A finished American hand: seat 1 (side 1) bids 7 spades, played out at random."""
    r = rules_of("american")
    state = HandState.new(r, 0, Random(seed))
    act(state, "7S, pass, pass, pass")
    return finish(state, seed)


def test_end_must_bid_to_win_off_american() -> None:
    """T: "must bid to win: no" is the American default: passing 500 by any points wins, the
    opponents' trick points included (T: "more than 500", end.line exceed: 500 is not enough)."""
    r = rules_of("american")
    state = _american_hand()
    res = state.result
    assert res is not None and res.points[0] > 0  # side 0 defended and took tricks
    assert res.points[1] < 500
    assert game_winner(r, [510, res.points[1]], res, state) == 0  # past 500 on trick points
    assert game_winner(r, [500, res.points[1]], res, state) is None  # exactly 500: not yet


def test_end_both_out_highest_american() -> None:
    """T: "the game is over when a team has more than 500 points ... the team with the highest
    score wins"; on a tie the contractor's side (this variant's choice)."""
    r = rules_of("american")
    state = _american_hand()
    res = state.result
    assert res is not None
    assert game_winner(r, [530, 610], res, state) == 1
    assert game_winner(r, [610, 530], res, state) == 0
    assert game_winner(r, [550, 550], res, state) == 1  # seat 1's side contracted


# -- three-handed (P) -----------------------------------------------------------------------------


def test_deck_cards_three_handed() -> None:
    """P: "for three players you use 33 cards: ace (high) to 7 in each suit with a joker"."""
    r = rules_of("three-handed")
    assert r.n_cards == 33 and r.players == 3
    for suit in "SCDH":
        assert ranks(r, suit) == ["7", "8", "9", "10", "J", "Q", "K", "A"]
    assert [r.deck[c] for c in r.joker_cards] == ["JK"]
    assert "MIS" not in r.bid_codes  # P has no misère


def test_deal_packets_three_handed() -> None:
    """P: three cards at a time to each player from the dealer's left, three to the widow, then
    four to each, then three to each."""
    r = rules_of("three-handed")
    hands, kitty, dead = deal_cards(r, 2, list(range(33)))  # dealer 2: seat 0 is served first
    order = [0, 1, 2]
    want = {seat: set() for seat in order}
    at = 0
    for size in (3, None, 4, 3):
        if size is None:
            assert kitty == sum(1 << c for c in range(at, at + 3))
            at += 3
            continue
        for seat in order:
            want[seat] |= set(range(at, at + size))
            at += size
    for seat in order:
        assert hands[seat] == sum(1 << c for c in want[seat])
    assert dead == 0


class _Draws:
    """A stand-in for the random source of the draw for first dealer: fixed card draws."""

    def __init__(self, rules: Rules, draws: list[str]) -> None:
        self.rules = rules
        self.draws = [draw.split() for draw in draws]

    def sample(self, population: range, k: int) -> list[int]:
        cards = self.draws.pop(0)
        assert len(cards) == k
        return [self.rules.card(c) for c in cards]


def test_deal_first_dealer_draw_three_handed() -> None:
    """P: "each player draws a card; the lowest card deals, ace low and the joker lowest of
    all; redraw when more than one player draws the same lowest rank"."""
    r = rules_of("three-handed")
    assert first_dealer(r, _Draws(r, ["9S 7H 8D"])) == 1  # type: ignore[arg-type]
    assert first_dealer(r, _Draws(r, ["7S AH 8D"])) == 1  # type: ignore[arg-type]  # ace low
    assert first_dealer(r, _Draws(r, ["AS 7H JK"])) == 2  # type: ignore[arg-type]  # joker
    # seats 0 and 2 tie with sevens and draw again, seat 2 lower this time
    assert first_dealer(r, _Draws(r, ["7S 9H 7D", "10C 8C"])) == 2  # type: ignore[arg-type]


def test_seats_teams_three_handed() -> None:
    """P: no partnerships; "the other two players unite to become the contractor's opponents"
    for that hand only."""
    r = rules_of("three-handed")
    assert r.teams == ((0,), (1,), (2,))
    state = HandState.new(r, 0, Random(2))
    act(state, "7H, pass, pass")
    assert state.contractor == 1 and state.allies == 1 << 1


def test_score_opponents_own_tricks_three_handed() -> None:
    """P: "each opponent scores 10 points for each trick he or she takes ... an opponent may
    not count what the other opponent takes"."""
    r = rules_of("three-handed")
    checked = 0
    for state in random_hands(r, 300, seed=11):
        res = state.result
        assert res is not None
        if res.contract < 0:
            continue
        for seat in range(3):
            if seat != res.contractor:
                assert res.points[seat] == 10 * state.tricks_won[seat]
        others = [s for s in range(3) if s != res.contractor]
        if state.tricks_won[others[0]] != state.tricks_won[others[1]]:
            checked += 1
    assert checked > 20


def test_score_made_no_overtricks_three_handed() -> None:
    """P: "if you bid 8 diamonds and win 9 tricks, you score 280 points, not 380"."""
    r = rules_of("three-handed")
    hands = random_hands(r, 3000, seed=4)
    found = 0
    for state in hands:
        res = state.result
        assert res is not None
        if res.contract < 0 or not res.made:
            continue
        taken = state.tricks_won[res.contractor]
        value = r.bid_value[res.contract]
        if r.bid_level[res.contract] < taken < 10:
            assert res.points[res.contractor] == value
            found += 1
        elif taken == 10:
            assert res.points[res.contractor] == (250 if value < 250 else value)
    assert found


def _hand_with(rules: Rules, want, seeds=range(3000)) -> HandState:  # type: ignore[no-untyped-def]
    """The first random hand (seed by seed) that ``want`` accepts."""
    for seed in seeds:
        rng = Random(seed)
        state = HandState.new(rules, seed % rules.players, rng)
        state.playout(rng)
        if want(state):
            return state
    raise AssertionError("no such hand")


def _contract_made_and_both_opponents_took_tricks(state: HandState) -> bool:
    res = state.result
    assert res is not None
    if res.contract < 0 or not res.made:
        return False
    return all(state.tricks_won[s] for s in range(3) if s != res.contractor)


def test_end_both_out_contractor_wins_three_handed() -> None:
    """P: "if the contractor and one or both opponents reach 500 on the same hand, the
    contractor wins, even with fewer points"."""
    r = rules_of("three-handed")
    state = _hand_with(r, _contract_made_and_both_opponents_took_tricks)
    res = state.result
    assert res is not None
    a, b = [s for s in range(3) if s != res.contractor]
    after = [0, 0, 0]
    after[res.contractor] = 500  # his contract took him to exactly 500
    after[a] = 590  # an opponent far ahead, also past 500 on this hand
    after[b] = 100
    assert game_winner(r, after, res, state) == res.contractor
    after[b] = 520  # both opponents out too
    assert game_winner(r, after, res, state) == res.contractor


def _first_to_reach(state: HandState, before: list[int], seats: list[int]) -> int:
    """Of ``seats``, the first to reach 500 as the tricks are won (P), by the tricks' record."""
    running = list(before)
    for _, _, winner in state.tricks:
        if winner in seats:
            running[winner] += 10
            if running[winner] >= 500:
                return winner
    raise AssertionError("nobody reached 500")


def test_end_both_out_opponents_first_by_trick_three_handed() -> None:
    """P: "if only the two opponents reach 500, the one who reaches it first wins" (trick by
    trick), whatever the totals."""
    r = rules_of("three-handed")

    def both_defenders_took_two(s: HandState) -> bool:
        res = s.result
        assert res is not None
        return res.contract >= 0 and all(
            s.tricks_won[x] >= 2 for x in range(3) if x != res.contractor
        )

    state = _hand_with(r, both_defenders_took_two)
    res = state.result
    assert res is not None
    a, b = [s for s in range(3) if s != res.contractor]
    winners = [w for _, _, w in state.tricks]
    for late, early in ((a, b), (b, a)):
        before = [0, 0, 0]
        before[late] = 500 - res.points[late]  # reaches 500 with his last trick
        before[early] = 490  # reaches 500 with his first trick
        after = [x + p for x, p in zip(before, res.points, strict=True)]
        first_early = winners.index(early)
        last_late = len(winners) - 1 - winners[::-1].index(late)
        want = early if first_early < last_late else late
        assert game_winner(r, after, res, state) == want


def _three_match(want) -> Match:  # type: ignore[no-untyped-def]
    """A three-handed game (dealer 0) whose first hand, played out at random, ``want`` accepts;
    the hand is over and not yet scored (``Match.finish_hand``)."""
    r = rules_of("three-handed")
    for seed in range(500):
        match = Match(r, Random(seed), dealer=0)
        match.hand.playout(match.rng)
        if want(match.hand):
            return match
    raise AssertionError("no such hand")


def _failed(hand: HandState) -> bool:
    res = hand.result
    assert res is not None
    return res.contract >= 0 and not res.made


def test_end_lose_cannot_win_three_handed() -> None:
    """P: "a player at minus 500 or below must play on until an opponent wins the game": the
    game goes on (``end.out_backwards: cannot-win``), and it ends when another player reaches
    500."""
    match = _three_match(_failed)
    hand = match.hand
    res = hand.result
    assert res is not None
    low = res.contractor
    match.scores[:] = [0, 0, 0]
    match.scores[low] = -500 - res.points[low]  # his failed contract takes him to -500 exactly
    match.finish_hand()
    assert match.scores[low] == -500
    assert match.winner is None and match.barred == {low}
    assert match.hand is not hand and match.hand.dealer == 1  # the next hand is dealt
    nxt = match.hand
    nxt.playout(match.rng)
    res = nxt.result
    assert res is not None
    gainers = [s for s in range(3) if s != low and res.points[s] > 0]
    assert gainers
    w = gainers[0]
    match.scores[w] = 500 - res.points[w]  # this hand takes him to 500 exactly
    match.finish_hand()
    assert match.winner == w
    assert match.hand is nxt  # the game is over: no new hand is dealt


def test_end_lose_nobody_wins_three_handed() -> None:
    """P: "if this player later reaches or passes 500, nobody wins the game": a player out
    backwards who reaches 500 ends the game without a winner (``NO_WINNER``)."""

    def seat_0_gains(hand: HandState) -> bool:
        assert hand.result is not None
        return hand.result.contract >= 0 and hand.result.points[0] > 0

    match = _three_match(seat_0_gains)
    hand = match.hand
    res = hand.result
    assert res is not None
    match.barred = frozenset({0})  # he went out backwards in an earlier hand
    match.scores[:] = [500 - res.points[0], 100, 100]  # this hand takes him to 500 exactly
    match.finish_hand()
    assert match.scores[0] == 500
    assert match.winner == NO_WINNER
    assert game_winner(match.rules, match.scores, res, hand) == 0  # had he not been barred
    assert match.hand is hand  # the game is over: no new hand is dealt


def test_end_lose_every_player_out_backwards_three_handed() -> None:
    """P: a player out backwards "must play on until an opponent wins the game"; when the last
    player still able to win goes out backwards too, nobody can win: the game is over and
    nobody wins (``NO_WINNER``)."""
    match = _three_match(lambda h: _failed(h) and h.result.contractor == 2)
    hand = match.hand
    res = hand.result
    assert res is not None
    match.barred = frozenset({0, 1})
    match.scores[:] = [-600, -700, -500 - res.points[2]]  # seat 2 reaches -500 exactly
    match.finish_hand()
    assert match.winner == NO_WINNER
    assert match.hand is hand


def _cautious(state: HandState, rng: Random) -> None:
    """Play a hand: the first to call bids 6 spades, the others pass; the cards at random."""
    r = state.rules
    while state.result is None:
        if state.phase_name == "auction":
            six = r.bid_action("6S")
            state.apply(six if six in state.legal_actions() else r.PASS)
        else:
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("policy", ["random", "cautious"])
def test_end_game_finishes_three_handed(policy: str, seed: int) -> None:
    """P: the game ends when a player reaches 500 (he wins), or when nobody can win any more
    (everyone out backwards, or one out backwards reaches 500): whole games played with
    ``Match`` finish, with a seat or ``NO_WINNER`` as the winner. Random play fails nearly every
    contract (everyone goes out backwards); cautious bidding lets players reach 500."""
    r = rules_of("three-handed")
    rng = Random(seed)
    match = Match(r, rng)
    while match.winner is None:
        assert match.hands_played < 400, match.scores
        before = match.barred
        if policy == "random":
            match.hand.playout(rng)
        else:
            _cautious(match.hand, rng)
        last = match.hand
        match.finish_hand()
    assert match.hand is last and last.result is not None
    scores = match.scores
    if match.winner == NO_WINNER:
        assert len(match.barred) == 3 or any(scores[s] >= 500 for s in before), scores
    else:
        assert match.winner in range(3)
        assert scores[match.winner] >= 500 and match.winner not in before, scores
    if policy == "random":
        assert match.winner == NO_WINNER
    else:
        assert match.winner in range(3)


# -- two-handed (published two-handed rules) -----------------------------------------------------


def test_deal_packets_two_handed_dead_hand_never_played() -> None:
    """Published two-handed rules: the three-handed pack and deal with a third hand dealt face down
    that nobody plays: its cards are never held, played or shown."""
    r = rules_of("two-handed")
    assert (r.players, r.n_cards, r.dead_hand, r.kitty) == (2, 33, 10, 3)
    for state in random_hands(r, 200, seed=3):
        dead = state.dealt[2]
        assert dead.bit_count() == 10
        assert not any(h & dead for h in state.dealt[0]) and not state.dealt[1] & dead
        for _, actions, _ in state.tricks:
            for a in actions:
                card = a if a < r.JOKER_LEAD else r.joker_cards[(a - r.JOKER_LEAD) // 4]
                assert not dead >> card & 1
        codes = {r.deck[c] for c in range(r.n_cards) if dead >> c & 1}
        for seat in range(2):
            obs = state.observation(seat)
            seen = json.dumps([obs[k] for k in ("hand", "tricks", "trick", "faced", "called")])
            assert not any(f'"{code}"' in seen for code in codes)


def test_deck_cards_two_handed_24() -> None:
    """Published two-handed rules (house file): the 24-card two-handed game, 9 to ace, no joker, a
    widow of four and no dead hand."""
    r = rules_of("two-handed-24")
    assert (r.n_cards, r.kitty, r.dead_hand, r.joker_cards) == (24, 4, 0, ())
    for suit in "SCDH":
        assert ranks(r, suit) == ["9", "10", "J", "Q", "K", "A"]
    for state in random_hands(r, 100, seed=2):
        assert state.result is not None


# -- five- and six-handed packs (T, published five-handed rules) ---------------------------------

PLAIN = ["2", "3", "4", "5", "6", "7", "8", "9", "10"]
FACES = ["J", "Q", "K", "A"]
#: The 52-card pack's ranks of a suit, low to high.
FULL = [*PLAIN, *FACES]
#: T's six-player ranks: the 11s and 12s (and the 13s where the pack has them) sit between the
#: 10 and the jack.
WITH_12 = [*PLAIN, "11", "12", *FACES]
WITH_13 = [*PLAIN, "11", "12", "13", *FACES]

#: variant, cards, players, kitty, the ranks of S, C, D, H, jokers.
PACKS = [
    ("six-handed", 63, 6, 3, [WITH_12, WITH_12, WITH_13, WITH_13], ["JK"]),
    ("six-handed-2v2v2", 63, 6, 3, [WITH_12, WITH_12, WITH_13, WITH_13], ["JK"]),
    ("six-handed-65", 65, 6, 5, [WITH_13] * 4, ["JK"]),
    ("six-handed-2v2v2-65", 65, 6, 5, [WITH_13] * 4, ["JK"]),
    ("six-handed-66", 66, 6, 6, [WITH_13] * 4, ["JK", "BJ"]),
    ("six-handed-2v2v2-66", 66, 6, 6, [WITH_13] * 4, ["JK", "BJ"]),
    ("five-handed", 53, 5, 3, [FULL] * 4, ["JK"]),
    ("five-handed-call", 53, 5, 3, [FULL] * 4, ["JK"]),
]
FIVE_AND_SIX = [pack[0] for pack in PACKS]


@pytest.mark.parametrize(("variant", "cards", "players", "kitty", "suits", "jokers"), PACKS)
def test_deck_cards_five_and_six_handed(
    variant: str, cards: int, players: int, kitty: int, suits: list[list[str]], jokers: list[str]
) -> None:
    """T: the six-player pack is "a full 52-card deck plus 11s, 12s, red 13s and the red joker"
    (63 cards); the 5-card kitty adds the black 13s (65), the 6-card kitty the black joker too
    (66). Published five-handed rules: the five-handed pack is the 52 cards and the joker (53). Ten
    cards each, the rest to the kitty."""
    r = rules_of(variant)
    for suit, want in zip("SCDH", suits, strict=True):
        assert ranks(r, suit) == want, suit
        for rank in ("2", "3"):
            assert r.deck[r.card(rank + suit)] == rank + suit
    assert [r.deck[c] for c in r.joker_cards] == jokers
    assert r.n_cards == cards == sum(map(len, suits)) + len(jokers)
    assert (r.players, r.hand_size, r.kitty, r.dead_hand) == (players, 10, kitty, 0)
    hands, rest, dead = deal_cards(r, 0, list(range(r.n_cards)))
    assert [h.bit_count() for h in hands] == [10] * players
    assert (rest.bit_count(), dead) == (kitty, 0)


def test_deal_first_dealer_draw_low_twos_five_handed(tmp_path: Path) -> None:
    """G, P: the lowest card drawn deals, ace low (and the joker lowest of all): in the full pack
    the ace ranks below the 2, the 2 below the 3."""
    r = overlay_rules("five-handed", {"deal": {"first_dealer": "draw"}}, tmp_path, "draw")
    assert first_dealer(r, _Draws(r, ["3S 2H 4D 5C 6S"])) == 1  # type: ignore[arg-type]
    assert first_dealer(r, _Draws(r, ["3S 2H 4D AC 6S"])) == 3  # type: ignore[arg-type]
    assert first_dealer(r, _Draws(r, ["3S 3H JK 4C 5S"])) == 2  # type: ignore[arg-type]
    # seats 1 and 4 tie with twos and draw again
    assert first_dealer(r, _Draws(r, ["3S 2H 4D 5C 2S", "3C 2C"])) == 4  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", FIVE_AND_SIX)
def test_play_random_hands_five_and_six_handed(variant: str) -> None:
    """Every rule of the full packs holds over 300 random hands: the deal holds every card,
    tricks are well formed and points are what the tables say (``simulate`` with checks)."""
    summary = simulate(rules_of(variant), hands=300, seed=13, check=True)
    assert summary.invariant_checks == 300
    assert summary.thrown_in + summary.all_passed_played + summary.made + summary.failed == 300


def test_extends_house_file_by_id(tmp_path: Path) -> None:
    """A rule file may extend any built-in variant by its id, a house file in a sub-folder of
    specs/variants (five-handed-call) included."""
    path = tmp_path / "mine.yaml"
    path.write_text("id: mine\nextends: five-handed-call\nend: {target: 1000}\n", encoding="utf-8")
    r = load_rules(str(path))
    assert (r.partner_call, r.players, r.n_cards, r.target) == ("card", 5, 53, 1000)


def test_seats_teams_six_handed() -> None:
    """T: "3v3" is two teams of three (alternate seats here), "2v2v2" three teams of two
    (partners opposite)."""
    for variant in ("six-handed", "six-handed-65", "six-handed-66"):
        assert rules_of(variant).teams == ((0, 2, 4), (1, 3, 5))
    for variant in ("six-handed-2v2v2", "six-handed-2v2v2-65", "six-handed-2v2v2-66"):
        assert rules_of(variant).teams == ((0, 3), (1, 4), (2, 5))


def test_play_misere_partner_six_handed_both_partners_sit_out() -> None:
    """G, T: the misère bidder's partners do not play; in 3v3 both lay their cards down and
    each trick has four cards."""
    r = rules_of("six-handed")
    state = HandState.new(r, 0, Random(4))
    act(state, "7S, MIS, pass, pass, pass, pass, pass")  # seat 2's misère; he stands
    while state.phase_name == "discard":  # the discard, one card per action
        state.apply(state.legal_actions()[0])
    assert state.sitting_out == (1 << 0) | (1 << 4)
    finish(state)
    assert all(len(actions) == 4 for _, actions, _ in state.tricks)


def test_score_opponents_2v2v2_own_tricks_even_when_pooled(tmp_path: Path) -> None:
    """T: "the opponents (the team that did not take the bid) earn 10 points for each trick
    taken": in 2v2v2 each opposing team scores for its own tricks. The schema
    (``score.opponents``): pooling applies to opponents who score alone; "partnerships score
    their side's tricks either way", so ``opponent_tricks: pooled`` changes nothing here."""
    assert rules_of("six-handed-2v2v2").opponent_tricks == "own"
    r = overlay_rules(
        "six-handed-2v2v2", {"scoring": {"opponent_tricks": "pooled"}}, tmp_path, "pooled"
    )
    assert r.opponent_tricks == "pooled"
    both_took = 0
    for state in random_hands(r, 200, seed=6):
        res = state.result
        assert res is not None
        if res.contract < 0 or r.bid_kind[res.contract] != "suit":
            continue
        cside = r.side_of_seat[res.contractor]
        others = [side for side in range(3) if side != cside]
        for side in others:
            assert res.points[side] == 10 * res.tricks_by_side[side]
        both_took += all(res.tricks_by_side[side] for side in others)
    assert both_took >= 10  # where pooling would have given each team the other's tricks too


def test_score_opponents_pooled_three_handed(tmp_path: Path) -> None:
    """Schema (``score.opponents``): with opponents who score alone (teams none), ``pooled``
    makes each opponent score for all the tricks taken against the contractor."""
    r = overlay_rules(
        "three-handed", {"scoring": {"opponent_tricks": "pooled"}}, tmp_path, "pooled3"
    )
    differ = 0
    for state in random_hands(r, 200, seed=9):
        res = state.result
        assert res is not None
        if res.contract < 0:
            continue
        others = [s for s in range(3) if s != res.contractor]
        pooled = sum(state.tricks_won[s] for s in others)
        for s in others:
            assert res.points[s] == 10 * pooled
        differ += state.tricks_won[others[0]] != state.tricks_won[others[1]]
    assert differ >= 10


# -- five-handed (published five-handed rules) ----------------------------------------------------

#: Seat 1 holds the joker and the top spades; dealer 0, so seat 1 bids first.
DEAL_5 = {1: "JK JS JC AS KS QS 10S 9S 8S AH", "kitty": "4D 5D 6D", 3: "AD KD QD JD"}


def test_seats_partner_choose_one_partner_five_handed() -> None:
    """Published five-handed rules (seats.partner): "the contractor chooses one partner" for the
    hand; each player keeps his own score: the partner scores what the contractor scores."""
    r = rules_of("five-handed")
    assert r.teams == tuple((s,) for s in range(5)) and r.partner_call == "choose"
    state = deal_with(r, 0, DEAL_5)
    act(state, "7S, pass, pass, pass, pass, discard 4D 5D 6D")
    assert state.phase_name == "partner"
    assert legal(state) == ["partner 0", "partner 2", "partner 3", "partner 4"]
    refused(state, "AH", "seats.partner")
    act(state, "partner 3")
    assert state.phase_name == "play" and state.to_move == 1
    assert state.observation(4)["partners"] == [3]  # a chosen partner is public
    finish(state)
    res = state.result
    assert res is not None and res.allies == (1, 3)
    taken = state.tricks_won[1] + state.tricks_won[3]
    value = r.bid_value[r.bid_index["7S"]]
    want = (250 if taken == 10 else value) if taken >= 7 else -value
    assert res.made == (taken >= 7)
    assert res.points[1] == res.points[3] == want
    for seat in (0, 2, 4):
        assert res.points[seat] == 10 * state.tricks_won[seat]


def test_seats_partner_two_partners_at_8_five_handed() -> None:
    """Published five-handed rules (seats.partner): "two partners when the bid is 8 or more"."""
    r = rules_of("five-handed")
    assert r.second_partner_at == 8
    state = deal_with(r, 0, DEAL_5)
    act(state, "8S, pass, pass, pass, pass, discard 4D 5D 6D, partner 3")
    assert state.phase_name == "partner"
    assert legal(state) == ["partner 0", "partner 2", "partner 4"]
    act(state, "partner 0")
    assert state.phase_name == "play"
    finish(state)
    res = state.result
    assert res is not None and res.allies == (0, 1, 3)
    assert res.points[0] == res.points[1] == res.points[3]


def test_seats_partner_misere_alone_five_handed() -> None:
    """A misère is played alone: no partner is chosen (this variant's choice)."""
    r = rules_of("five-handed")
    state = deal_with(r, 0, DEAL_5)
    act(state, "7S, MIS, pass, pass, pass, pass")  # seat 2's misère stands
    while state.phase_name == "discard":  # the discard, one card per action
        state.apply(state.legal_actions()[0])
    assert state.phase_name == "play" and state.allies == 1 << 2


def test_seats_partner_call_a_card_five_handed() -> None:
    """Published five-handed rules (house file five-handed-call): the contractor "calls a card and
    its holder becomes the partner", scoring what he scores; the others learn who it is only when
    the card is played (the holder knows at once)."""
    r = rules_of("five-handed-call")
    assert r.partner_call == "card"
    state = deal_with(r, 0, DEAL_5)
    act(state, "7S, pass, pass, pass, pass, discard 4D 5D 6D")
    assert state.phase_name == "partner"
    assert "call AH" not in legal(state)  # his own card
    assert "call AD" in legal(state)
    act(state, "call AD")
    assert state.phase_name == "play"
    assert state.allies == (1 << 1) | (1 << 3)  # seat 3 holds the ace of diamonds
    rng = Random(2)
    played = False
    while state.result is None:
        for seat in range(5):
            seen = state.observation(seat)["partners"]
            assert seen == ([3] if played or seat == 3 else []), (seat, len(state.tricks))
        action = rng.choice(state.legal_actions())
        played = played or r.action_str(action) == "AD"
        state.apply(action)
    assert played
    for seat in range(5):
        assert state.observation(seat)["partners"] == [3]
    res = state.result
    assert res.allies == (1, 3)
    assert res.points[1] == res.points[3]
    taken = state.tricks_won[1] + state.tricks_won[3]
    assert res.made == (taken >= 7)


# -- g-variations: the joker led only to the last trick ------------------------------------------


def _g_deal_c() -> HandState:
    """Deal C of conftest (seat 1 holds JK and every ace and king) under g-variations."""
    from conftest import DEAL_C, build_hand

    hands, kitty = DEAL_C
    return build_hand(rules_of("g-variations"), 0, list(hands), kitty)


def test_joker_no_trumps_lead_last_only_nominated_g_variations() -> None:
    """Clause joker.no-trumps.lead-last-only (G's variation "the joker can only be led to the
    last trick"; spec choice in g-variations): a joker whose suit the contractor nominated is
    still the joker and may not be led before the last trick. Deal C, 6NT by seat 1, who
    nominates hearts: JK is not among his opening leads, and leading it is refused citing the
    clause; at the last trick it is his only card and he leads it."""
    state = _g_deal_c()
    act(state, "6NT, pass, pass, pass, discard QC QD QH, nominate H")
    assert "JK" not in legal(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply(state.rules.card("JK"))
    assert err.value.clause == "joker.no-trumps.lead-last-only"
    # Random playouts never lead a nominated joker early either (the fast path agrees).
    jk = state.rules.card("JK")
    for seed in range(200):
        s = _g_deal_c()
        act(s, "6NT, pass, pass, pass, discard QC QD QH, nominate H")
        s.playout(Random(seed))
        leads = [n for n, (_leader, cards, _won) in enumerate(s.tricks) if cards[0] == jk]
        assert leads in ([], [s.rules.hand_size - 1]), (seed, leads)


def test_joker_no_trumps_lead_last_only_suitless_and_trumps_g_variations() -> None:
    """Clause joker.no-trumps.lead-last-only without nomination: no ``JK:x`` lead before the last
    trick; in a trump contract (6H by seat 1) the joker is the highest trump and may be led at
    trick 1 (the variation concerns the joker in no trumps and misères)."""
    state = _g_deal_c()
    act(state, "6NT, pass, pass, pass, discard QC QD QH")
    assert not [a for a in legal(state) if a.startswith("JK")]
    trumps = _g_deal_c()
    act(trumps, "6H, pass, pass, pass, discard QC QD QH")
    assert "JK" in legal(trumps)


def test_simulate_counts_all_pass_hands_played_at_no_trumps_apart() -> None:
    """auction.all-pass (house rule, all-pass-no-trumps): a hand all players passed is played at
    no trumps, so simulate counts it as all_passed_played, never as thrown_in (issue 17 §5)."""
    from fivehundred.runtime.studies.simulate import Summary, _tally

    counted = {}
    for variant in ("all-pass-no-trumps", "australian"):
        rules = load_rules(variant)
        state = HandState.new(rules, 0, Random(3))
        act(state, "pass, pass, pass, pass")
        state.playout(Random(3))
        res = state.result
        assert res is not None and res.contract < 0
        summary = Summary(variant)
        _tally(summary, rules, 0, 4, res.contract, res.made, res.tricks_by_side)
        counted[variant] = (summary.thrown_in, summary.all_passed_played)
    assert counted == {"all-pass-no-trumps": (0, 1), "australian": (1, 0)}
