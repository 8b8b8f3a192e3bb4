"""Which rule clauses decided something in a finished hand: the clause counts of balance studies.

A balance study asks whether the rule an author changed was ever reached. :func:`hand_events`
reads a finished :class:`HandState` (its auction, the tricks, the dealt cards and the result) and
names every clause that decided something in it: a joker led naming a suit, a misère lost at the
first trick, an inkle, a hand played sans kitty, a frozen score... Nothing is added to the engine:
the hand is read after the fact, so the engine's fast path stays exactly as fast, and the cost is
paid only by the balance study that asks (a replay of at most one trick list per hand).

Game-level clauses (``end.*``) need the scores around the hand: :func:`end_events`.

Each event key is a clause id (the rule book's anchor), or a clause id and a ``/`` qualifier for
a narrower case of it; :data:`EVENTS` describes every key in one English sentence.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..engine.codes import NT, SUITLESS
from ..engine.game import gone_out, reaches
from ..engine.hand import (
    HandState,
    bid_after_own_pass,
    joker_suit_rules,
    next_dealer,
    passes_reopen,
)
from ..engine.rules import Rules
from ..engine.scoring import score_hand

__all__ = ["EVENTS", "end_events", "event_applies", "hand_events"]

#: Every event key, what it counts (one hand counts once per key), in rule-book order.
EVENTS: dict[str, str] = {
    "seats.partner": "the contractor chose or called a partner for the hand",
    "auction.higher/by-value": "a bid of fewer tricks overcalled a bid of more tricks worth "
    "less (the ladder ranked by value)",
    "auction.no-ace-no-face": "a player with no ace and no face card asked for a redeal",
    "auction.inkles": "an inkle was bid (a first-round bid at the inkle level that wins nothing)",
    "auction.pass-final/bid-again": "a player who had passed bid again (bidding after a pass)",
    "auction.raise-own-bid": "the high bidder raised his own bid after the others passed",
    "auction.misere": "a misère was bid",
    "auction.open-misere": "an open misère was bid",
    "auction.blind-misere": "a blind misère was bid",
    "auction.misere/slot": "a misère and a suit bid overcalled one another (where the misère "
    "sits on the ladder decided the auction)",
    "auction.all-pass": "everybody passed",
    "auction.all-pass/redeal": "everybody passed and the same dealer dealt again",
    "kitty.sans": "the contractor played sans kitty",
    "trump.left-bower": "a left bower was played as a trump",
    "joker.trump": "a joker was played in a trump contract",
    "play.misere-partner": "a misère was played with the partner out of play (sits out or faced)",
    "play.open-misere": "an open misère was played (the contractor's hand faced)",
    "play.open-misere/unshown": "an open misère ended before its hand was shown (lost at the "
    "first trick, the hand to be shown after it)",
    "play.misere-ends": "a misère was lost before the last trick and the hand ended there",
    "play.misere-ends/first-trick": "a misère was lost at the first trick",
    "joker.no-trumps.wins": "a joker won a trick in no trumps or a misère",
    "joker.no-trumps.follow": "a player holding a joker had to follow suit instead of playing it",
    "joker.no-trumps.nominate": "the contractor nominated the joker's suit",
    "joker.no-trumps.lead": "a joker was led naming a suit",
    "joker.no-trumps.last-trick": "all four suits had been led and a player on lead held a joker",
    "joker.no-trumps.lead-last-only": "a player on lead held a joker before the last trick "
    "(it could not be led) or led it to the last trick",
    "joker.no-trumps.misere-void": "a player void in the led suit had to play the joker",
    "joker.no-trumps.misere-low": "a joker was played in a misère where it is the lowest card",
    "joker.no-trumps.misere-low/won": "a joker led in a misère where it is the lowest card took "
    "the trick (nobody played the suit named)",
    "joker.no-trumps.first-or-last": "a player to play held a joker the rule kept from being "
    "played as a suit it had played and still held (a joker lead naming it, or a nominated joker)",
    "joker.no-trumps.void-suit": "a player on lead held a joker the rule kept from naming a suit "
    "it had shown void in",
    "score.overtricks": "a contract made with overtricks that score",
    "score.slam": "all tricks taken on a contract worth less than the slam bonus (slam scored)",
    "score.freeze": "an opponent's trick points were cut by the freeze (its cap or threshold)",
    "end.must-bid-to-win": "a side at or above the target did not win: it was not contracting",
    "end.target/exact": "the game was won on exactly the target",
    "end.both-out": "several sides reached the target on one hand: the tie-break decided",
    "end.both-out/changed": "the tie-break gave the game to a side other than the one with the "
    "highest total alone",
    "end.lose": "a side went out backwards (at or below the losing score)",
}


def event_applies(rules: Rules, key: str) -> bool:
    """Whether the event ``key`` can happen under ``rules`` (a balance study counts only
    those): its clause is one of the variant's, and the events of options only where the
    option allows them: ``auction.higher/by-value`` needs a ladder that ranks a bid above one
    of more tricks (``auction.ladder.order: value``), ``auction.pass-final/bid-again`` a
    player asked again after his pass, ``auction.all-pass/redeal`` the same dealer dealing
    again after all pass."""
    if key.split("/")[0] not in rules.clause_ids:
        return False
    if key == "auction.higher/by-value":
        levels = [
            lv for lv, kind in zip(rules.bid_level, rules.bid_kind, strict=True) if kind == "suit"
        ]
        return any(low < high for high, low in itertools.pairwise(levels))
    if key == "auction.pass-final/bid-again":
        return passes_reopen(rules)
    if key == "auction.all-pass/redeal":
        return next_dealer(rules, 0, -1) == 0
    return True


def hand_events(st: HandState) -> set[str]:
    """The event keys of :data:`EVENTS` that the finished hand ``st`` reached."""
    r = st.rules
    res = st.result
    out: set[str] = set()
    if res is None:
        return out
    _auction_events(st, out)
    if res.contract < 0 and not st.tricks:
        return out
    contract = res.contract
    if contract >= 0:
        if res.sans:
            out.add("kitty.sans")
        if st.allies.bit_count() > 1 and r.partner_call != "none":
            out.add("seats.partner")
        if st.misere:
            if r.bid_partner[contract] in ("sits-out", "both-hands") and any(
                len(team) > 1 for team in r.teams
            ):
                out.add("play.misere-partner")
            if r.misere_ends_when_lost and not res.complete:
                out.add("play.misere-ends")
                if len(st.tricks) == 1:
                    out.add("play.misere-ends/first-trick")
        if r.bid_open[contract] != "no":
            out.add("play.open-misere")
            if r.bid_open[contract] == "after-first-trick" and len(st.tricks) <= 1:
                out.add("play.open-misere/unshown")
        if st.nominated >= 0:
            out.add("joker.no-trumps.nominate")
        _score_events(st, out)
    _play_events(st, out)
    return out


def _auction_events(st: HandState, out: set[str]) -> None:
    r = st.rules
    high_seat = high = -1
    last_kind = ""
    if bid_after_own_pass(r, st.calls):
        out.add("auction.pass-final/bid-again")
    for (seat, action), inkle in zip(st.calls, st.inkles, strict=True):
        if action == r.PASS:
            continue
        if action == r.REDEAL:
            out.add("auction.no-ace-no-face")
            return  # the hand is thrown in: no contract, and not all passed
        if inkle:
            out.add("auction.inkles")
            continue
        i = action - r.BID
        if seat == high_seat:
            out.add("auction.raise-own-bid")
        # auction.ladder.order value: fewer tricks over more (6H over 7S)
        if (
            high >= 0
            and r.bid_kind[high] == r.bid_kind[i] == "suit"
            and (r.bid_level[i] < r.bid_level[high])
        ):
            out.add("auction.higher/by-value")
        high_seat, high = seat, i
        kind = r.bid_kind[i]
        if kind == "misere":
            out.add(r.bid_clause[i])
        if last_kind and (kind == "misere") != (last_kind == "misere"):
            out.add("auction.misere/slot")  # one overcalled the other by its place
        last_kind = kind
    if st.result is not None and st.result.contract < 0:
        out.add("auction.all-pass")
        if next_dealer(r, st.dealer, -1) == st.dealer:
            out.add("auction.all-pass/redeal")


def _score_events(st: HandState, out: set[str]) -> None:
    """The scoring rules that decided the hand and are events (slam, overtricks, a freeze that
    cut points), as :func:`~fivehundred.runtime.engine.scoring.score_hand` tells: the clauses
    that decide every hand (the contract made or failed, the opponents' tricks) are not."""
    res = st.result
    assert res is not None
    allies = sum(1 << s for s in res.allies)
    score = score_hand(st.rules, res.contract, allies, st.tricks_won, st.scores, res.sans)
    out.update(score.clauses & _EVENT_KEYS)


_EVENT_KEYS = frozenset(EVENTS)


def _play_events(st: HandState, out: set[str]) -> None:
    """Replay the tricks from the hands as play began and note the clauses that bound a play."""
    r = st.rules
    strain = st.strain
    jl, n_jokers = r.JOKER_LEAD, len(r.joker_cards)
    if (
        strain < NT
        and not st.misere
        and st.nominated < 0
        and not r.masks[strain][SUITLESS]
        and all(actions[0] < jl for _, actions, _ in st.tricks)
    ):
        # A trump contract with no joker led and none without a suit: of the clauses below
        # only the trump joker and the left bower can be reached, by being played at all.
        cards = 0
        for _, actions, _ in st.tricks:
            for a in actions:
                cards |= 1 << a
        if cards & r.joker_mask:
            out.add("joker.trump")
        if cards & _left_bowers(r, strain):
            out.add("trump.left-bower")
        return

    def card_of(action: int) -> int:
        return action if action < jl else r.joker_cards[(action - jl) // 4]

    hands = list(st.hands)
    for leader, actions, _ in st.tricks:
        for seat, action in zip(st.trick_seats(leader, len(actions)), actions, strict=True):
            hands[seat] |= 1 << card_of(action)
    suit_of = list(r.suit_of[strain])
    masks = list(r.masks[strain])
    if st.nominated >= 0 and st.contractor >= 0:
        held = hands[st.contractor] & masks[SUITLESS]
        for c in r.joker_cards:
            if held >> c & 1:
                suit_of[c] = st.nominated
                masks[SUITLESS] &= ~(1 << c)
                masks[st.nominated] |= 1 << c
    suitless = masks[SUITLESS]
    void_rule = r.joker_void_must_play
    must_play_joker = void_rule == "always" or (void_rule == "misere" and st.misere)
    left_bowers = 0
    if strain < NT:
        trumps = masks[strain]
        for c in range(r.n_cards):
            if trumps >> c & 1 and r.card_suit[c] not in (strain, -1):
                left_bowers |= 1 << c
    suits_led = 0
    last = r.hand_size - 1
    ends_on, void_on = joker_suit_rules(r.play) if strain == NT else (False, False)
    # joker.no-trumps.misere-low: the jokers have power 0 in this hand's tables
    low = st.misere and any(not st.power[c] for c in r.joker_cards)
    played = [0] * r.players  # the suits each seat has played (a joker lead: the suit named)
    voids = [0] * r.players  # the suits each seat has shown void in
    for k, (leader, actions, winner) in enumerate(st.tricks):
        seats = st.trick_seats(leader, len(actions))
        first = actions[0]
        hand = hands[leader]
        if (
            (ends_on or void_on)
            and hand & suitless
            and hand & ~suitless
            and not (r.joker_lead_only_last_trick and k < last)
        ):
            # the suits the joker could name but for these rules (joker.no-trumps.lead)
            suits = 15
            if r.joker_lead == "name-unled-suit" and (15 & ~suits_led or k < last):
                suits = 15 & ~suits_led
            if void_on and suits & voids[leader]:
                out.add("joker.no-trumps.void-suit")
                suits &= ~voids[leader]
            if ends_on and any(
                suits >> t & 1 and played[leader] >> t & 1 and hand & masks[t] & ~r.joker_mask
                for t in range(4)
            ):
                out.add("joker.no-trumps.first-or-last")
        # a nominated joker is still the joker: it too waits for the last trick
        if strain == NT and hand & r.joker_mask and hand & ~r.joker_mask and k < last:
            if r.joker_lead_only_last_trick:
                out.add("joker.no-trumps.lead-last-only")
            if r.joker_lead == "name-unled-suit" and suits_led == 15 and hand & suitless:
                out.add("joker.no-trumps.last-trick")
        if jl <= first < jl + 4 * n_jokers:
            led = (first - jl) % 4
            out.add("joker.no-trumps.lead")
            if k == last and r.joker_lead_only_last_trick:
                out.add("joker.no-trumps.lead-last-only")
            if k == last and r.joker_lead == "name-unled-suit" and suits_led == 15:
                out.add("joker.no-trumps.last-trick")
        else:
            led = suit_of[first]
        for i, (seat, action) in enumerate(zip(seats, actions, strict=True)):
            card = card_of(action)
            hand = hands[seat]
            named = hand & r.joker_mask & ~suitless if st.nominated >= 0 else 0
            if (
                ends_on
                and named
                and played[seat] >> st.nominated & 1
                and hand & masks[st.nominated] & ~r.joker_mask
                # ... and the nominated joker could be played but for the rule
                and (
                    led == st.nominated or not hand & masks[led]
                    if i
                    else not (r.joker_lead_only_last_trick and k < last)
                )
            ):
                out.add("joker.no-trumps.first-or-last")
            suit = suit_of[card]
            played[seat] |= 1 << led if not i else (1 << suit) & 15
            if i and suit != led:
                voids[seat] |= 1 << led
            if low and r.joker_mask >> card & 1:
                out.add("joker.no-trumps.misere-low")
                if seat == winner:
                    out.add("joker.no-trumps.misere-low/won")
            if i and hand & suitless:
                if hand & masks[led]:
                    out.add("joker.no-trumps.follow")
                elif must_play_joker and hand & ~suitless:
                    out.add("joker.no-trumps.misere-void")
            if r.joker_mask >> card & 1:
                if strain < NT:
                    out.add("joker.trump")
                elif seat == winner:
                    out.add("joker.no-trumps.wins")
            elif left_bowers >> card & 1:
                out.add("trump.left-bower")
            hands[seat] = hand & ~(1 << card)
        suits_led |= 1 << led


def _left_bowers(r: Rules, strain: int) -> int:
    """The cards that are trumps at trump strain ``strain`` though printed in another suit (a
    joker has no printed suit; remembered per rules object)."""
    hit = _LEFT_BOWERS.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_LEFT_BOWERS) > 64:
            _LEFT_BOWERS.clear()
        by_strain = []
        for st in range(4):
            trumps = r.masks[st][st]
            out = 0
            for c in range(r.n_cards):
                if trumps >> c & 1 and r.card_suit[c] not in (st, -1):
                    out |= 1 << c
            by_strain.append(out)
        hit = _LEFT_BOWERS[id(r)] = (r, tuple(by_strain))
    return hit[1][strain]


_LEFT_BOWERS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def end_events(
    rules: Rules, before: Sequence[int], scores: Sequence[int], winner: int | None
) -> set[str]:
    """The ``end.*`` event keys a hand decided: ``before`` and ``scores`` are the sides'
    totals before and after it, ``winner`` the game's winner after it (None: the game goes on,
    :data:`~fivehundred.runtime.engine.game.NO_WINNER`: over without one)."""
    out: set[str] = set()
    n = rules.n_sides
    at_target = [s for s in range(n) if reaches(rules, scores[s])]
    if rules.must_bid_to_win and any(s != winner for s in at_target):
        out.add("end.must-bid-to-win")
    if winner is not None and len(at_target) > 1:
        out.add("end.both-out")
        top = max(scores[s] for s in at_target)
        alone = [s for s in at_target if scores[s] == top]
        if winner >= 0 and alone != [winner]:
            out.add("end.both-out/changed")
    if winner is not None and winner >= 0 and scores[winner] == rules.target:
        out.add("end.target/exact")
    if any(gone_out(rules, scores[s]) and not gone_out(rules, before[s]) for s in range(n)):
        out.add("end.lose")
    return out
