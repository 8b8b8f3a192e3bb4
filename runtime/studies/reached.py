"""Which rule clauses decided something in a finished hand: the clause counts of balance studies.

A balance study asks whether the rule an author changed was ever reached. :func:`hand_events`
reads a finished :class:`HandState` (its auction, the tricks, the dealt cards and the result) and
names every clause that decided something in it: a joker led naming a suit, a misère lost at the
first trick, an inkle, a hand played sans kitty, a frozen score... Nothing is added to the engine:
the hand is read after the fact, so the engine's fast path stays exactly as fast, and the cost is
paid only by the balance study that asks (a replay of at most one trick list per hand).

Game-level clauses (``end.*``) need the scores around the hand; :mod:`.balance` adds them.

Each event key is a clause id (the rule book's anchor), or a clause id and a ``/`` qualifier for
a narrower case of it; :data:`EVENTS` describes every key in one English sentence.
"""

from __future__ import annotations

from ..engine.codes import NT, SUITLESS
from ..engine.hand import HandState, joker_suit_rules
from ..engine.scoring import score_hand

__all__ = ["EVENTS", "hand_events"]

#: Every event key, what it counts (one hand counts once per key), in rule-book order.
EVENTS: dict[str, str] = {
    "seats.partner": "the contractor chose or called a partner for the hand",
    "auction.inkles": "an inkle was bid (a first-round bid at the inkle level that wins nothing)",
    "auction.raise-own-bid": "the high bidder raised his own bid after the others passed",
    "auction.misere": "a misère was bid",
    "auction.open-misere": "an open misère was bid",
    "auction.blind-misere": "a blind misère was bid",
    "auction.all-pass": "everybody passed",
    "kitty.sans": "the contractor played sans kitty",
    "trump.left-bower": "a left bower was played as a trump",
    "joker.trump": "a joker was played in a trump contract",
    "play.misere-partner": "a misère was played with the partner out of play (sits out or faced)",
    "play.open-misere": "an open misère was played (the contractor's hand faced)",
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
    "score.freeze": "an opponent's trick points were cut at the freeze",
    "end.must-bid-to-win": "a side at or above the target did not win: it was not contracting",
    "end.both-out": "several sides reached the target on one hand: the tie-break decided",
    "end.lose": "a side went out backwards (at or below the losing score)",
}


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
        if st.nominated >= 0:
            out.add("joker.no-trumps.nominate")
        _score_events(st, out)
    _play_events(st, out)
    return out


def _auction_events(st: HandState, out: set[str]) -> None:
    r = st.rules
    high_seat = -1
    for (seat, action), inkle in zip(st.calls, st.inkles, strict=True):
        if action == r.PASS:
            continue
        if inkle:
            out.add("auction.inkles")
            continue
        i = action - r.BID
        if seat == high_seat:
            out.add("auction.raise-own-bid")
        high_seat = seat
        if r.bid_kind[i] == "misere":
            out.add(r.bid_clause[i])
    if st.result is not None and st.result.contract < 0:
        out.add("auction.all-pass")


def _score_events(st: HandState, out: set[str]) -> None:
    """The scoring rules that decided the hand (slam, overtricks, a freeze that cut points),
    as :func:`~fivehundred.runtime.engine.scoring.score_hand` tells."""
    res = st.result
    assert res is not None
    allies = sum(1 << s for s in res.allies)
    score = score_hand(st.rules, res.contract, allies, st.tricks_won, st.scores, res.sans)
    out.update(score.clauses)


def _play_events(st: HandState, out: set[str]) -> None:
    """Replay the tricks from the hands as play began and note the clauses that bound a play."""
    r = st.rules
    strain = st.strain
    jl, n_jokers = r.JOKER_LEAD, len(r.joker_cards)

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
