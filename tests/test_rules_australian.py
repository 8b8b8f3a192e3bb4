"""One test (or a few) per rule clause of the australian variant, each named after the clause id.

Every scenario is a hand-built deal from ``conftest.py`` (``DEAL_S``, ``DEAL_B``, ``DEAL_C``,
``DEAL_D``, ``DEAL_M``; dealer 0 unless said, so seat 1 calls first; sides: 0 = seats 0 and 2,
1 = seats 1 and 3). Expected values are derived by hand in the comments. Every illegal action is
checked with ``illegal(state, action, clause)``: it must raise IllegalActionError citing the
clause and leave the observations, the legal actions and every internal field unchanged.

Sources: G (the Australian rules page), T (the app help page), P (the three-handed page); every
test names its rule clause id and its source letter.
"""

from __future__ import annotations

import sys
from random import Random

import pytest
from conftest import DEALS, apply_all, build_hand, codes_of, legal_strs

from fivehundred.runtime.engine.errors import IllegalActionError
from fivehundred.runtime.engine.game import Match, first_dealer, game_winner
from fivehundred.runtime.engine.hand import HandResult, HandState, deal_cards
from fivehundred.runtime.loading import load_rules

# The whole opening ladder (no bid yet): MIS is missing (nobody has bid 7), BMIS is there (a first
# call). Written out by hand from auction.ladder (G) and the spec's placements.
ALL_BIDS = [
    "6S",
    "6C",
    "6D",
    "6H",
    "6NT",
    "7S",
    "7C",
    "7D",
    "7H",
    "7NT",
    "MIS",
    "8S",
    "8C",
    "8D",
    "8H",
    "8NT",
    "9S",
    "9C",
    "9D",
    "9H",
    "9NT",
    "10S",
    "10C",
    "10D",
    "OMIS",
    "BMIS",
    "10H",
    "10NT",
]
OPENING_CALLS = ["pass"] + [b for b in ALL_BIDS if b != "MIS"]


def tricks(state: HandState, lines: list[str]) -> None:
    """Play tricks written as ``"JK 5C 4D 4H >3"``: the cards in playing order from the leader,
    then (optionally) the seat that must win the trick."""
    for line in lines:
        words = line.split()
        winner = None
        if words[-1].startswith(">"):
            winner = int(words.pop()[1:])
        leader = state.to_move
        apply_all(state, words)
        if winner is not None:
            assert state.tricks[-1][0] == leader
            assert state.tricks[-1][2] == winner, (line, state.tricks[-1])


def seat_cards(state: HandState, seat: int) -> list[str]:
    return codes_of(state.rules, state.hands[seat])


# Deal S, contract 6H (or another hearts bid) by seat 1, kitty discarded straight back. Seat 1
# draws trumps for eight tricks; seat 0 wins the last two with KS and AS. By hand: seat 1 takes
# tricks 1-8, seat 0 tricks 9-10; side 1 (seats 1, 3) 8 tricks, side 0 (seats 0, 2) 2 tricks.
LINE_S_EIGHT = [
    "JK 5C 4D 4H >1",
    "JH 6C 5D 5H >1",
    "JD 7C 6D 7S >1",
    "AH 8C 7D 8S >1",
    "KH 9C 8D 9S >1",
    "QH 10C 9D 10S >1",
    "10H JC 10D JS >1",
    "9H QC QD QS >1",
    "5S KC KD KS >0",
    "AS 6S AC AD >0",
]
# Deal S after "discard 5S 6S 6H": seat 1 holds ten trumps and takes every trick.
LINE_S_SLAM = [
    "JK 5C 4D 4H >1",
    "JH 6C 5D 5H >1",
    "JD 7C 6D 7S >1",
    "AH 8C 7D 8S >1",
    "KH 9C 8D 9S >1",
    "QH 10C 9D 10S >1",
    "10H JC 10D JS >1",
    "9H QC QD QS >1",
    "8H KC KD KS >1",
    "7H AC AD AS >1",
]


def hearts_hand(deal, act, bid: str, discard: str, scores=None) -> HandState:
    state = deal("S", scores=scores)
    act(state, [bid, "pass", "pass", "pass", f"discard {discard}"])
    return state


# -- deck, seats, deal ------------------------------------------------------------------------


def test_deck_cards(rules):
    """ "43 cards, 4 players: hearts and diamonds 4..A (11 each), spades and clubs 5..A (10 each),
    one joker" (G, T; deck.cards)."""
    assert rules.n_cards == 43
    by_suit = {s: [c for c in rules.deck if c.endswith(s) and c != "JK"] for s in "SCDH"}
    assert by_suit["S"] == ["5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    assert by_suit["C"] == ["5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]
    assert by_suit["D"] == ["4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"]
    assert by_suit["H"] == ["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    assert len(set(rules.deck)) == 43


def test_deck_joker(rules):
    """ "The joker (the 'bird' in Australia, G) is the highest card in every contract that has it"
    (G, T, P; deck.joker, trump.order): one joker, JK, on top of every trump order and suitless at
    NT."""
    assert [rules.deck[c] for c in rules.joker_cards] == ["JK"]
    jk = rules.card("JK")
    for strain in range(4):
        assert rules.suit_of[strain][jk] == strain
        assert rules.power[strain][jk] == max(rules.power[strain])
    assert rules.suit_of[4][jk] == 4  # suitless at no trumps
    assert rules.power[4][jk] == max(rules.power[4])


def test_seats_teams(rules):
    """ "Four players in two partnerships sitting opposite" (G, T; seats.teams): {0,2} and {1,3}."""
    assert rules.players == 4
    assert rules.teams == ((0, 2), (1, 3))
    assert rules.side_of_seat == (0, 1, 0, 1)


def test_deal_first_dealer(rules):
    """ "First dealer: at random (G)" (deal.first-dealer): every seat can be the first dealer."""
    seen = {first_dealer(rules, Random(seed)) for seed in range(60)}
    assert seen == {0, 1, 2, 3}
    match = Match(rules, Random(7))
    assert match.dealer == first_dealer(rules, Random(7))
    assert match.hand.to_move == (match.dealer + 1) % 4


def test_deal_packets(rules):
    """ "Packets (G, 4 players): 3 to each, 1 to the kitty, 4 to each, 1 to the kitty, 3 to each,
    1 to the kitty", starting at the dealer's left (deal.packets)."""
    # Cards in deck order 0..42, dealer 2: seat 3 (dealer's left) gets 0-2, seat 0 3-5, seat 1
    # 6-8, seat 2 9-11, kitty 12; then four each from 13: seat 3 13-16, seat 0 17-20, seat 1
    # 21-24, seat 2 25-28, kitty 29; then three each: seat 3 30-32, 0 33-35, 1 36-38, 2 39-41,
    # kitty 42.
    hands, kitty, dead = deal_cards(rules, 2, list(range(43)))

    def m(*ranges):
        return sum(1 << c for r in ranges for c in r)

    assert hands[3] == m(range(0, 3), range(13, 17), range(30, 33))
    assert hands[0] == m(range(3, 6), range(17, 21), range(33, 36))
    assert hands[1] == m(range(6, 9), range(21, 25), range(36, 39))
    assert hands[2] == m(range(9, 12), range(25, 29), range(39, 42))
    assert kitty == m([12, 29, 42])
    assert dead == 0
    assert all(h.bit_count() == 10 for h in hands)


def test_deal_rotation(rules, deal, act):
    """ "The deal passes to the left after each hand" (G; deal.rotation)."""
    match = Match(rules, Random(3), dealer=3)
    match.hand = deal("S", dealer=3)
    act(match.hand, ["pass"] * 4)  # thrown in: nobody wins
    match.finish_hand()
    assert match.winner is None
    assert match.dealer == 0
    assert match.hand.dealer == 0
    assert match.hand.to_move == 1
    assert match.hand.phase_name == "auction"


# -- auction ------------------------------------------------------------------------------------


def test_auction_order(deal, act):
    """ "Starts with the player on the dealer's left, clockwise" (G, T, P; auction.order)."""
    state = deal("S", dealer=2)
    order = []
    for call in ["6S", "6C", "6D", "6H", "6NT"]:
        order.append(state.to_move)
        act(state, call)
    assert order == [3, 0, 1, 2, 3]
    assert [s for s, _ in state.calls] == [3, 0, 1, 2, 3]


def test_auction_order_no_play_during_auction(deal, illegal):
    """The auction comes first: a card or a discard is not a call (auction.order)."""
    state = deal("S")
    illegal(state, "5S", "auction.order")
    illegal(state, "discard 5S 6S JK", "auction.order")


def test_auction_ladder(deal):
    """ "A bid is a number of tricks (6 to 10) and a strain ... lowest 6 spades, highest 10 no
    trumps" (G; auction.ladder), with MIS, OMIS and BMIS placed as G says."""
    state = deal("S")
    assert legal_strs(state) == OPENING_CALLS
    assert state.rules.bid_codes == tuple(ALL_BIDS)


def test_auction_higher(deal, act, illegal):
    """ "A higher bid is more tricks, or as many in a higher strain" (G; auction.higher)."""
    state = deal("S")
    act(state, "7H")
    # Above 7H: 7NT, then MIS (someone has bid 7), then 8S upwards.
    assert legal_strs(state) == ["pass", *ALL_BIDS[ALL_BIDS.index("7NT") :]]
    illegal(state, "7H", "auction.higher")
    illegal(state, "7D", "auction.higher")
    illegal(state, "6NT", "auction.higher")
    act(state, "8S")
    illegal(state, "MIS", "auction.higher")
    illegal(state, "7NT", "auction.higher")


def test_auction_pass_final(deal, act):
    """ "A player who passed may not bid again" (G, T; auction.pass-final)."""
    state = deal("S")
    act(state, "pass, 6S, pass, 6C")  # seats 1 and 3 pass
    assert state.to_move == 2  # seat 1 is skipped
    act(state, "6D")
    assert state.to_move == 0  # seat 3 is skipped
    movers = {s for s, _ in state.calls}
    act(state, "7S, 7D")  # seat 0, seat 2
    assert [s for s, _ in state.calls[-2:]] == [0, 2]
    assert movers == {0, 1, 2, 3}
    assert all(seat in (0, 2) for seat, _ in state.calls[4:])


def test_auction_end(deal, act):
    """ "Continues round the table until all but one have passed after a bid" (G main text; T:
    "until three players have passed after a non-pass bid"; auction.end): the auction closes at
    once."""
    state = deal("S")
    act(state, "6S, 7S, pass, pass")  # seat 1 6S, seat 2 7S, seats 3 and 0 pass
    assert state.phase_name == "auction" and state.to_move == 1
    act(state, "pass")  # seat 1 passes: only seat 2 is left, and the auction is over
    assert state.phase_name == "discard"
    assert state.contract == state.rules.bid_index["7S"]
    assert state.contractor == 2 and state.to_move == 2


def test_auction_raise_own_bid_off(deal, act, illegal):
    """auction.raise-own-bid is off in australian (T's option "raise own bid", G's variations;
    spec choice auction.raise-own-bid): after three passes the bidder has no further call."""
    state = deal("S")
    act(state, "6S, pass, pass, pass")
    assert state.phase_name == "discard" and state.contractor == 1
    illegal(state, "7S", "kitty.take")


@pytest.fixture(scope="module")
def raising_rules():
    """The house variant that turns raise_own_bid on (T's option "raise own bid: yes")."""
    return load_rules("raise-own-bid")


def test_auction_raise_own_bid(raising_rules, act, illegal):
    """ "Yes lets the highest bidder raise his bid after the three others have passed" (T's
    option; house file raise-own-bid): one final call."""
    state = build_hand(raising_rules, 0, *_deal_s())
    act(state, "6S, pass, pass, pass")
    assert state.to_move == 1 and state.phase_name == "auction"
    # Not MIS (nobody bid 7), not BMIS (not his first call).
    expected = ["pass"] + [b for b in ALL_BIDS[1:] if b not in ("MIS", "BMIS")]
    assert legal_strs(state) == expected
    illegal(state, "BMIS", "auction.blind-misere")
    illegal(state, "6S", "auction.higher")
    act(state, "8H")
    # One call only: the auction is over at once, 8H by seat 1.
    assert state.phase_name == "discard"
    assert state.rules.bid_codes[state.contract] == "8H" and state.contractor == 1


def test_auction_raise_own_bid_then_done(raising_rules, act):
    """The final call may also be a pass: "Pass keeps the same bid" (T); the standing bid is the
    contract."""
    state = build_hand(raising_rules, 0, *_deal_s())
    act(state, "6S, 7S, pass, pass, pass")  # seat 1 passes after seat 2's 7S
    assert state.to_move == 2 and state.phase_name == "auction"
    act(state, "pass")
    assert state.rules.bid_codes[state.contract] == "7S" and state.contractor == 2


def _deal_s():
    hands, kitty = DEALS["S"]
    return list(hands), kitty


def test_auction_all_pass(deal, act, illegal):
    """ "All pass: the hand is thrown in and the next dealer deals" (G, T, P; auction.all-pass)."""
    state = deal("S")
    act(state, "pass, pass, pass")
    assert state.phase_name == "auction" and state.to_move == 0
    act(state, "pass")
    assert state.is_over
    res = state.result
    assert (res.contract, res.contractor, res.made) == (-1, -1, None)
    assert (res.tricks_by_side, res.points, res.complete) == ((0, 0), (0, 0), True)
    assert state.legal_actions() == []
    illegal(state, "6S", "end.continue")
    illegal(state, "pass", "end.continue")


def test_auction_misere(deal, act, illegal):
    """ "Misère is above every 7 bid and below every 8 bid, and may be bid only after someone has
    bid 7" (G; auction.misere)."""
    state = deal("S")
    assert "MIS" not in legal_strs(state)
    illegal(state, "MIS", "auction.misere")
    act(state, "6NT")
    illegal(state, "MIS", "auction.misere")
    act(state, "7S")
    assert "MIS" in legal_strs(state)
    act(state, "MIS")  # seat 3
    # Between 7NT and 8S: 7NT no longer, 8S yes.
    assert legal_strs(state) == ["pass", *ALL_BIDS[ALL_BIDS.index("8S") :]]
    illegal(state, "7NT", "auction.higher")
    assert state.rules.bid_value[state.rules.bid_index["MIS"]] == 250


def test_auction_open_misere(deal, act, illegal):
    """ "Open misère is above 10 diamonds and below 10 hearts and may be bid at any time, even
    first" (G; auction.open-misere)."""
    state = deal("S")
    assert "OMIS" in legal_strs(state)  # the very first call
    act(state, "10D")
    assert legal_strs(state) == ["pass", "OMIS", "BMIS", "10H", "10NT"]
    act(state, "OMIS")  # seat 2
    assert legal_strs(state) == ["pass", "BMIS", "10H", "10NT"]  # seat 3's first call
    act(state, "10H")
    illegal(state, "OMIS", "auction.higher")


def test_auction_blind_misere(deal, act, illegal):
    """ "Blind misère: misère bid before looking at one's cards" (G; auction.blind-misere), so only
    as a player's first call (spec choice auction.blind-misere), ranked just above open misère."""
    state = deal("S")
    act(state, "6S, 6C, pass, pass")  # seat 1 and seat 2 have bid
    assert state.to_move == 1
    assert "BMIS" not in legal_strs(state)
    illegal(state, "BMIS", "auction.blind-misere")
    fresh = deal("S")
    act(fresh, "6S, BMIS")  # seat 2's first call
    assert fresh.high_seat == 2
    assert legal_strs(fresh) == ["pass", "10H", "10NT"]


# -- kitty --------------------------------------------------------------------------------------


def test_kitty_take(deal, act, illegal):
    """ "The contractor takes the kitty without showing it and discards as many cards, kitty cards
    allowed" (G, P, T; kitty.take)."""
    state = deal("S")
    act(state, "6H, pass, pass, pass")
    assert state.phase_name == "discard" and state.to_move == 1
    # Deck order: spades, clubs, diamonds, hearts, joker.
    assert seat_cards(state, 1) == [
        "5S",
        "6S",
        "JD",
        "6H",
        "7H",
        "8H",
        "9H",
        "10H",
        "JH",
        "QH",
        "KH",
        "AH",
        "JK",
    ]
    # One card per action: each of the 13 cards held may go first (kitty.take).
    assert legal_strs(state) == [f"discard {c}" for c in seat_cards(state, 1)]
    illegal(state, "JK", "kitty.take")
    illegal(state, "pass", "kitty.take")
    illegal(state, "discard 8H 7H", "kitty.take")
    illegal(state, "discard 8H 7H 6H 5S", "kitty.take")
    illegal(state, "discard 8H 7H 5C", "kitty.take")  # 5C is seat 2's
    illegal(state, "discard 5C", "kitty.take")
    act(state, "discard 5S 6S 8H")  # two kitty cards kept, one discarded
    assert state.phase_name == "play" and state.to_move == 1
    assert seat_cards(state, 1) == ["JD", "6H", "7H", "9H", "10H", "JH", "QH", "KH", "AH", "JK"]
    assert codes_of(state.rules, state.discarded) == ["5S", "6S", "8H"]


def test_kitty_discard_one_card_per_action(deal, act, illegal):
    """kitty.take (G, P, T), as the engine numbers it: the contractor discards as
    many cards as the kitty holds, one card per action, in any order; until the last one he may
    do nothing else, and the cards he has put away are his alone to see."""
    state = deal("S")
    act(state, "6H, pass, pass, pass, discard 8H")
    assert state.phase_name == "discard" and state.to_move == 1
    assert "8H" not in seat_cards(state, 1) and len(legal_strs(state)) == 12
    why = illegal(state, "JK", "kitty.take")
    assert "discard 2 cards" in why.reason
    illegal(state, "discard 8H", "kitty.take")  # put away already
    illegal(state, "discard 7H 6H 5S", "kitty.take")  # three more: only two are left to discard
    assert state.observation(1)["discarded"] == ["8H"]
    assert "discarded" not in state.observation(0)
    act(state, "discard 7H 6H")  # the rest of the discard at once, as records write it
    assert state.phase_name == "play"
    assert codes_of(state.rules, state.discarded) == ["6H", "7H", "8H"]


# -- trumps -------------------------------------------------------------------------------------


def test_trump_order(rules, deal, act):
    """ "Joker, jack of trumps (right bower), the other jack of the same colour (left bower), then
    A K Q 10 9 ..." (G, T, P; trump.order). Deal B, hearts: JH led, JD and JK forced; JK wins;
    later QD 9H JD 7D: JD (left bower) over 9H, both trumps over the led QD."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C")
    first = state.copy()
    tricks(first, ["JH JD JK 4H >3"])
    tricks(state, ["4D 5D 8D AD >0", "QD 9H JD 7D >2"])
    hearts = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"]
    powers = [rules.power[3][rules.card(c)] for c in hearts]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 13
    # Every trump outranks every plain card.
    plain = [rules.power[3][c] for c in range(43) if rules.deck[c] not in hearts]
    assert min(powers) > max(plain)


def test_trump_left_bower(deal, act):
    """ "The other jack of the same colour (left bower) belongs to the trump suit for every
    purpose" (G, T, P; trump.left-bower). Hearts trump, deal B: seat 2 holds JD and 5D, no heart."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C")
    # A heart lead: JD is seat 2's only heart, so it must be played.
    lead_heart = state.copy()
    apply_all(lead_heart, "JH")
    assert legal_strs(lead_heart) == ["JD"]
    # A diamond lead: JD is not a diamond; 5D must be played.
    act(state, "4D")
    assert legal_strs(state) == ["5D"]
    act(state, "5D, 8D, AD")  # AD wins trick 1 (no trump fell)
    assert state.tricks[-1][2] == 0
    act(state, "QD, 9H")  # seat 0 leads QD, seat 1 trumps with 9H
    # Seat 2 holds JD and no other diamond: void, so any card, JD included, may be played.
    assert legal_strs(state) == ["6S", "7S", "8S", "9S", "7C", "8C", "9C", "10C", "JD"]
    act(state, "JD, 7D")
    # JD is a trump (above 9H): seat 2 wins.
    assert state.tricks[-1] == (0, tuple(state.rules.card(c) for c in ["QD", "9H", "JD", "7D"]), 2)


def test_trump_left_bower_cites_clause(deal, act, illegal):
    """With hearts trump, 5D on a heart lead while holding JD, or JD on a diamond lead while
    holding 5D, is illegal because of the left bower rule (G, T, P; trump.left-bower)."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C")
    heart = apply_all(state.copy(), "JH")
    diamond = apply_all(state.copy(), "4D")
    # Both are illegal whatever the clause (these asserts hold today) ...
    for st, card in ((heart, "5D"), (diamond, "JD")):
        with pytest.raises(IllegalActionError):
            apply_all(st, card)
    # ... but the cited rule should be the left bower's.
    illegal(heart, "5D", "trump.left-bower")
    illegal(diamond, "JD", "trump.left-bower")


def test_joker_trump(deal, act, illegal):
    """ "With a trump suit the joker is the highest trump; it must be played to a trump lead if it
    is the last trump, and cannot be played to a plain-suit lead while holding a card of that
    suit" (P; joker.trump). Deal B, hearts; seat 3 holds JK, no heart, and QC KC AC."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C")
    heart = state.copy()
    act(heart, "JH, JD")
    assert legal_strs(heart) == ["JK"]  # the last (only) trump must be played
    act(heart, "JK, 4H")
    assert heart.tricks[-1][2] == 3  # JK beats JH: the highest trump
    # A club lead: seat 3 holds clubs, so JK may not be played.
    act(state, "4D, 5D, 8D, AD, QD, 9H, JD, 7D")  # seat 2 wins trick 2 with JD (see above)
    assert state.to_move == 2
    act(state, "7C")
    assert legal_strs(state) == ["QC", "KC", "AC"]
    with pytest.raises(IllegalActionError):
        apply_all(state.copy(), "JK")
    # Leading the joker in a trump contract names no suit (deal S, seat 1 on lead with JK).
    s = hearts_hand(deal, act, "6H", "8H 7H 6H")
    illegal(s, "JK:H", "joker.trump")
    assert "JK" in legal_strs(s)


def test_joker_trump_cites_clause(deal, act, illegal):
    """The joker's obligations in a trump contract come from joker.trump (P)."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C")
    club = state.copy()
    act(club, "4D, 5D, 8D, AD, QD, 9H, JD, 7D, 7C")
    act(state, "JH, JD")
    illegal(state, "6D", "joker.trump")  # holding back the last trump on a heart lead
    illegal(club, "JK", "joker.trump")  # the joker on a club lead while holding clubs


# -- play -----------------------------------------------------------------------------------------


def test_play_misere_partner(deal, act):
    """ "In misère, open misère and blind misère the contractor's partner does not play" (G, T;
    play.misere-partner). Deal M: seat 1's misère; seat 3 never moves and every trick has three
    cards."""
    state = deal("M")
    act(state, "7S, 7NT, pass, pass, MIS, pass, discard KH AH JK")
    assert state.sitting_out == 1 << 3
    movers = set()
    while not state.is_over:
        movers.add(state.to_move)
        state.apply(state.legal_actions()[0])
    assert 3 not in movers
    assert all(len(cards) == 3 for _, cards, _ in state.tricks)
    assert all(3 not in state.trick_seats(leader, 3) for leader, _, _ in state.tricks)
    assert state.tricks_won[3] == 0
    assert seat_cards(state, 3) == [
        "AS",
        "AC",
        "10D",
        "JD",
        "QD",
        "KD",
        "AD",
        "10H",
        "JH",
        "QH",
    ]  # untouched


def test_play_opening_lead(deal, act, illegal):
    """ "The contractor leads to the first trick" (G, P, T; play.opening-lead)."""
    state = deal("S")
    act(state, "pass, pass, 6D, pass")  # seat 3's 6D: the others have passed
    assert state.contractor == 3
    act(state, "discard 8H 7H 6H")
    assert state.phase_name == "play" and state.to_move == 3
    assert legal_strs(state) == ["4D", "5D", "6D", "7D", "8D", "9D", "10D", "QD", "KD", "AD"]
    illegal(state, "7S", "play.follow-suit")  # seat 0's card: not seat 3's


def test_play_follow_suit(deal, act, illegal):
    """ "Follow suit if able, else play any card" (G, P, T; play.follow-suit)."""
    state = hearts_hand(deal, act, "6H", "8H 7H 6H")
    act(state, "JK, 5C, 4D")  # seat 2 and 3 are void in trumps: anything goes
    assert legal_strs(state) == ["4H", "5H"]  # seat 0 must follow hearts
    illegal(state, "7S", "play.follow-suit")
    illegal(state, "AS", "play.follow-suit")
    b = deal("B")
    act(b, "6H, pass, pass, pass, discard 5S 5C 6C, 4D, 5D")
    assert legal_strs(b) == ["6D", "7D", "8D"]
    illegal(b, "QC", "play.follow-suit")
    illegal(b, "4H", "play.follow-suit")  # not seat 3's card


def test_play_trick_winner(deal, act):
    """ "The highest trump wins, else the highest card of the led suit" (G, P, T;
    play.trick-winner). Deal B, hearts: trick 1 4D 5D 8D AD (no trump: AD); trick 2 QD 9H JD 7D
    (trumps 9H and JD: JD, the left bower, is the higher)."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C")
    tricks(state, ["4D 5D 8D AD >0", "QD 9H JD 7D >2"])
    assert state.tricks_won == [1, 0, 1, 0]
    s = hearts_hand(deal, act, "6H", "8H 7H 6H")
    tricks(s, LINE_S_EIGHT[:9])  # trick 9: 5S KC KD KS: KS (led suit) beats 5S; KC, KD off-suit
    assert s.tricks[-1][2] == 0


def test_play_next_lead(deal, act):
    """ "The winner of a trick leads to the next" (G, P, T; play.next-lead)."""
    state = deal("B")
    act(state, "6H, pass, pass, pass, discard 5S 5C 6C, 4D, 5D, 8D, AD")
    assert state.to_move == 0 and state.trick == []
    act(state, "QD, 9H, JD, 7D")
    assert state.to_move == 2


def test_play_open_misere(deal, act):
    """ "Open misère: misère with the contractor's hand face up: after the first trick (G)"
    (play.open-misere). Deal D: seat 0 bids OMIS after three passes; partner seat 2 sits out."""
    state = deal("D")
    act(state, "pass, pass, pass, OMIS")
    assert state.phase_name == "discard" and state.contractor == 0
    act(state, "discard JS JC QD, 5S")
    own = set(seat_cards(state, 0))
    for seat in (1, 2, 3):
        obs = state.observation(seat)
        assert obs["faced"] == {}
        assert not own & _strings(obs)
    act(state, "AS")
    assert state.observation(1)["faced"] == {}
    act(state, "9S")  # seat 1 wins trick 1: now the hand is faced
    faced = [
        "6S",
        "4D",
        "5D",
        "6D",
        "7D",
        "4H",
        "5H",
        "6H",
        "JK",
    ]  # seat 0's nine cards, deck order
    for seat in (1, 2, 3):
        assert state.observation(seat)["faced"] == {"0": faced}
    assert state.observation(0)["faced"] == {}
    act(state, "KS, 10S")
    assert state.observation(3)["faced"] == {"0": faced}  # still nine: seat 0 has not played


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return set(obj.replace(":", " ").split())
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for k, v in obj.items() if k != "auction"))
    if isinstance(obj, list):
        return set().union(set(), *(_strings(v) for v in obj))
    return set()


def test_play_misere_ends(deal, act, illegal):
    """Spec choice play.misere-ends: "Play stops as soon as the contractor takes a trick: nothing
    later can change the score." Deal D, seat 1's misère: seat 0 wins trick 1 with the forced
    joker, then seat 1 must follow 4D with KD or AD and wins trick 2."""
    state = deal("D")
    act(state, "7S, 7NT, pass, pass, MIS, pass, discard JS JC QD")
    tricks(state, ["AC 5C JK >0"])
    assert not state.is_over
    act(state, "4D")
    assert legal_strs(state) == ["KD", "AD"]
    act(state, "KD, 8D")
    assert state.is_over
    assert state.n_tricks == 2
    res = state.result
    assert res.made is False and res.complete is False
    assert res.tricks_by_side == (1, 1)
    assert res.points == (0, -250)
    illegal(state, "9D", "end.continue")


# -- the joker without trumps -----------------------------------------------------------------


def test_joker_no_trumps_wins(deal, act):
    """ "It wins any trick it is played to" (T, G, P; joker.no-trumps.wins). Deal D, 6NT by seat 1:
    trick 2 AC 5C 8C JK: seat 0, void in clubs, plays JK and wins over AC."""
    state = deal("D")
    act(state, "6NT, pass, pass, pass, discard JS JC QD")
    tricks(state, ["AS 7S 9S 5S >1", "AC 5C 8C JK >0"])
    assert state.to_move == 0


def test_joker_no_trumps_follow(deal, act, illegal):
    """ "It may be played to another suit's lead only when void in that suit" (T, G;
    joker.no-trumps.follow); and at no trumps a void player need not play it (G). Deal D, 6NT by
    seat 1."""
    state = deal("D")
    act(state, "6NT, pass, pass, pass, discard JS JC QD, AS, 7S, 9S")
    assert legal_strs(state) == ["5S", "6S"]
    illegal(state, "JK", "joker.no-trumps.follow")
    act(state, "5S, AC, 5C, 8C")
    # Void in clubs: any card, the joker included but not forced.
    assert legal_strs(state) == ["6S", "4D", "5D", "6D", "7D", "4H", "5H", "6H", "JK"]


def test_joker_no_trumps_nominate(deal, act, illegal):
    """ "The contractor holding the joker may name its suit before play; it is then the highest
    card of that suit" (G; joker.no-trumps.nominate). Deal C, 6NT by seat 1."""
    state = deal("C")
    act(state, "6NT, pass, pass, pass, discard QC QD QH")
    assert legal_strs(state)[-4:] == ["nominate S", "nominate C", "nominate D", "nominate H"]
    act(state, "nominate H")
    assert state.to_move == 1 and state.n_tricks == 0
    # JK is now a plain heart: played as a card, no JK:s leads, no second nomination.
    assert legal_strs(state) == ["QS", "KS", "AS", "KC", "AC", "KD", "AD", "KH", "AH", "JK"]
    illegal(state, "nominate S", "joker.no-trumps.nominate")
    tricks(state, ["JK 4H 6H 9H >1"])  # a heart lead: everyone follows hearts
    # Too late to nominate once play has begun (seat 1 on lead again at trick 2 of a new hand).
    late = deal("C")
    act(late, "6NT, pass, pass, pass, discard QC QD QH, AS, 5S, 8S, 10S")
    assert late.to_move == 1
    illegal(late, "nominate H", "joker.no-trumps.nominate")
    # Nobody but the contractor nominates, and not in a trump contract.
    s = hearts_hand(deal, act, "6H", "8H 7H 6H")
    illegal(s, "nominate H", "joker.no-trumps.nominate")


def test_joker_no_trumps_nominate_follows_suit(deal, act, illegal):
    """A nominated joker "is then the highest card of that suit" (G; joker.no-trumps.nominate): it
    follows that suit only, and beats its ace. Deal D, 6NT by seat 0 (three passes, then 6NT), who
    names hearts: trick 1 4D KD 8D 10D (seat 1); trick 2 AS 7S 9S and seat 0, holding 5S 6S,
    may not play the joker (a heart); trick 3 AH 7H 10H and the joker follows hearts and wins."""
    state = deal("D")
    act(state, "pass, pass, pass, 6NT, discard JS JC QD, nominate H")
    assert legal_strs(state) == ["5S", "6S", "4D", "5D", "6D", "7D", "4H", "5H", "6H", "JK"]
    tricks(state, ["4D KD 8D 10D >1"])
    act(state, "AS, 7S, 9S")
    assert legal_strs(state) == ["5S", "6S"]
    illegal(state, "JK", "play.follow-suit")
    act(state, "5S")
    act(state, "AH, 7H, 10H")
    assert legal_strs(state) == ["4H", "5H", "6H", "JK"]
    act(state, "JK")
    assert state.tricks[-1][2] == 0  # the nominated JK tops AH


def test_joker_no_trumps_nominate_then_named_lead(deal, act, illegal):
    """Once nominated, the joker is a card of its suit and is led as ``JK`` (G;
    joker.no-trumps.nominate)."""
    state = deal("C")
    act(state, "6NT, pass, pass, pass, discard QC QD QH, nominate H")
    illegal(state, "JK:H", "joker.no-trumps.nominate")


def test_joker_no_trumps_lead(deal, act, illegal):
    """ "Leading it: the leader names the suit the others must follow (T, P) ... the named suit
    must not have been led before in that hand (G)" (joker.no-trumps.lead). Deal C, 6NT by seat
    1."""
    state = deal("C")
    act(state, "6NT, pass, pass, pass, discard QC QD QH")
    assert legal_strs(state)[9:13] == ["JK:S", "JK:C", "JK:D", "JK:H"]
    illegal(state, "JK", "joker.no-trumps.lead")  # it must name a suit
    named = state.copy()
    act(named, "JK:D")
    assert legal_strs(named) == ["4D", "5D"]  # seat 2 follows the named suit
    act(named, "4D, 6D, 9D")
    assert named.tricks[-1][2] == 1
    tricks(state, ["AS 5S 8S 10S >1"])
    assert "JK:S" not in legal_strs(state)
    assert [a for a in legal_strs(state) if a.startswith("JK")] == ["JK:C", "JK:D", "JK:H"]
    illegal(state, "JK:S", "joker.no-trumps.lead")
    # Only the leader names a suit (deal D, 6NT by seat 1: seat 0 follows AS 7S 9S with JK).
    d = deal("D")
    act(d, "6NT, pass, pass, pass, discard JS JC QD, AS, 7S, 9S")
    illegal(d, "JK:S", "joker.no-trumps.lead")


def test_joker_no_trumps_last_trick(deal, act, illegal):
    """ "Once all four suits have been led, it may be played only to the last trick" (G;
    joker.no-trumps.last-trick). Deal C, 6NT by seat 1, who wins every trick; by hand: trick 5 is
    led with all four suits led (S C D H), so the joker waits; at trick 10 it is his only card."""
    state = deal("C")
    act(state, "6NT, pass, pass, pass, discard QC QD QH")
    tricks(state, ["AS 5S 8S 10S >1", "AC 5C 8C 10C >1", "AD 4D 6D 9D >1", "AH 4H 6H 9H >1"])
    assert legal_strs(state) == ["QS", "KS", "KC", "KD", "KH"]
    illegal(state, "JK:S", "joker.no-trumps.last-trick")
    illegal(state, "JK:H", "joker.no-trumps.last-trick")
    tricks(
        state,
        [
            "KS 6S 9S JS >1",
            "QS 7S 9C JC >1",
            "KC 6C 7D 10D >1",
            "KD 5D 8D JD >1",
            "KH 5H 7H 10H >1",
        ],
    )
    assert legal_strs(state) == ["JK:S", "JK:C", "JK:D", "JK:H"]
    tricks(state, ["JK:H 7C 8H JH >1"])
    assert state.is_over and state.result.tricks_by_side == (0, 10)
    assert state.result.points == (0, 250)  # slam: 6NT (120) is worth less than 250


def test_joker_no_trumps_misere_void(deal, act, illegal):
    """ "In misère a player void in the led suit must play the joker; in no trumps he need not"
    (G; joker.no-trumps.misere-void). Deal D, seat 1's misère: AC led, seat 0 void in clubs with
    JK."""
    state = deal("D")
    act(state, "7S, 7NT, pass, pass, MIS, pass, discard JS JC QD, AC, 5C")
    assert state.to_move == 0
    assert legal_strs(state) == ["JK"]
    illegal(state, "4D", "joker.no-trumps.misere-void")
    illegal(state, "6S", "joker.no-trumps.misere-void")


def test_joker_no_trumps_misere_void_contractor_loses(deal, act):
    """ "A misère contractor who forgot to name the joker's suit and must play it wins that trick,
    so the misère fails" (G; joker.no-trumps.misere-void). Deal D, seat 0's misère (partner seat 2
    sits out): 5S AS 9S (seat 1 wins), then AC 8C and seat 0, void in clubs, must play JK."""
    state = deal("D")
    act(state, "7S, pass, pass, MIS, pass")  # seat 0's MIS: the others have passed
    assert state.rules.bid_codes[state.contract] == "MIS" and state.contractor == 0
    act(state, "discard JS JC QD")
    nominated = state.copy()
    tricks(state, ["5S AS 9S >1"])
    act(state, "AC, 8C")
    assert legal_strs(state) == ["JK"]
    act(state, "JK")
    assert state.is_over and state.tricks[-1][2] == 0
    assert state.result.made is False and state.result.complete is False
    assert state.result.points == (-250, 0)  # nothing to the opponents against a misère
    # Had he nominated the joker (a heart now), he could discard anything on the club lead.
    act(nominated, "nominate H, 5S, AS, 9S, AC, 8C")
    assert legal_strs(nominated) == ["6S", "4D", "5D", "6D", "7D", "4H", "5H", "6H", "JK"]
    act(nominated, "4D")
    assert not nominated.is_over and nominated.tricks[-1][2] == 1


# -- scoring ------------------------------------------------------------------------------------


def test_score_table(deal, act):
    """The score table (G; score.table): made hearts contracts score their value from the
    table; deal S after discarding the kitty back, seat 1 takes exactly 8 tricks."""
    for bid, value in (("6H", 100), ("7H", 200), ("8H", 300)):
        state = hearts_hand(deal, act, bid, "8H 7H 6H")
        tricks(state, LINE_S_EIGHT)
        assert state.result.made is True
        assert state.result.points == (20, value)


def test_score_made(deal, act):
    """ "Contract made: its value; no more for overtricks (P: bid 8 diamonds, take 9: 280, not
    380)" (score.made). 6H made with 8 tricks scores 100, not 300."""
    state = hearts_hand(deal, act, "6H", "8H 7H 6H")
    tricks(state, LINE_S_EIGHT)
    assert state.result.tricks_by_side == (2, 8)
    assert state.result.points[1] == 100


@pytest.mark.parametrize(("bid", "points"), [("6H", 250), ("7H", 250), ("8H", 300), ("9H", 400)])
def test_score_slam(deal, act, bid, points):
    """ "Slam: all ten tricks on a bid worth less than 250 scores 250 instead" (G, P;
    score.slam): 6H (100) and 7H (200) score 250; 8H (300) and 9H (400) keep their value."""
    state = hearts_hand(deal, act, bid, "5S 6S 6H")
    tricks(state, LINE_S_SLAM)
    assert state.result.tricks_by_side == (0, 10)
    assert state.result.points == (0, points)


def test_score_failed(deal, act):
    """ "Contract failed: the contractor's side loses the bid's value" (G, P, T; score.failed):
    9H with 8 tricks: -400; the opponents' two tricks still score 20."""
    state = hearts_hand(deal, act, "9H", "8H 7H 6H")
    tricks(state, LINE_S_EIGHT)
    assert state.result.made is False and state.result.complete is True
    assert state.result.points == (20, -400)


def test_score_opponents(deal, act):
    """ "The contractor's opponents score 10 per trick they take, made or not" (G, T;
    score.opponents): two tricks, 20, whether 6H makes or 10H fails; none when the slam leaves them
    none."""
    made = hearts_hand(deal, act, "6H", "8H 7H 6H")
    tricks(made, LINE_S_EIGHT)
    failed = hearts_hand(deal, act, "10H", "8H 7H 6H")
    tricks(failed, LINE_S_EIGHT)
    assert made.result.points[0] == 20
    assert failed.result.points == (20, -500)


@pytest.mark.parametrize(
    ("auction", "value"),
    [
        ("7S, 7NT, pass, pass, MIS, pass", 250),
        ("OMIS, pass, pass, pass", 500),
        ("BMIS, pass, pass, pass", 500),
    ],
)
def test_score_misere(deal, act, auction, value):
    """ "Misère: made = its value, failed = minus its value; the opponents score nothing" (G;
    score.misere). Deal M: seat 1's ten lowest cards; seats 2 and 0 overtake every trick, so by
    hand seat 0 takes all ten and the misère is made."""
    state = deal("M")
    act(state, auction + ", discard KH AH JK")
    tricks(
        state,
        [
            "5S 8S JS >0", "QS 6S 9S >0", "KS 7S 10S >0", "JC 5C 8C >0", "QC 6C 9C >0",
            "KC 7C 10C >0", "8D 4D 6D >0", "9D 5D 7D >0", "8H 4H 6H >0", "9H 5H 7H >0",
        ],
    )  # fmt: skip
    res = state.result
    assert res.made is True and res.complete is True
    assert res.tricks_by_side == (10, 0)
    assert res.points == (0, value)


# -- end of the game ----------------------------------------------------------------------------


def _result(rules, bid: str, seat: int, made: bool, by_side, points) -> HandResult:
    return HandResult(
        contract=rules.bid_index[bid],
        contractor=seat,
        made=made,
        tricks_by_side=tuple(by_side),
        points=tuple(points),
        complete=True,
    )


def test_end_target(rules, deal, act):
    """ "Target 500" (G, T, P; end.target): a side wins by reaching 500 on its own successful
    contract. Deal S, 6H by seat 1 made from 400: side 1 reaches 500 and wins."""
    match = Match(rules, Random(1), dealer=0)
    match.scores = [0, 400]
    match.hand = hearts_hand(deal, act, "6H", "8H 7H 6H", scores=[0, 400])
    tricks(match.hand, LINE_S_EIGHT)
    match.finish_hand()
    assert match.scores == [20, 500]
    assert match.winner == 1
    # 490 is not enough.
    assert game_winner(rules, [0, 490], _result(rules, "6H", 1, True, (2, 8), (20, 100))) is None
    assert game_winner(rules, [0, 510], _result(rules, "6H", 1, True, (2, 8), (20, 100))) == 1


def test_end_must_bid_to_win(rules, deal, act):
    """ "G: a side wins by reaching 500 on its own successful contract; opponents' trick points
    alone do not win" (end.must-bid-to-win). Side 0 at 490 takes two tricks against seat 1's 6H:
    510, but the game goes on."""
    match = Match(rules, Random(1), dealer=0)
    match.scores = [490, 0]
    match.hand = hearts_hand(deal, act, "6H", "8H 7H 6H", scores=[490, 0])
    tricks(match.hand, LINE_S_EIGHT)
    match.finish_hand()
    assert match.scores == [510, 100]
    assert match.winner is None
    # Nor when the contract fails.
    assert (
        game_winner(rules, [520, -400], _result(rules, "9H", 1, False, (2, 8), (20, -400))) is None
    )
    # Both sides past 500: the contractor's side, whose contract made it, wins.
    assert game_winner(rules, [520, 510], _result(rules, "6H", 1, True, (2, 8), (20, 100))) == 1


def test_end_lose(rules, deal, act):
    """ "-500 loses ('going out backwards', G)" (end.lose). 10H fails from 0: -500 exactly,
    side 1 loses and side 0 wins."""
    match = Match(rules, Random(1), dealer=0)
    match.hand = hearts_hand(deal, act, "10H", "8H 7H 6H")
    tricks(match.hand, LINE_S_EIGHT)
    match.finish_hand()
    assert match.scores == [20, -500]
    assert match.winner == 0
    assert (
        game_winner(rules, [20, -480], _result(rules, "9H", 1, False, (2, 8), (20, -400))) is None
    )


def test_end_continue(rules, deal, act, illegal):
    """ "Play goes on until a side wins so" (G; end.continue): a hand with no winner is followed
    by the next dealer's hand from the running totals; a finished hand takes no more actions."""
    match = Match(rules, Random(1), dealer=0)
    match.hand = hearts_hand(deal, act, "6H", "8H 7H 6H")
    tricks(match.hand, LINE_S_EIGHT)
    illegal(match.hand, "5S", "end.continue")
    match.finish_hand()
    assert match.winner is None and match.hands_played == 1
    assert match.hand.scores == [20, 100] and match.hand.dealer == 1
    assert match.hand.phase_name == "auction" and match.hand.to_move == 2


# -- engine bugs and meta -----------------------------------------------------------------------


def test_observation_between_tricks(deal, act):
    """INTERCHANGE.md: observation(seat) is what a seat may see; it works in every state, also when
    no trick is in progress (a regression: it used to raise ValueError there)."""
    state = deal("S")
    obs = state.observation(1)
    assert obs["hand"] == ["5S", "6S", "JD", "9H", "10H", "JH", "QH", "KH", "AH", "JK"]
    assert obs["trick"] == [] and obs["legal"] == OPENING_CALLS


def test_every_clause_has_a_test(rules):
    """Every clause id australian has gets a test named after it (INTERCHANGE.md)."""
    expected = {
        "deck.cards", "deck.joker", "seats.teams", "deal.first-dealer", "deal.packets",
        "deal.rotation", "auction.order", "auction.ladder", "auction.higher", "auction.pass-final",
        "auction.end", "auction.raise-own-bid", "auction.misere", "auction.open-misere",
        "auction.blind-misere", "auction.all-pass", "kitty.take", "trump.order",
        "trump.left-bower", "joker.trump", "play.misere-partner", "play.opening-lead",
        "play.follow-suit", "play.trick-winner", "play.next-lead", "play.open-misere",
        "play.misere-ends", "joker.no-trumps.wins", "joker.no-trumps.follow",
        "joker.no-trumps.nominate", "joker.no-trumps.lead", "joker.no-trumps.last-trick",
        "joker.no-trumps.misere-void", "score.table", "score.made", "score.slam", "score.failed",
        "score.opponents", "score.misere", "end.target", "end.must-bid-to-win", "end.lose",
        "end.continue",
    }  # fmt: skip
    assert set(rules.clause_ids) == expected
    names = [n for n in dir(sys.modules[__name__]) if n.startswith("test_")]
    for cid in expected:
        stem = "test_" + cid.replace(".", "_").replace("-", "_")
        assert any(n == stem or n.startswith(stem + "_") for n in names), cid
