"""Positions from one seat's view (issue 19 §3): set up from the seat's cards and the public
actions only, and the heuristic's decision with its reason, named by the principle a good player
judges the position by. Each position's hidden cards are dealt afresh from several seeds: the
decision must not change (the bot reads only what the seat may know)."""

from __future__ import annotations

import json

import pytest

import fivehundred
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.errors import ArgumentError, IllegalActionError

AUS = "australian"
#: Dealer 0: seat 1 bids 7S, seat 2 misère (250, after a 7), all pass; seat 0 sits out.
MISERE_CALLS = ["7S", "MIS", "pass", "pass", "pass"]
#: Seat 1 bids open misère (face up after the first trick), all pass; seat 3 sits out.
OPEN_CALLS = ["OMIS", "pass", "pass", "pass"]
OPEN_HAND = [
    "KD",
    "QD",
    "4H",
    "5H",
    "8H",
    "6S",
    "7S",
    "8S",
    "JS",
]  # seat 1's cards after trick 1: no club


def hints(variant, seat, hand, actions, bot="heuristic", **kw):
    """The bot's (action, reason) at this position for three deals of the hidden cards."""
    game = fivehundred.load(variant)
    out = set()
    for seed in (0, 1, 2):
        state = game.position(seat, hand, actions, seed=seed, **kw)
        assert state.hand.controller(state.hand.to_move) == seat
        out.add(state.hint(bot))
    assert len(out) == 1, out  # the hidden cards never change the decision
    return out.pop()


def test_misere_defence_sheds_the_high_card_once_the_bidder_is_beaten():
    """Against misère: the bidder led 6H and the other defender's 9H already beats it, so this
    trick cannot catch him; the defender gets rid of his ace (it could win a later trick where
    the bidder would have had to win) rather than playing low."""
    action, why = hints(
        AUS,
        1,
        ["AH", "5H", "AS", "KS", "QS", "AC", "KC", "QC", "AD", "KD"],
        [*MISERE_CALLS, "6H", "9H"],
    )
    assert action == "AH"
    assert "bidder is beaten" in why


def test_misere_defence_void_throws_a_high_card_not_the_joker():
    """Against misère, void in the suit led, where the joker need not be played (Trickster's
    rules): the bidder's 6H is still winning, and the joker would take the trick from him; a
    high card of another suit is shed instead."""
    hand = ["JK", "AS", "KS", "QS", "10S", "AC", "KC", "QC", "AD", "KD"]
    game = fivehundred.load("trickster-australian")
    legal = game.position(1, hand, [*MISERE_CALLS, "6H", "5H"])
    assert "JK" in [legal.action_name(a) for a in legal.legal_actions()]  # a real choice
    action, why = hints("trickster-australian", 1, hand, [*MISERE_CALLS, "6H", "5H"])
    assert action != "JK" and action[-1] in "SCD"
    assert "not the joker" in why


def test_open_misere_lead_reads_the_face_up_hand_not_only_voids_shown():
    """Against open misère, after the first trick: the face-up hand holds no club (it has not
    shown out of clubs in play) and only the king and queen of diamonds. Leading the 9D forces
    the bidder to win; a club lets him discard. heuristic-1 read only voids shown in play and
    led a club, calling it "a suit the contractor holds"."""
    hand = ["9D", "6H", "7H", "AC", "KC", "QC", "JC", "10C", "5C"]
    actions = [*OPEN_CALLS, "5S", "9S", "10S"]
    action, why = hints(AUS, 0, hand, actions, shown={1: OPEN_HAND})
    assert action == "9D"
    assert "face-up hand" in why and "must win" in why
    old, _ = hints(AUS, 0, hand, actions, bot="heuristic-1", shown={1: OPEN_HAND})
    assert old.endswith("C")  # the miss this test guards against


def test_raising_partner_with_trump_support():
    """Partner (seat 1) opened 6H; seat 3 holds both bowers, the ace and two more hearts and two
    side aces: the pair makes more than 6, so seat 3 raises hearts rather than pass because
    "partner holds the bid"; with a worthless hand it passes."""
    action, why = hints(
        AUS, 3, ["JH", "JD", "AH", "9H", "8H", "AS", "KS", "AC", "5D", "6D"], ["6H", "pass"]
    )
    assert action == "7H"
    assert "raise partner's suit" in why and "partner's 6 shown" in why
    action, why = hints(
        AUS, 3, ["5H", "9S", "8S", "7S", "5C", "6C", "7C", "5D", "6D", "7D"], ["6H", "pass"]
    )
    assert action == "pass"


def test_no_trumps_only_with_stoppers_or_the_joker():
    """A hand of top hearts and the joker but no stopper in two suits is not a no-trump hand
    however many tricks it counts: the bid is in its suit."""
    action, why = hints(AUS, 1, ["JK", "AH", "KH", "QH", "10H", "9H", "8H", "AS", "5C", "5D"], [])
    assert action.endswith("H")
    assert "no trumps" not in why


def test_the_joker_held_counts_toward_the_bid():
    """The same hearts with the joker bid higher chances than without it (the joker is the top
    trump): the reason quotes the tricks expected."""
    with_joker = fivehundred.load(AUS).position(
        1, ["JK", "JH", "AH", "KH", "9H", "5S", "6S", "5C", "6C", "5D"], []
    )
    without = fivehundred.load(AUS).position(
        1, ["4D", "JH", "AH", "KH", "9H", "5S", "6S", "5C", "6C", "5D"], []
    )
    tricks = [float(s.hint()[1].split("about ")[1].split()[0]) for s in (with_joker, without)]
    assert tricks[0] > tricks[1] + 0.4


def test_a_position_that_cannot_have_happened_is_refused_in_a_sentence():
    """Cards the seat holds cannot have been played; a wrong count of cards is named; an
    action the position forbids is the engine's illegal action with its clause."""
    game = fivehundred.load(AUS)
    with pytest.raises(ArgumentError, match="not a hand of 10"):
        game.position(1, ["JK", "JH"], ["6H"])
    with pytest.raises(ArgumentError, match="was played"):
        game.position(
            0,
            ["9D", "6H", "7H", "AC", "KC", "QC", "JC", "10C", "5C"],
            [*OPEN_CALLS, "5S", "9S", "9D"],
        )
    with pytest.raises(IllegalActionError):
        game.position(1, ["AH", "5H", "AS", "KS", "QS", "AC", "KC", "QC", "AD", "KD"], ["7S", "6H"])


def test_hint_verb_prints_the_decision_and_its_reason(capsys):
    """``fivehundred hint`` sets the position up from the command line."""
    code = main(
        [
            "hint",
            AUS,
            "--seat",
            "3",
            "--hand",
            "JH JD AH 9H 8H AS KS AC 5D 6D",
            "--actions",
            "6H,pass",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["action"] == "7H" and "raise partner's suit" in out["reason"]
    assert (
        main(
            [
                "hint",
                AUS,
                "--seat",
                "2",
                "--hand",
                "JH JD AH 9H 8H AS KS AC 5D 6D",
                "--actions",
                "6H,pass",
            ]
        )
        == 2
    )  # seat 3 is to call, not seat 2


@pytest.mark.parametrize("variant", ["australian", "three-handed", "five-handed-call"])
def test_a_position_rebuilt_from_one_seat_gives_the_decision_of_the_real_hand(variant):
    """States met in heuristic play, rebuilt from the deciding seat's cards and the public
    actions only (another seat's discard dropped, the kitty given when the seat took it): the
    heuristic decides the same, with the same reason."""
    from random import Random

    from fivehundred.runtime.bots.heuristic import HeuristicBot
    from fivehundred.runtime.engine.hand import HandState
    from fivehundred.runtime.engine.records import record_actions

    game = fivehundred.load(variant)
    r = game.rules
    bot = HeuristicBot()
    checked = 0
    for k in range(16):
        st = HandState.new(r, dealer=k % r.players, rng=Random(k))
        acts = []
        for _ in range(Random(k).randrange(3, 50)):
            if st.is_over:
                break
            a = bot.choose(st, Random(0))
            acts.append(a)
            st.apply(a)
        if st.is_over:
            continue
        seat = st.controller(st.to_move)
        texts = record_actions(r, acts)
        took = (
            st.contractor == seat
            and st.phase_name not in ("auction", "kitty")
            and r.kitty_take
            and bool(r.discard_count)
            and not st.sans
        )
        if not took:
            texts = [t for t in texts if not t.startswith("discard")]
        kitty = [r.deck[c] for c in range(r.n_cards) if st.kitty >> c & 1] if took else None
        hand = [r.deck[c] for c in range(r.n_cards) if st.hands[seat] >> c & 1]
        pos = game.position(seat, hand, texts, dealer=st.dealer, kitty=kitty, seed=k)
        assert bot.decide(pos) == bot.decide(st), (k, texts)
        checked += 1
    assert checked >= 8


THREE = "three-handed"
#: Three-handed, dealer 0: seat 1 bids 6S, seats 2 and 0 pass; seat 1 leads 9D, seat 2 (the
#: other defender) wins it with the ace; seat 0, void in diamonds with trumps, plays last.
AD_OVER = ["6S", "pass", "pass", "9D", "AD"]
VOID_IN_DIAMONDS = ["AH", "KH", "7H", "AC", "10C", "9C", "8C", "7S", "9S", "8S"]


def test_three_handed_defence_covers_the_defender_about_to_win_the_game():
    """P: each defender scores his own tricks and a player at 500 wins, however he scored. The
    other defender (480) needs two tricks of the few the defence may expect to win the game,
    while the contract would not take the contractor out: seat 0 ruffs his ace (the cheapest
    trump) rather than duck under it. At ordinary scores he plays low under the fellow
    defender, as heuristic-1 always did."""
    action, why = hints(THREE, 0, VOID_IN_DIAMONDS, AD_OVER, scores=[100, 100, 480])
    assert action == "7S"
    assert "cover the defender about to win the game" in why
    old, _ = hints(THREE, 0, VOID_IN_DIAMONDS, AD_OVER, bot="heuristic-1", scores=[100, 100, 480])
    assert old == "7H"  # the miss this test guards against
    action, why = hints(THREE, 0, VOID_IN_DIAMONDS, AD_OVER, scores=[100, 100, 300])
    assert action == "7H" and "play low" in why


def test_three_handed_defence_plays_together_when_the_contract_is_the_threat():
    """The contractor (480) wins the game by making 6S, and P gives the game to the
    contractor when he and a defender reach 500 on the same hand: beating the contract comes
    first, so seat 0 neither overtakes the other defender's winning ace nor wastes a trump on
    it, though that defender (480) is near the target too."""
    action, why = hints(THREE, 0, VOID_IN_DIAMONDS, AD_OVER, scores=[100, 480, 480])
    assert action == "7H"
    assert "making the contract would win the game" in why and "play low" in why


def test_three_handed_defence_leads_through_the_contractor_when_the_contract_is_the_threat():
    """Seat 0 won the first trick; the contractor (seat 1, whose 6S wins him the game) plays
    next and the other defender last. Seat 0 leads low in his weakest side suit, through the
    contractor to the defender sitting over him, not away from his heart honours; at ordinary
    scores the plain lead from the longest suit stays (the king, top of his king-queen)."""
    hand = ["KH", "QH", "10H", "9H", "9C", "8C", "10D", "8D", "7S"]
    actions = ["6S", "pass", "pass", "9D", "7D", "AD"]
    action, why = hints(THREE, 0, hand, actions, scores=[100, 480, 100])
    assert action == "8C"
    assert "lead through the contractor" in why
    action, why = hints(THREE, 0, hand, actions, scores=[100, 100, 100])
    assert action == "KH" and "through" not in why and "longest suit" in why


def test_discard_at_the_contracts_trumps_keeps_the_bowers():
    """Three-handed, seat 0 won the auction at 7H and took the widow (QC, JD, 7H). At the discard
    the engine still shows no trumps (it sets the trump tables when the play starts): read so,
    the jack of diamonds is a low diamond, and heuristic-1 drops it, the left bower. The
    heuristic reads the hand at hearts: it voids spades to ruff them and keeps every trump."""
    game = fivehundred.load(THREE)
    hand = ["QS", "KS", "QC", "AC", "8D", "JD", "KD", "7H", "9H", "10H", "JH", "KH", "JK"]
    trumps = {"JD", "7H", "9H", "10H", "JH", "KH", "JK"}

    def discards(bot):
        out = set()
        for seed in (0, 1, 2):
            state = game.position(
                0, hand, ["pass", "6S", "7H"], kitty=["QC", "JD", "7H"], seed=seed
            )
            dropped = []
            for _ in range(3):
                action, why = state.hint(bot)
                dropped.append((action.removeprefix("discard "), str(why)))
                state.apply(action)
            out.add(tuple(dropped))
        assert len(out) == 1, out
        return out.pop()

    dropped = discards("heuristic")
    assert not {c for c, _ in dropped} & trumps
    assert {c for c, _ in dropped} >= {"QS", "KS"}
    assert "void short side suits to ruff them" in dropped[0][1]
    assert {c for c, _ in discards("heuristic-1")} & trumps == {"JD"}


def test_lead_the_top_of_a_sequence_in_the_longest_suit():
    """Three-handed, seat 0 defends 6S and won the first trick with the ace of diamonds: no
    winner left to cash, no singleton. From king-queen-nine-eight of hearts, the ace out, he
    leads the king: it costs nothing (the queen is as good) and drives out the ace, where the
    eight lets the contractor win cheaply. From king-jack-nine-eight (the queen out) he leads
    low, as heuristic-1 always did."""
    actions = ["6S", "pass", "pass", "9D", "7D", "AD"]
    hand = ["10D", "8D", "KH", "QH", "9H", "8H", "10C", "9C", "7S"]
    action, why = hints(THREE, 0, hand, actions)
    assert action == "KH"
    assert "top of a sequence" in why
    assert hints(THREE, 0, hand, actions, bot="heuristic-1")[0] == "8H"
    broken = ["10D", "8D", "KH", "JH", "9H", "8H", "10C", "9C", "7S"]
    action, why = hints(THREE, 0, broken, actions)
    assert action == "8H"
    assert "lead low from the longest suit" in why


def test_bid_the_game_before_an_opponent_goes_out_on_his_tricks():
    """P: a player at 500 wins however he scored, and the contractor wins when he and another
    reach 500 on one hand. Seat 0 (480) needs only two tricks in defence; seat 1 (400) bids
    6H, the contract that takes him out, on a chance he would pass at ordinary scores (or
    with nobody near the target)."""
    hand = ["KH", "QH", "10H", "9H", "8H", "AC", "9C", "10D", "8D", "10S"]
    action, why = hints(THREE, 1, hand, [], scores=[480, 400, 100])
    assert action == "6H"
    assert "wins the game before the opponents go out" in why
    assert hints(THREE, 1, hand, [], scores=[100, 100, 100])[0] == "pass"
    assert hints(THREE, 1, hand, [], scores=[100, 400, 100])[0] == "pass"


def test_no_risky_contract_when_ones_own_defence_tricks_win_the_game():
    """P: a defender's own tricks count for him. Seat 1 at 480 needs two tricks in defence to
    win: he does not risk 6D on a 63% chance that he bids at ordinary scores."""
    hand = ["JH", "KD", "10D", "8D", "7D", "AS", "QS", "10S", "7S", "8H"]
    assert hints(THREE, 1, hand, [], scores=[100, 100, 100])[0] == "6D"
    action, why = hints(THREE, 1, hand, [], scores=[100, 480, 100])
    assert action == "pass"
    assert "our tricks in defence should win the game" in why


def test_partners_bid_that_wins_the_game_is_not_raised():
    """Partner's 6H (100) takes the side from 400 to 500: the raise the same hand makes at
    ordinary scores adds nothing but risk."""
    hand = ["JH", "JD", "AH", "9H", "8H", "AS", "KS", "AC", "5D", "6D"]
    assert hints(AUS, 3, hand, ["6H", "pass"], scores=[0, 0])[0] == "7H"
    action, why = hints(AUS, 3, hand, ["6H", "pass"], scores=[0, 400])
    assert action == "pass"
    assert "already wins the game" in why


def test_only_a_contract_wins_where_one_must_bid_to_win():
    """G: only the contractor's side wins the game, by its own contract. At 460 any contract
    made wins, and defending never does: a hand passed at 0 all bids 6H at about even odds."""
    hand = ["KH", "QH", "7H", "5H", "AC", "9C", "6C", "9D", "6S", "5S"]
    assert hints(AUS, 1, hand, [], scores=[0, 0])[0] == "pass"
    action, why = hints(AUS, 1, hand, [], scores=[0, 460])
    assert action == "6H"
    assert "only a contract wins the game" in why


def test_bid_just_high_enough_to_win_the_game():
    """At 420, 6C (60) would leave the side short of 500 and 7C (160) takes it out: the club
    hand that opens 6C at 0 all opens 7C, the cheapest bid that wins, not higher."""
    hand = ["10C", "5H", "7C", "7S", "8H", "8S", "JK", "JS", "QC", "QD"]
    assert hints(AUS, 1, hand, [], scores=[0, 0])[0] == "6C"
    action, why = hints(AUS, 1, hand, [], scores=[0, 420])
    assert action == "7C"
    assert "just high enough to win the game" in why


#: Six top trumps and the ten of spades (both bowers, the joker) and three side aces.
LAID_DOWN_SPADES = ["JK", "JS", "JC", "AS", "KS", "QS", "10S", "AH", "AD", "AC"]


def test_a_laid_down_ten_is_bid_in_its_trump_suit_not_at_no_trumps():
    """Three-handed, one call each: the hand's sure tricks (the top trumps draw every trump out,
    then the aces) make 10S whatever the others hold, while at no trumps the jack of clubs is
    no bower and no winner. The call is 10S; heuristic-1 stopped at 9S and the model alone
    (which shrinks strong hands toward the mean) at 7NT."""
    action, why = hints(THREE, 1, LAID_DOWN_SPADES, [])
    assert action == "10S"
    assert "10 sure tricks" in why
    assert hints(THREE, 1, LAID_DOWN_SPADES, [], bot="heuristic-1")[0] == "9S"


def test_a_rounds_auction_opens_at_what_the_hand_lays_down():
    """Australian, bidding in rounds: the same laid-down 10S opens 10S at once (its partner
    and the opponents could only let a cheaper contract be played, for fewer points), while a
    strong hand without sure tricks to spare opens at the cheapest level."""
    action, why = hints(AUS, 1, LAID_DOWN_SPADES, [])
    assert action == "10S"
    assert "lays down" in why
    strong = ["JK", "JS", "JC", "AS", "KS", "QH", "10H", "AH", "AD", "KD"]
    assert hints(AUS, 1, strong, [])[0] == "6S"


def test_one_call_bids_the_highest_level_the_hand_reaches():
    """Three-handed, one call each and no second chance to climb: six hearts (the joker, both
    bowers, the king, ten and eight) and the ace of spades make 7H with the chance the bot asks
    of a bid, so it calls 7H, not the safer 6H that scores less and lets either opponent
    outbid it cheaply."""
    hand = ["10H", "7D", "8H", "AS", "JC", "JD", "JH", "JK", "JS", "KH"]
    action, why = hints(THREE, 1, hand, [])
    assert action == "7H"
    assert "highest the hand reaches" in why


def test_outbid_the_opponents_bid_that_would_win_them_the_game():
    """Seat 1 (400) bids 7S (140), which takes his side to 540 and the game if he makes it.
    Seat 2's clubs make 7C about one time in four: not a bid at ordinary scores, but letting
    the opponents play loses the game as often as they make it, so he takes the contract from
    them (the likeliest outbid, not the cheapest: a misère or a higher level would fail more)."""
    hand = ["7D", "AD", "10C", "8D", "7H", "JS", "9H", "KH", "5S", "8C"]
    assert hints(AUS, 2, hand, ["7S"], scores=[0, 0])[0] == "pass"
    action, why = hints(AUS, 2, hand, ["7S"], scores=[0, 400])
    assert action == "7C"
    assert "would win them the game" in why


def test_bid_to_keep_out_only_an_opponent_who_may_still_win_the_auction():
    """Three-handed, one call each: seat 1 has passed and seat 0 calls after seat 2. With seat 0
    at 420 and free to bid, seat 2 bids its 45% diamonds to keep him from the contract; with
    seat 1 at 420 instead, who has had his one call, seat 2 passes: if seat 0 passes too the hand
    is thrown in, which keeps the leader out better than a contract more likely lost than
    made."""
    hand = ["QD", "JD", "9D", "8D", "AH", "KH", "QH", "9C", "8C", "QS"]
    action, why = hints(THREE, 2, hand, ["pass"], scores=[420, 0, 0])
    assert action == "6D"
    assert "bid to keep them out" in why
    assert hints(THREE, 2, hand, ["pass"], scores=[0, 420, 0])[0] == "pass"
    assert hints(THREE, 2, hand, ["pass"], scores=[0, 0, 0])[0] == "pass"
