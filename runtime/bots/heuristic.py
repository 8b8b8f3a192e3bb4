"""The ``heuristic`` bot: bids by hand evaluation, discards to void suits, plays by rules of thumb.

It is generic over every variant: everything it knows of the game comes from the rules tables
(the ladder, each strain's suit and power of every card, jokers and bowers, the kitty size, the
partner options, misère bids), never from a variant's name. It decides from what its seat may
know (:class:`~fivehundred.runtime.engine.seatview.SeatView`), never from hidden cards.

Bidding
    For each strain it counts likely tricks (:func:`hand_tricks`: trumps by their rank among all
    trumps, jokers and bowers included, and length, side-suit winners, ruffs from short suits,
    at no trumps stoppers and long suits) and reads the chance of making each bid from a model
    fitted to the rules by self-play (:mod:`.handmodel`, :func:`bid_odds`): the partners' count
    (the strength a partner's bid in the strain shows, else an average partner's) and the
    opponents' bids move it; a contract the hand's sure tricks make alone (:func:`sure_tricks`)
    needs no model. It bids the strain that gains most at its cheapest level whose chance
    reaches :data:`NEED`, no trumps only with the suits stopped, raises partner's suit or its
    own bid only when that gains, and bids misère from the model's chance for the hand's danger
    score (:func:`misere_score`). The score moves the need: lower when the opponents are about
    to go out, for a bid that takes us out before them, and where only a contract wins; higher
    where our own defence tricks would take us out. Near the target it bids just high enough to
    win the game and raises no bid that already wins it; it bids what the hand lays down.
Kitty
    It reads the hand at the contract's trumps (the engine shows them only once the play
    starts), keeps trumps and winners and drops whole short side suits (to ruff them), or at
    misère its most dangerous cards; it plays sans kitty when the bonus outweighs the kitty's
    tricks.
Play
    Second hand low, third hand high, win as cheaply as will hold, never overtake a partner who
    is winning, draw trumps as contractor with the top ones, cash winners, ruff when void, lead
    partner's voids as defender, else lead the longest suit: its top card when the next is in
    sequence with it, a low one otherwise; at misère the contractor ducks under and sheds high
    cards while the defenders lead low into what the bidder holds (the face-up hand at open
    misère), keep the trick low for him and shed high cards once he is beaten. Defenders who
    score apart play together while making the contract would win the contractor the game (no
    overtaking, no wasted trump, leading through the contractor), cover a fellow defender whose
    share of the defence's tricks would win him the game, and play for their own tricks once the
    contract is settled.

Every decision comes with a short reason (``fivehundred play``'s ``hint``), English as a
string and translatable: a message marked ``N_`` or a :class:`~.reasons.Why` with parameters
(the table's suggestions show it in the player's language).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import erf, sqrt
from random import Random
from typing import overload

from ..engine.codes import NT, SUITLESS, SUITS, bits
from ..engine.game import reaches
from ..engine.hand import AUCTION, DISCARD, KITTY, PARTNER, PLAY, HandState, passes_reopen
from ..engine.messages import N_, SUIT_WORDS
from ..engine.rules import Rules
from ..engine.scoring import score_hand
from ..engine.seatview import SeatView, view_of
from .handmodel import HandModel, MisereFit, hand_model, normal_at_least, remembered_model
from .reasons import Why, decimal_param, percent_param
from .state import BotState, hand_state

__all__ = [
    "BidJudge",
    "BidOdds",
    "Decision",
    "HeuristicBot",
    "allowance",
    "bid_model",
    "bid_odds",
    "choose_bid",
    "discard_choice",
    "discard_options",
    "hand_tricks",
    "heuristic_judge",
    "misere_danger",
    "misere_score",
    "sure_tricks",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """An action and why it was chosen."""

    action: int
    reason: str


# -- tables derived once per rules ---------------------------------------------------------------


class _StrainTables:
    """Per (suit_of, power) pair: for every card the mask of higher cards of its effective suit."""

    __slots__ = (
        "asc",
        "bottom",
        "desc",
        "higher",
        "lower",
        "masks",
        "power",
        "span",
        "suit_of",
        "voided",
    )

    def __init__(
        self, suit_of: tuple[int, ...], power: tuple[int, ...], masks: tuple[int, ...]
    ) -> None:
        n = len(suit_of)
        self.suit_of = suit_of
        self.power = power
        #: One more than the highest power (powers are never negative: 0 is a card that
        #: neither follows nor trumps), to pack a power into an int key.
        self.span = max(power, default=0) + 1
        self.masks = masks  # the effective suits as bitmasks: the tables' or the hand's
        higher = [0] * n
        lower = [0] * n
        for c in range(n):
            for d in bits(masks[suit_of[c]]):
                if power[d] > power[c]:
                    higher[c] |= 1 << d
                elif power[d] < power[c]:
                    lower[c] |= 1 << d
        self.higher = tuple(higher)
        self.lower = tuple(lower)
        #: How many cards of its effective suit rank below each card.
        self.bottom = tuple(m.bit_count() for m in lower)
        #: The cards of each effective suit (by index of ``masks``), highest power first.
        self.desc = tuple(tuple(sorted(bits(m), key=lambda c: -power[c])) for m in masks)
        #: ... and lowest first.
        self.asc = tuple(tuple(sorted(bits(m), key=lambda c: power[c])) for m in masks)
        #: By a mask of effective suits (a seat's voids): the cards of those suits.
        voided = []
        for v in range(1 << len(masks)):
            m = 0
            for e in bits(v):
                m |= masks[e]
            voided.append(m)
        self.voided = tuple(voided)


_TABLES: dict[tuple[tuple[int, ...], tuple[int, ...]], _StrainTables] = {}
#: The same by the identity of the two tuples (hashing two of some 43 ints at every decision
#: costs more than the rest of the look-up).
_TABLES_BY_ID: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...], _StrainTables]] = {}


def _tables(
    suit_of: tuple[int, ...], power: tuple[int, ...], masks: tuple[int, ...]
) -> _StrainTables:
    """The tables of one card order; ``masks`` are the effective suits of ``suit_of`` (the
    ruleset's ``suit_masks``, or the hand's once a joker is nominated), so they are no part of
    the key."""
    hit = _TABLES_BY_ID.get((id(suit_of), id(power)))
    if hit is not None and hit[0] is suit_of and hit[1] is power:
        return hit[2]
    key = (suit_of, power)
    t = _TABLES.get(key)
    if t is None:
        if len(_TABLES) > 512:
            _TABLES.clear()
        t = _TABLES[key] = _StrainTables(suit_of, power, masks)
    if len(_TABLES_BY_ID) > 512:
        _TABLES_BY_ID.clear()
    _TABLES_BY_ID[(id(suit_of), id(power))] = (suit_of, power, t)
    return t


def _strain_tables(rules: Rules, strain: int) -> _StrainTables:
    """The tables of ``strain`` in ``rules`` (all five remembered per rules object)."""
    return _all_tables(rules)[strain]


def _all_tables(rules: Rules) -> tuple[_StrainTables, ...]:
    """The tables of the five strains of ``rules``, by strain (remembered per rules object)."""
    hit = _RULES_TABLES.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_RULES_TABLES) > 64:
            _RULES_TABLES.clear()
        tables = tuple(_tables(rules.suit_of[s], rules.power[s], rules.masks[s]) for s in range(5))
        hit = _RULES_TABLES[id(rules)] = (rules, tables)
    return hit[1]


_RULES_TABLES: dict[int, tuple[Rules, tuple[_StrainTables, ...]]] = {}


_DESC: dict[tuple[int, int], list[int]] = {}


def _desc(mask: int, power: tuple[int, ...]) -> list[int]:
    """Cards of ``mask``, highest power first (remembered: the same suits are asked for again
    and again; do not change the list)."""
    key = (mask, id(power))
    hit = _DESC.get(key)
    if hit is None:
        if len(_DESC) > 4096:
            _DESC.clear()
            _POWERS.clear()
        hit = _DESC[key] = sorted(bits(mask), key=lambda c: -power[c])
        _POWERS[id(power)] = power  # keeps ``power`` alive while its id is a key
    return hit


_POWERS: dict[int, tuple[int, ...]] = {}


# -- hand evaluation -----------------------------------------------------------------------------


def _live_share(rules: Rules) -> float:
    """The share of the cards a seat cannot see that sit in other players' hands."""
    unseen = rules.n_cards - rules.hand_size
    live = (rules.players - 1) * rules.hand_size
    return min(1.0, live / unseen) if unseen else 1.0


def hand_tricks(rules: Rules, hand: int, strain: int) -> float:
    """Tricks ``hand`` should take on its own with ``strain`` as trumps (NT: no trumps).

    Trumps by their rank among all trumps and length; in each side suit ruffs from shortness
    (trump contracts) and winners; at no trumps stoppers and long suits. What one suit's cards
    add is worked out once per rules (:class:`_CountParts`) and added in the same order, so the
    sum is the same float to the last bit.
    """
    parts = _count_parts(rules)
    t = _strain_tables(rules, strain)
    masks, side = t.masks, parts.side
    if strain == NT:
        tricks = 0.0
        tricks += (hand & masks[SUITLESS]).bit_count()  # a joker of its own at no trumps
        stoppers = 0
        for s in range(4):
            mine = hand & masks[s]
            got = side[4 * NT + s].get(mine)
            if got is None:
                got = parts.side_count(t, NT, s, mine)
            for x in got[0]:
                tricks += x
            stoppers += got[1]
        tricks -= 0.6 * max(0, 3 - stoppers)
    else:
        trumps = hand & masks[strain]
        known = parts.trumps[strain].get(trumps)
        tricks = parts.trump_count(t, strain, trumps) if known is None else known
        spare = trumps.bit_count() - 2  # trumps to ruff with (adding no ruff adds 0.0: skipped)
        row = 4 * strain
        for s in _SIDE_SUITS[strain]:
            mine = hand & masks[s]
            if spare > 0:
                length = mine.bit_count()
                if length == 0:
                    ruffs = min(spare, 2)
                    tricks += 0.8 * ruffs
                    spare -= ruffs
                elif length == 1:
                    tricks += 0.5  # one ruff
                    spare -= 1
            got = side[row + s].get(mine)
            if got is None:
                got = parts.side_count(t, strain, s, mine)
            for x in got[0]:
                tricks += x
    # The counts above overrate strong hands (winners and ruffs overlap): shrink the excess.
    base = 0.5 * rules.hand_size
    if tricks > base:
        tricks = base + (tricks - base) * 0.6
    return tricks


#: The side suits of each trump strain.
_SIDE_SUITS = tuple(tuple(s for s in range(4) if s != strain) for strain in range(4))


class _CountParts:
    """What a hand's cards of one suit add to :func:`hand_tricks` under one rules, remembered
    by the cards held (a suit's holdings repeat from hand to hand): the trump count, and each
    side suit's additions in the order they are made, with the stoppers they give. One table
    per strain and suit, keyed by the cards held alone (a small int hashes faster than a
    tuple), each cleared when it holds :data:`_PART_LIMIT` holdings."""

    __slots__ = ("danger", "live", "opponents", "side", "stopped", "trumps")

    def __init__(self, rules: Rules) -> None:
        self.live = _live_share(rules)
        self.opponents = max(1, rules.players - 1)
        #: By trump strain: trumps held -> the trumps' count
        self.trumps: tuple[dict[int, float], ...] = tuple({} for _ in range(4))
        #: By ``4 * strain + suit``: cards held -> (what they add, in order; stoppers at no
        #: trumps)
        self.side: tuple[dict[int, tuple[tuple[float, ...], int]], ...] = tuple(
            {} for _ in range(20)
        )
        #: By suit: (cards held, opponents) -> the (danger, card) of those cards at misère, and
        #: the dangers alone
        self.danger: tuple[_Dangers, ...] = tuple({} for _ in range(4))
        #: By suit: cards held -> whether they stop the suit at no trumps (:func:`_unstopped`)
        self.stopped: tuple[dict[int, bool], ...] = tuple({} for _ in range(4))

    def suit_danger(
        self, t: _StrainTables, s: int, mine: int, opponents: int
    ) -> tuple[tuple[tuple[float, int], ...], tuple[float, ...]]:
        """The cards of ``mine`` (of suit ``s``, no trumps tables ``t``) in danger at misère
        against ``opponents`` (see :func:`misere_danger`) as (danger, card), lowest card
        first, and their dangers alone in the same order."""
        out = []
        for i, c in enumerate([c for c in t.asc[s] if mine >> c & 1]):
            # The opponents hold ``below`` cards under the i-th lowest card; leading the suit
            # they play about ``opponents`` of them a round: more than i rounds' worth catch it.
            below = t.bottom[c] - i
            danger = below / max(1, opponents) - i - 0.5
            if danger > 0:
                out.append((danger, c))
        got = (tuple(out), tuple(d for d, _ in out))
        known = self.danger[s]
        if len(known) >= _PART_LIMIT:
            known.clear()
        known[(mine, opponents)] = got
        return got

    def trump_count(self, t: _StrainTables, strain: int, trumps: int) -> float:
        """The count of ``trumps`` (the hand's trumps at ``strain``), remembered."""
        live = self.live
        trump_mask = t.masks[strain]
        n_trumps = trumps.bit_count()
        tricks = 0.0
        held = 0
        missing = 0.0
        for c in t.desc[strain]:
            if held == n_trumps:
                break  # the rest only adds to ``missing``, which nothing reads after
            if trumps >> c & 1:
                if missing <= held:
                    tricks += 1.0
                elif missing <= held + 1:
                    tricks += 0.5
                elif missing <= held + 2:
                    tricks += 0.2
                held += 1
            else:
                missing += live
        # Long trumps win late: more than the opponents' share of the trumps left.
        outside = (trump_mask.bit_count() - n_trumps) * live
        tricks += max(0.0, n_trumps - 1 - outside / self.opponents) * 0.3
        known = self.trumps[strain]
        if len(known) >= _PART_LIMIT:
            known.clear()
        known[trumps] = tricks
        return tricks

    def side_count(
        self, t: _StrainTables, strain: int, s: int, mine: int
    ) -> tuple[tuple[float, ...], int]:
        """What ``mine`` (the hand's cards of side suit ``s``) adds at ``strain``: its winners,
        half winners and at no trumps its long suit, in order; and the stoppers it gives."""
        live = self.live
        length = mine.bit_count()
        adds: list[float] = []
        stoppers = 0
        held = 0
        missing = 0.0
        desc = t.desc[s]
        for c in desc:
            if held >= length:
                break
            if mine >> c & 1:
                if missing < 0.5:
                    # A winner: at a trump contract the third round is likely ruffed.
                    adds.append(1.0 if strain == NT or held < 2 else 0.4)
                    if strain == NT and held == 0:
                        stoppers += 1
                elif missing < 1.5 and held == 0 and length >= 2:
                    adds.append(0.4)
                    if strain == NT:
                        stoppers += 1
                elif missing < 2.5 and held <= 1 and length >= 3 and strain == NT:
                    adds.append(0.2)
                held += 1
            else:
                missing += live
        if strain == NT and length >= 5 and mine & ~t.lower[desc[1]]:
            adds.append((length - 4) * 0.7)  # a long suit with a top card runs
        got = (tuple(adds), stoppers)
        known = self.side[4 * strain + s]
        if len(known) >= _PART_LIMIT:
            known.clear()
        known[mine] = got
        return got


#: By suit: (cards held, opponents) -> (danger, card) pairs and the dangers alone.
_Dangers = dict[tuple[int, int], tuple[tuple[tuple[float, int], ...], tuple[float, ...]]]
#: The most holdings one table of :class:`_CountParts` keeps (a few thousand cover a deck's
#: suits of ten cards; the big decks' suits are cleared now and then).
_PART_LIMIT = 8192

_PARTS: dict[int, tuple[Rules, _CountParts]] = {}
#: The same by what they depend on: the strain tables (one object per card order, shared by
#: rules objects built from the same tables, as each chunk of a study builds its own) and the
#: share of live cards and the number of opponents.
_PARTS_BY_TABLES: dict[
    tuple[tuple[int, ...], float, int], tuple[tuple[_StrainTables, ...], _CountParts]
] = {}


def _count_parts(rules: Rules) -> _CountParts:
    """The :class:`_CountParts` of ``rules``: one per rules object, shared by rules objects
    whose strain tables, live share and opponents are the same."""
    hit = _PARTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    tables = tuple(_strain_tables(rules, s) for s in range(5))
    key = (tuple(map(id, tables)), _live_share(rules), max(1, rules.players - 1))
    shared = _PARTS_BY_TABLES.get(key)
    if shared is not None and all(a is b for a, b in zip(shared[0], tables, strict=True)):
        parts = shared[1]
    else:
        parts = _CountParts(rules)
        if len(_PARTS_BY_TABLES) > 64:
            _PARTS_BY_TABLES.clear()
        _PARTS_BY_TABLES[key] = (tables, parts)
    if len(_PARTS) > 64:
        _PARTS.clear()
    _PARTS[id(rules)] = (rules, parts)
    return parts


def sure_tricks(rules: Rules, hand: int, strain: int) -> int:
    """Tricks ``hand`` takes as contractor whatever the other cards (the contractor leads
    first): at a trump contract its unbroken top trumps, and when those draw every trump out
    all its trumps and the unbroken top cards of its side suits; at no trumps its jokers and
    the unbroken top cards of every suit."""
    return _sure(_strain_tables(rules, strain), strain, hand, rules.hand_size)


def _sure_all(rules: Rules, hand: int) -> list[int]:
    """:func:`sure_tricks` at each of the five strains, by strain (one look-up of the
    tables)."""
    cap = rules.hand_size
    return [_sure(t, strain, hand, cap) for strain, t in enumerate(_all_tables(rules))]


def _sure(t: _StrainTables, strain: int, hand: int, cap: int) -> int:
    """:func:`sure_tricks` with the strain's tables ``t`` and the hand size ``cap``."""
    desc = t.desc
    if strain < NT:
        trump_mask = t.masks[strain]
        trumps = (hand & trump_mask).bit_count()
        run = 0  # the unbroken top trumps
        for c in desc[strain]:
            if not hand >> c & 1:
                break
            run += 1
        if run < trump_mask.bit_count() - trumps:
            return run
        sure = trumps
        suits: tuple[int, ...] = _SIDE_SUITS[strain]
    else:
        sure = (hand & t.masks[SUITLESS]).bit_count()
        suits = (0, 1, 2, 3)
    for s in suits:  # the unbroken top cards of each suit
        for c in desc[s]:
            if not hand >> c & 1:
                break
            sure += 1
    return min(sure, cap)


def misere_danger(rules: Rules, hand: int, opponents: int) -> list[tuple[float, int]]:
    """The cards of ``hand`` that may win a trick at misère, as (danger, card), worst first.

    A card is in danger when too few cards of its suit rank below it for the opponents to play
    under it on every round of the suit; jokers (which always win) are the worst.
    """
    t = _strain_tables(rules, NT)
    parts = _count_parts(rules)
    out: list[tuple[float, int]] = []
    for c in bits(hand & t.masks[SUITLESS]):
        out.append((100.0, c))
    for s in range(4):
        mine = hand & t.masks[s]
        got = parts.danger[s].get((mine, opponents))
        if got is None:
            got = parts.suit_danger(t, s, mine, opponents)
        out += got[0]
    out.sort(reverse=True)
    return out


# -- the bot -------------------------------------------------------------------------------------


#: Tricks the heuristic adds to its estimates when bidding: none, since the model is fitted to
#: what the bot's own play makes (:mod:`.handmodel`).
BOLDNESS = 0.0


class HeuristicBot:
    """Rule-of-thumb bidding and play from the seat's own view (see the module docstring)."""

    name = "heuristic"

    def __init__(self, boldness: float = BOLDNESS, fitted: bool = True) -> None:
        #: Tricks added to every bid's estimate (negative: more cautious).
        self.boldness = boldness
        #: Whether to bid and choose sans kitty from the fitted model; False plays the fitting
        #: deals themselves (it always takes the kitty and never needs to bid).
        self.fitted = fitted

    def choose(self, state: BotState, rng: Random) -> int:
        """A legal action of the seat to move."""
        return self.decide(state).action

    def decide(self, state: BotState) -> Decision:
        """The action and its reason, from what the deciding seat may know (``state``: a hand
        state or the public ``State``)."""
        if not isinstance(state, HandState):
            state = hand_state(state)
        mover = state.to_move
        phase = state.phase
        if phase == DISCARD:
            return _discard(view_of(state, state.controller(mover)), state)
        legal = state.legal_actions()  # from the mover's own cards and public facts only
        if len(legal) == 1:
            return Decision(legal[0], N_("the only legal action"))
        view = view_of(state, state.controller(mover))
        if phase == PLAY:  # the most decisions, asked first
            return _play(view, mover, legal)
        if phase == AUCTION:
            odds = bid_odds(view, self.boldness)
            return choose_bid(view, legal, _Judge(odds, view.rules), odds)
        if phase == KITTY:
            return _take_or_sans(view, self.fitted)
        if phase == PARTNER:
            return _partner(view, legal)
        return Decision(legal[0], N_("the first legal action"))


# -- auction -------------------------------------------------------------------------------------


def _team_of(rules: Rules, seat: int) -> int:
    """The seats known at the auction to be on ``seat``'s side (a bitmask; remembered per
    rules object)."""
    hit = _TEAMS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_TEAMS) > 64:
            _TEAMS.clear()
        if rules.partner_call != "none":
            teams = tuple(1 << s for s in range(rules.players))
        else:
            teams = tuple(
                sum(1 << t for t in rules.teams[rules.side_of_seat[s]])
                for s in range(rules.players)
            )
        hit = _TEAMS[id(rules)] = (rules, teams)
    return hit[1][seat]


_TEAMS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def _partners_expected(rules: Rules, level: int) -> int:
    if rules.partner_call == "none":
        return max(len(team) for team in rules.teams) - 1
    if rules.second_partner_at is not None and level >= rules.second_partner_at:
        return 2
    return 1


def allowance(rules: Rules, level: int, with_kitty: bool = True) -> float:
    """Tricks expected from partners and the kitty beyond the contractor's own hand."""
    per_partner = rules.hand_size / rules.players * 0.45
    kitty = 0.0
    if with_kitty and rules.kitty_take and rules.discard_count:
        kitty = 0.25 * rules.discard_count
    return per_partner * _partners_expected(rules, level) + kitty


#: Judges a ladder entry for the seat to bid: the reason to bid it, or None. ``strict`` asks
#: for a trick to spare (to outbid one's own partner).
BidJudge = Callable[[int, bool], "str | None"]

#: The chance of making a contract the bot asks before it bids it, before the score moves it.
NEED = 0.55

#: The chance asked of a bid that takes the contract from opponents whose bid would win them the
#: game (:func:`_stop`): losing it costs its value, letting them play likely costs the game.
STOP = 0.2

#: The chance given to a contract the hand's sure tricks make alone (:func:`sure_tricks`).
SURE = 0.99


def misere_score(rules: Rules, hand: int) -> float:
    """How dangerous ``hand`` is at misère: the danger of its cards (:func:`misere_danger`)
    left once the kitty's discard has dropped the worst ones."""
    drops = rules.discard_count if rules.kitty_take else 0
    # misere_danger's dangers alone, in its order (worst first; cards tied on danger add the
    # same), summed in the same order: the same float to the last bit.
    t = _strain_tables(rules, NT)
    parts = _count_parts(rules)
    opponents = _active_opponents_misere(rules)
    dangers = [100.0] * (hand & t.masks[SUITLESS]).bit_count()
    for s in range(4):
        mine = hand & t.masks[s]
        got = parts.danger[s].get((mine, opponents))
        if got is None:
            got = parts.suit_danger(t, s, mine, opponents)
        dangers += got[1]
    dangers.sort(reverse=True)
    total = 0.0  # a float from the start (the compiled build keeps a float a float)
    for d in dangers[drops:]:
        total += d if d < 3.0 else 3.0
    return total


def _fitting_player(rules: Rules) -> Callable[[HandState], int]:
    bot = HeuristicBot(fitted=False)

    def play(state: HandState) -> int:
        if state.phase == KITTY:
            return rules.TAKE
        return bot.decide(state).action

    return play


def _fitting_bidder(state: HandState, model: HandModel) -> tuple[int, float | None]:
    """The heuristic's call for the seat to bid, judged with ``model``, and the mean tricks the
    model gave the contract it bids (see :func:`.handmodel.hand_model`)."""
    r = state.rules
    legal = state.legal_actions()
    view = view_of(state, state.controller(state.to_move))
    odds = bid_odds(view, model=model)
    action = choose_bid(view, legal, _judge_of(odds, r), odds).action
    i = action - r.BID
    if 0 <= i < r.n_bids and odds.mean and not odds.laid[i]:
        return action, odds.mean[i]
    return action, None


def bid_model(rules: Rules) -> HandModel:
    """The heuristic's model of what contracts make in ``rules`` (fitted once, by self-play of
    the deals and then of whole auctions)."""
    model = remembered_model(rules)  # asked at every call of the auction: no player built
    if model is not None:
        return model
    player = _fitting_player(rules)
    return hand_model(
        rules, hand_tricks, misere_score, player, cache_as="heuristic", bidder=_fitting_bidder
    )


@dataclass(frozen=True, slots=True)
class BidOdds:
    """The chance of making each ladder entry, as the seat to bid sees it."""

    #: By ladder index: the chance of making it (None: not a bid this hand would consider).
    chance: tuple[float | None, ...]
    #: By ladder index: what the chance rests on, in words.
    basis: Sequence[str]
    #: The chance the bot asks before bidding (the score moves it from :data:`NEED`).
    need: float
    #: Why ``need`` moved, or "".
    need_why: str
    #: By ladder index: the chance asked of that bid (``need``, moved again for a bid that
    #: would win the game: see :func:`_game_needs`).
    needs: tuple[float, ...] = ()
    #: By ladder index: why its need moved, or "".
    needs_why: tuple[str, ...] = ()

    #: By ladder index: whether the hand's sure tricks make it alone (:func:`sure_tricks`).
    laid: tuple[bool, ...] = ()
    #: By ladder index: the mean tricks the model gives a suit or no-trump entry (None for the
    #: others).
    mean: tuple[float | None, ...] = ()

    def need_of(self, i: int) -> float:
        """The chance asked of ladder entry ``i``."""
        return self.needs[i] if self.needs else self.need

    def why_of(self, i: int) -> str:
        """Why the chance asked of ladder entry ``i`` moved, or ""."""
        return self.needs_why[i] if self.needs_why else self.need_why


def _side_score(view: SeatView, seat: int) -> int:
    return view.scores[view.rules.side_of_seat[seat]]


_CHEAPEST: dict[int, tuple[Rules, int]] = {}


def _cheapest_value(r: Rules) -> int:
    """The value of the cheapest suit bid of the ladder (0 without one), remembered per rules."""
    hit = _CHEAPEST.get(id(r))
    if hit is not None and hit[0] is r:
        return hit[1]
    if len(_CHEAPEST) > 64:
        _CHEAPEST.clear()
    value = min((v for v, k in zip(r.bid_value, r.bid_kind, strict=True) if k == "suit"), default=0)
    _CHEAPEST[id(r)] = (r, value)
    return value


def _in_auction(view: SeatView, side: int) -> bool:
    """Whether ``side`` may still win this auction: it holds the bid, or one of its seats may
    still call (not after its one call, nor after a pass that no later bid can reopen)."""
    r = view.rules
    if view.high >= 0 and r.side_of_seat[view.high_seat] == side:
        return True
    done = _out_of_auction(view)
    return any(not done >> s & 1 for s in r.teams[side])


def _out_of_auction(view: SeatView) -> int:
    """The seats (a bitmask) that may call no more in this auction: after their one call, or
    after a pass that no later bid can reopen."""
    r = view.rules
    single = r.procedure == "single-round"
    if not single and passes_reopen(r):
        return 0
    called = passed = 0
    pass_ = r.PASS
    for s, a in view.calls:
        called |= 1 << s
        if a == pass_:
            passed |= 1 << s
    return called if single else passed


def _stop(view: SeatView) -> bool:
    """Whether the opponents hold a bid that wins them the game if they make it, and their
    tricks in defence would not win it them anyway (partners fixed at the deal: a partner yet
    to be chosen might be us)."""
    r = view.rules
    if view.high < 0 or r.partner_call != "none":
        return False
    side = r.side_of_seat[view.high_seat]
    if side == r.side_of_seat[view.seat]:
        return False
    return reaches(r, view.scores[side] + r.bid_value[view.high]) and not _defence_reaches(
        r, view.scores, side, _defence_tricks(r)
    )


def _need(view: SeatView) -> tuple[float, str]:
    """The chance to ask for: lower when opponents about to go out may still win the auction
    (defend by bidding: once they are out of it, the hand thrown in keeps them out better than
    a risky contract), higher when failing would put us out backwards."""
    r = view.rules
    mine = r.side_of_seat[view.seat]
    cheapest = _cheapest_value(r)
    if _stop(view):
        return STOP, N_(
            "the opponents' bid would win them the game: outbid it even on a slim chance"
        )
    near = r.target - 2 * max(cheapest, 10 * r.hand_size // 2)  # _near_target, written out
    for side, sc in enumerate(view.scores):
        if side != mine and sc >= near and _in_auction(view, side):
            return NEED - 0.12, N_("the opponents are near the target: bid to keep them out")
    if r.lose_at is not None and view.scores[mine] - 2 * cheapest <= r.lose_at:
        return NEED + 0.1, N_("near the losing score: bid only a safe contract")
    return NEED, ""


def _near_target(r: Rules, score: int) -> bool:
    """Whether ``score`` is near enough the target for the game to turn on the next hand or two
    (within two of the cheapest contracts, or half a hand's trick points)."""
    cheapest = _cheapest_value(r)
    return score >= r.target - 2 * max(cheapest, 10 * r.hand_size // 2)


def _defence_tricks(r: Rules) -> int:
    """The tricks a defender may count on taking in a hand (about half of what the cheapest
    contract leaves the defence; remembered per rules object)."""
    hit = _DEFENCE.get(id(r))
    if hit is not None and hit[0] is r:
        return hit[1]
    low = min(
        (lv for lv, k in zip(r.bid_level, r.bid_kind, strict=True) if k == "suit"),
        default=r.hand_size // 2,
    )
    if len(_DEFENCE) > 64:
        _DEFENCE.clear()
    tricks = max(1, (r.hand_size - low) // 2)
    _DEFENCE[id(r)] = (r, tricks)
    return tricks


_DEFENCE: dict[int, tuple[Rules, int]] = {}


def _defence_reaches(
    r: Rules, scores: tuple[int, ...], side: int, tricks: int, contract: int = -1
) -> bool:
    """Whether ``side``, defending ``contract`` (default: the cheapest suit bid), reaches the
    target with ``tricks`` tricks of its own, scored as the engine scores a hand (caps
    included); never where only a contract wins. Remembered: the scores stay all through a
    hand, and the auction asks at every call."""
    if r.must_bid_to_win or tricks <= 0:
        return False
    key = (id(r), scores, side, tricks, contract)
    hit = _DEFENCE_REACHES.get(key)
    if hit is not None and hit[0] is r:
        return hit[1]
    got = _defence_scores(r, scores, side, tricks, contract)
    if len(_DEFENCE_REACHES) > 4096:
        _DEFENCE_REACHES.clear()
    _DEFENCE_REACHES[key] = (r, got)
    return got


_DEFENCE_REACHES: dict[tuple[int, tuple[int, ...], int, int, int], tuple[Rules, bool]] = {}


def _defence_scores(
    r: Rules, scores: tuple[int, ...], side: int, tricks: int, contract: int
) -> bool:
    """:func:`_defence_reaches`, worked out."""
    if contract < 0:
        suits = [i for i in range(r.n_bids) if r.bid_kind[i] == "suit"]
        if not suits:
            return False
        contract = min(suits, key=lambda i: r.bid_value[i])
    seats = r.teams[side]
    others = [s for s in range(r.players) if r.side_of_seat[s] != side]
    if not seats or not others:
        return False
    won = [0] * r.players
    won[seats[0]] = tricks
    points = score_hand(r, contract, 1 << others[0], won, scores).points[side]
    return points > 0 and reaches(r, scores[side] + points)


def _game_needs(view: SeatView, need: float, why: str) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """The chance asked of each ladder entry once the score is read: a bid that takes our side
    to the target asks less when the opponents are about to go out (bid the game before they
    do), and less where only a contract wins the game (``end.must-bid-to-win``); it asks more
    where our own tricks in defence would take us out (no need to risk a contract for it)."""
    r = view.rules
    mine = r.side_of_seat[view.seat]
    score = view.scores[mine]
    if not _near_target(r, score):
        return (need,) * r.n_bids, (why,) * r.n_bids  # no bid moves: the game is not near
    k = _defence_tricks(r)
    opp_near = bool(why) and need < NEED
    if any(_defence_reaches(r, view.scores, side, k) for side in range(r.n_sides) if side != mine):
        opp_near = True
    own_tricks_out = _defence_reaches(r, view.scores, mine, k)
    near = _near_target(r, score)
    needs: list[float] = []
    whys: list[str] = []
    for i in range(r.n_bids):
        n, w = need, why
        if near and r.bid_kind[i] == "suit" and reaches(r, score + r.bid_value[i]):
            if opp_near:
                n = min(need, NEED - 0.2)
                w = N_("the bid wins the game before the opponents go out")
            elif own_tricks_out:
                n = max(need, NEED + 0.1)
                w = N_("our tricks in defence should win the game: bid only a sound contract")
            elif r.must_bid_to_win:
                n = min(need, NEED - 0.05)
                w = N_("only a contract wins the game, and this one does")
        needs.append(n)
        whys.append(w)
    return tuple(needs), tuple(whys)


_SQRT2 = sqrt(2.0)


def bid_odds(view: SeatView, boldness: float = 0.0, model: HandModel | None = None) -> BidOdds:
    """The chance of making every ladder entry from this seat's hand and the calls so far.

    Suit and no-trump bids: the fitted model (:func:`bid_model`) of the hand's count plus the
    partners' (the count a partner's bid in the strain shows, else an average partner's), less
    what the opponents' bids show; no trumps only with every suit stopped, or one open and the
    joker held. Misère bids: the model's chance for the hand's danger score, a partner who plays
    along counting against it when he has bid. ``model``: the rules' own (:func:`bid_model`)
    unless given.

    Each strain's expected tricks are worked out once; the reasons (``basis``) are put in words
    only when read (:class:`_Reasons`).
    """
    r = view.rules
    if model is None:
        model = bid_model(r)
    facts = _hand_facts(r, view.hand)
    sure = facts.sure
    team = _team_of(r, view.seat)
    n_mates = max(0, team.bit_count() - 1)
    per_mate = model.suit.partners_mean / n_mates if n_mates else 0.0
    shown: dict[int, int] = {}
    mate_bid = False
    opp_bids = 0
    for s, a in view.calls:
        if s == view.seat or a <= r.PASS:
            continue
        i = a - r.BID
        if team >> s & 1:
            if r.bid_kind[i] == "suit":
                shown[r.bid_strain[i]] = max(shown.get(r.bid_strain[i], 0), r.bid_level[i])
                mate_bid = True
        else:
            opp_bids += 1
    need, need_why, needs, whys = _needs(view)
    kinds, strains, levels = r.bid_kind, r.bid_strain, r.bid_level
    n_bids = r.n_bids
    chance: list[float | None] = [None] * n_bids
    # By strain: the expected tricks and who they count on (what a reason says).
    means: dict[int, tuple[float, str]] = {}
    # By ladder index: the expected tricks of the entries the model judges.
    entry_means: list[float | None] = [None] * n_bids
    for i in _misere_entries(r):
        mfit = model.misere.get(i)
        if mfit is None:
            continue
        p = facts.misere_chance(mfit)
        if r.bid_partner[i] != "sits-out" and n_mates and mate_bid:
            p *= 0.3  # partner plays along and has shown high cards
        chance[i] = p
    for strain, entries in _suit_entries(r):
        at_least = sure[strain]
        mean: float | None = None
        sd = 0.3
        for i, level in entries:
            if at_least >= level:
                # Sure tricks enough: no model needed, and no stopper either (we lead first).
                chance[i] = SURE
                continue
            if mean is None:  # the first entry the model judges: the strain's mean, once
                if strain == NT and not facts.nt_stopped():
                    continue
                fit = model.nt if strain == NT else model.suit
                sd = max(0.3, fit.sd)
                got = means[strain] = _strain_mean(
                    model,
                    strain,
                    facts.count(strain),
                    shown,
                    per_mate,
                    n_mates,
                    boldness - 0.3 * opp_bids,
                )
                mean = got[0]
            # normal_at_least(mean, sd, level), written out: some 25 entries at every call
            chance[i] = 0.5 * (1.0 + erf((mean - level + 0.5) / sd / _SQRT2))
            entry_means[i] = mean

    def reason(i: int) -> str:
        p = chance[i]
        if p is None:
            return ""
        if kinds[i] == "misere":
            return Why(
                N_("a misère hand (danger %(danger)s): about %(chance)s to take no trick"),
                danger=decimal_param(facts.misere()),
                chance=percent_param(p),
            )
        strain, level = strains[i], levels[i]
        name = SUIT_WORDS[SUITS[strain]] if strain < NT else N_("no trumps")
        if sure[strain] >= level:
            return Why(
                N_("%(sure)s sure tricks at %(strain)s: %(level)s is laid down"),
                sure=sure[strain],
                strain=name,
                level=level,
            )
        mean, why_mates = means[strain]
        return Why(
            N_("about %(tricks)s tricks at %(strain)s %(mates)s: %(chance)s to make %(level)s"),
            tricks=decimal_param(mean),
            strain=name,
            mates=why_mates,
            chance=percent_param(p),
            level=level,
        )

    return BidOdds(
        tuple(chance),
        _Reasons(n_bids, reason),
        need,
        need_why,
        needs,
        whys,
        facts.laid,
        tuple(entry_means),
    )


#: The ladder's suit and no-trump bids by strain: (strain, ((index, level), ...)).
_ByStrain = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
_LADDERS: dict[int, tuple[Rules, tuple[int, ...], _ByStrain]] = {}


def _ladder(r: Rules) -> tuple[Rules, tuple[int, ...], _ByStrain]:
    """The ladder of ``r`` as :func:`bid_odds` walks it (remembered per rules object)."""
    hit = _LADDERS.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_LADDERS) > 64:
            _LADDERS.clear()
        miseres = tuple(
            i for i in range(r.n_bids) if r.bid_kind[i] == "misere" and not r.bid_blind[i]
        )
        by_strain: dict[int, list[tuple[int, int]]] = {}
        for i in range(r.n_bids):
            if r.bid_kind[i] == "suit":
                by_strain.setdefault(r.bid_strain[i], []).append((i, r.bid_level[i]))
        suits = tuple((st, tuple(e)) for st, e in by_strain.items())
        hit = _LADDERS[id(r)] = (r, miseres, suits)
    return hit


def _misere_entries(r: Rules) -> tuple[int, ...]:
    """The ladder indexes of the misère bids that are not blind (a blind misère is judged from
    the score alone: see :func:`_blind_misere`)."""
    return _ladder(r)[1]


def _suit_entries(r: Rules) -> _ByStrain:
    """The suit and no-trump bids of the ladder by strain: (strain, ((index, level), ...))."""
    return _ladder(r)[2]


def _strain_mean(
    model: HandModel,
    strain: int,
    own: float,
    shown: dict[int, int],
    per_mate: float,
    n_mates: int,
    shift: float,
) -> tuple[float, str]:
    """The tricks expected at ``strain`` for a count of ``own`` (moved by ``shift``: boldness
    less what the opponents' bids show), and who the partners' share counts on, in words."""
    fit = model.nt if strain == NT else model.suit
    if strain not in shown:
        why = N_("with an average partner") if n_mates else N_("alone against the others")
        return fit.mean(own, None) + shift, why
    lp = shown[strain]
    # The count a partner's bid at ``lp`` shows: enough to make it with us average.
    z = 0.13  # the normal quantile of about NEED
    need_own = (lp - 0.5 + z * fit.sd - fit.a - fit.c * fit.partners_mean) / fit.b
    mates = (need_own + 0.5) + per_mate * (n_mates - 1)
    mean = fit.mean(own, mates)
    # The same pair seen from partner's side: partner's count as the bidder's.
    alt = (
        fit.a
        + fit.b * (mates - per_mate * (n_mates - 1))
        + fit.c * (own + per_mate * (n_mates - 1))
    )
    mean = max(mean, alt)
    return mean + shift, Why(N_("with partner's %(level)s shown"), level=lp)


class _Reasons(Sequence[str]):
    """By ladder index, what each chance rests on, in words, each put in words when first read
    (an auction reads the reasons of the few bids its judge accepts, of some 25)."""

    __slots__ = ("_made", "_make", "_n")

    def __init__(self, n: int, make: Callable[[int], str]) -> None:
        self._n = n
        self._make = make
        self._made: dict[int, str] = {}

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(self._n)[i])
        j = i + self._n if i < 0 else i
        if not 0 <= j < self._n:
            raise IndexError(i)
        hit = self._made.get(j)
        if hit is None:
            hit = self._made[j] = self._make(j)
        return hit

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


class _HandFacts:
    """What the auction reads of one hand, each worked out when first asked: its count at a
    strain (:func:`hand_tricks`), its sure tricks at every strain (:func:`sure_tricks`) and,
    by ladder index, whether they lay the bid down, whether no trumps is stopped, its misère
    danger score (:func:`misere_score`)."""

    __slots__ = ("_chances", "_counts", "_misere", "_stopped", "hand", "laid", "rules", "sure")

    def __init__(self, rules: Rules, hand: int) -> None:
        self.rules = rules
        self.hand = hand
        sure = _sure_all(rules, hand)  # sure_tricks at each strain
        self.sure = sure
        self.laid = _laid(rules, sure)
        self._counts: list[float | None] = [None] * 5
        self._misere: float | None = None
        self._stopped: bool | None = None
        self._chances: dict[int, tuple[MisereFit, float]] = {}

    def count(self, strain: int) -> float:
        """:func:`hand_tricks` at ``strain``."""
        got = self._counts[strain]
        if got is None:
            got = self._counts[strain] = hand_tricks(self.rules, self.hand, strain)
        return got

    def misere(self) -> float:
        """:func:`misere_score` of the hand."""
        if self._misere is None:
            self._misere = misere_score(self.rules, self.hand)
        return self._misere

    def misere_chance(self, fit: MisereFit) -> float:
        """``fit``'s chance for the hand's misère danger score (remembered by the fit)."""
        hit = self._chances.get(id(fit))
        if hit is not None and hit[0] is fit:
            return hit[1]
        p = fit.chance(self.misere())
        self._chances[id(fit)] = (fit, p)
        return p

    def nt_stopped(self) -> bool:
        """Whether the hand may bid no trumps: every suit stopped, or one open and a joker."""
        if self._stopped is None:
            unstopped = _unstopped(self.rules, self.hand)
            joker = bool(self.hand & _strain_tables(self.rules, NT).masks[SUITLESS])
            self._stopped = not (unstopped > 1 or (unstopped == 1 and not joker))
        return self._stopped


_FACTS: dict[tuple[int, int], _HandFacts] = {}


def _laid(rules: Rules, sure: list[int]) -> tuple[bool, ...]:
    """By ladder index: whether the sure tricks ``sure`` (by strain) make the bid alone
    (remembered: most hands have one of a few patterns of sure tricks)."""
    key = (id(rules), *sure)
    hit = _LAID.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    laid = [False] * rules.n_bids
    for strain, entries in _suit_entries(rules):
        for i, level in entries:
            laid[i] = sure[strain] >= level
    if len(_LAID) > 1024:
        _LAID.clear()
    got = _LAID[key] = (rules, tuple(laid))
    return got[1]


_LAID: dict[tuple[int, ...], tuple[Rules, tuple[bool, ...]]] = {}


def _hand_facts(rules: Rules, hand: int) -> _HandFacts:
    """The auction's facts of ``hand`` (:class:`_HandFacts`), remembered through the auction."""
    hit = _FACTS.get((id(rules), hand))
    if hit is not None and hit.rules is rules:
        return hit
    if len(_FACTS) > 256:
        _FACTS.clear()
    facts = _FACTS[(id(rules), hand)] = _HandFacts(rules, hand)
    return facts


def _needs(view: SeatView) -> tuple[float, str, tuple[float, ...], tuple[str, ...]]:
    """:func:`_need` and :func:`_game_needs` of the seat's side at these scores (the second
    remembered: it reads only the scores, the side and the need, the same all through a hand;
    the first is asked afresh, since the bid held and the seats out of the auction change at
    every call)."""
    r = view.rules
    need, why = _need(view)
    gkey = (id(r), view.scores, r.side_of_seat[view.seat], need, why)
    got = _GAME_NEEDS.get(gkey)
    if got is not None and got[0] is r:
        needs, whys = got[1]
    else:
        if len(_GAME_NEEDS) > 256:
            _GAME_NEEDS.clear()
        needs, whys = _game_needs(view, need, why)
        _GAME_NEEDS[gkey] = (r, (needs, whys))
    return need, why, needs, whys


_GAME_NEEDS: dict[
    tuple[int, tuple[int, ...], int, float, str],
    tuple[Rules, tuple[tuple[float, ...], tuple[str, ...]]],
] = {}


def _unstopped(rules: Rules, hand: int) -> int:
    """Suits of ``hand`` with no stopper at no trumps (no ace, no guarded king, ...)."""
    t = _strain_tables(rules, NT)
    stops = _count_parts(rules).stopped  # by suit, then cards held: remembered
    out = 0
    for s in range(4):
        mine = hand & t.masks[s]
        known = stops[s]
        stopped = known.get(mine)
        if stopped is None:
            n = mine.bit_count()
            stopped = False
            for rank, c in enumerate(t.desc[s][:4]):
                if mine >> c & 1 and n > rank:
                    stopped = True
                    break
            if len(known) >= _PART_LIMIT:
                known.clear()
            known[mine] = stopped
        out += not stopped
    return out


def heuristic_judge(view: SeatView, boldness: float = 0.0) -> BidJudge:
    """The heuristic bot's judge of bids (:func:`bid_odds`): a bid is acceptable when its chance
    reaches the need; ``strict`` asks for about a trick more."""
    return _judge_of(bid_odds(view, boldness), view.rules)


class _Judge:
    """The heuristic's own :data:`BidJudge` from its :class:`BidOdds`; :meth:`candidates`
    judges every legal bid at once for :func:`choose_bid` (the same answers as calling it)."""

    __slots__ = ("basis", "chance", "needs", "odds", "r")

    def __init__(self, odds: BidOdds, r: Rules) -> None:
        self.odds = odds
        self.r = r
        self.chance = odds.chance
        self.basis = odds.basis
        self.needs = odds.needs or (odds.need,) * len(odds.chance)  # odds.need_of, once

    def __call__(self, i: int, strict: bool) -> str | None:
        p = self.chance[i]
        if p is None:
            return None
        r = self.r
        if strict and r.bid_kind[i] != "misere":
            p = _next_chance(self.odds, r, i)
        return self.basis[i] if p >= self.needs[i] else None

    def candidates(self, legal: list[int]) -> list[tuple[int, str]]:
        """``(action, reason)`` of each legal bid, not blind, that the judge accepts (not
        strict), in the order of ``legal``."""
        bid, basis = self.r.BID, self.basis
        return [(a, basis[a - bid]) for a in self.accepted(legal)]

    def accepted(self, legal: list[int]) -> list[int]:
        """The bids of :meth:`candidates` without their reasons (not put in words)."""
        r = self.r
        bid, blind, chance, needs = r.BID, r.bid_blind, self.chance, self.needs
        out: list[int] = []
        for a in legal:
            i = a - bid
            if i < 0 or blind[i]:
                continue  # the pass and the calls below the ladder; a blind bid
            p = chance[i]
            if p is not None and p >= needs[i]:
                out.append(a)
        return out


def _judge_of(odds: BidOdds, r: Rules) -> BidJudge:
    return _Judge(odds, r)


def _next_chance(odds: BidOdds, r: Rules, i: int) -> float:
    """The chance of the same strain a level higher (a trick to spare), 0 if there is none."""
    for j in range(r.n_bids):
        if (
            r.bid_kind[j] == "suit"
            and r.bid_strain[j] == r.bid_strain[i]
            and r.bid_level[j] == r.bid_level[i] + 1
        ):
            return odds.chance[j] or 0.0
    return 0.0


def _gain(r: Rules, i: int, p: float) -> float:
    """Expected points of bidding ladder entry ``i`` with chance ``p`` (win or lose its value)."""
    return (2.0 * p - 1.0) * r.bid_value[i]


def _blind_misere(view: SeatView, legal: list[int]) -> Decision | None:
    """A blind misère, judged without reading the hand: only when the opponents are about to win
    and making it wins the game."""
    r = view.rules
    if True not in r.bid_blind:
        return None  # the ladder has no blind bid
    mine = r.side_of_seat[view.seat]
    others = [sc for side, sc in enumerate(view.scores) if side != mine]
    if not others:
        return None
    # What does not depend on the bid, first: as a rule the opponents are not about to win.
    top = max(others)
    if top < r.target - _cheapest_value(r) or view.scores[mine] > top - 300:
        return None
    for a in legal:
        if a <= r.PASS or not r.bid_blind[a - r.BID]:
            continue
        i = a - r.BID
        if view.scores[mine] + r.bid_value[i] >= r.target and (
            r.lose_at is None or view.scores[mine] - r.bid_value[i] > r.lose_at
        ):
            return Decision(
                a,
                N_("the opponents are about to win: a blind misère is the bid that wins the game"),
            )
    return None


def choose_bid(
    view: SeatView, legal: list[int], judge: BidJudge, odds: BidOdds | None = None
) -> Decision:
    """The call to make, given a judge of ladder entries (see :data:`BidJudge`).

    With ``odds`` (the heuristic's own chances): the strain whose best acceptable bid gains most
    (its value won or lost, by the chance), bid at its cheapest acceptable level in a rounds
    auction and at its best in a one-call auction; a partner's strain is raised as far as the
    pair reaches; one's own bid is raised only when the raise gains more than the bid held.
    Without: the cheapest acceptable entry in the best strain (rounds), the highest (one call).
    Never outbids a partner in another strain; never bids blind unless the score calls for it.
    No ace, no face: a hand that may ask for a redeal does when it would pass, unless its
    partner holds the bid (a misère it is worth is bid instead).
    """
    r = view.rules
    team = _team_of(r, view.seat)
    partner_high = (
        view.high >= 0 and view.high_seat != view.seat and bool(team >> view.high_seat & 1)
    )
    if r.REDEAL >= 0 and r.REDEAL in legal:
        # no ace, no face: a hand worth no bid asks for a redeal, unless partner holds the bid
        call = choose_bid(view, [a for a in legal if a != r.REDEAL], judge, odds)
        if call.action == r.PASS and not partner_high:
            return Decision(r.REDEAL, N_("no ace, no face and worth no bid: ask for a redeal"))
        return call
    if odds is not None and _first_call(view):
        blind = _blind_misere(view, legal)
        if blind is not None:
            return blind
    if odds is not None and isinstance(judge, _Judge):
        # The heuristic's own judge: a reason is put in words only for the bid made.
        basis, bid = judge.basis, r.BID
        accepted = judge.accepted(legal)
        return _choose_by_gain(view, legal, accepted, lambda a: basis[a - bid], odds, partner_high)
    candidates: list[tuple[int, str]]
    if isinstance(judge, _Judge):
        candidates = judge.candidates(legal)
    else:
        candidates = []
        for a in legal:
            if a == r.PASS:
                continue
            i = a - r.BID
            if r.bid_blind[i]:
                continue
            why = judge(i, False)
            if why is not None:
                candidates.append((a, why))
    if odds is not None:
        reasons = dict(candidates)
        accepted = [a for a, _ in candidates]
        return _choose_by_gain(view, legal, accepted, reasons.__getitem__, odds, partner_high)
    if not candidates:
        return Decision(r.PASS, N_("the hand is not worth a higher bid"))
    if partner_high:
        strain = r.bid_strain[view.high]
        raise_ = [
            (a, why)
            for a, why in candidates
            if r.bid_kind[a - r.BID] == "suit"
            and r.bid_strain[a - r.BID] == strain
            and judge(a - r.BID, True) is not None
        ]
        if not raise_ or r.procedure != "single-round":
            return Decision(r.PASS, N_("partner holds the bid"))
        return Decision(
            raise_[-1][0], Why(N_("raise partner's strain: %(why)s"), why=raise_[-1][1])
        )
    best = max(candidates, key=lambda c: c[0])
    if r.procedure == "single-round":
        return Decision(
            best[0],
            Why(N_("one call each: the highest bid the hand is worth; %(why)s"), why=best[1]),
        )
    bi = best[0] - r.BID
    if r.bid_kind[bi] == "misere":
        cheapest_misere = min(a for a, _ in candidates if r.bid_kind[a - r.BID] == "misere")
        return Decision(cheapest_misere, dict(candidates)[cheapest_misere])
    same = [c for c in candidates if r.bid_strain[c[0] - r.BID] == r.bid_strain[bi]]
    return Decision(min(same)[0], min(same)[1])


def _first_call(view: SeatView) -> bool:
    return view.seat not in [s for s, _ in view.calls]  # a list: faster than all() here


def _group(r: Rules, i: int) -> int:
    """Bids compared together: one group per strain, one per misère bid."""
    return r.bid_strain[i] if r.bid_kind[i] == "suit" else 5 + i


def _choose_by_gain(
    view: SeatView,
    legal: list[int],
    candidates: list[int],
    why_of: Callable[[int], str],
    odds: BidOdds,
    partner_high: bool,
) -> Decision:
    """:func:`choose_bid` with ``odds``: ``candidates`` are the bids the judge accepts (actions,
    in the order of ``legal``), ``why_of`` gives one's reason (asked only of the bid made)."""
    r = view.rules
    chance = odds.chance
    mine = r.side_of_seat[view.seat]

    def noted(why: str, need: str) -> str:
        """``why``, with why the chance asked moved (``need``) after it in brackets."""
        return Why(N_("%(why)s (%(need)s)"), why=why, need=need) if need else why

    def note_of(i: int) -> str:
        return odds.why_of(i)

    def wins(i: int) -> bool:
        """Making entry ``i`` wins the game, and the game is near (not a slam from 0 all)."""
        score = view.scores[mine]
        return (
            r.bid_kind[i] == "suit"
            and _near_target(r, score)
            and reaches(r, score + r.bid_value[i])
        )

    note = odds.need_why
    if view.high >= 0 and (view.high_seat == view.seat or partner_high) and wins(view.high):
        already = (
            N_("my bid already wins the game: no need to go higher")
            if view.high_seat == view.seat
            else N_("partner's bid already wins the game: no need to go higher")
        )
        return Decision(r.PASS, already)
    if view.high >= 0 and view.high_seat == view.seat:
        # Raising one's own bid: only for more than the bid held is worth.
        held = chance[view.high]
        keep = _gain(r, view.high, held) if held is not None else 0.0
        better = [
            a
            for a in candidates
            if _group(r, a - r.BID) == _group(r, view.high)
            and _gain(r, a - r.BID, chance[a - r.BID] or 0.0) > keep + 10
        ]
        if not better:
            return Decision(r.PASS, N_("keep the bid: a raise would risk more than it adds"))
        a = max(better, key=lambda a: _gain(r, a - r.BID, chance[a - r.BID] or 0.0))
        return Decision(a, Why(N_("raise my own bid: %(why)s"), why=why_of(a)))
    if partner_high:
        strain = r.bid_strain[view.high]
        held = chance[view.high]
        keep = _gain(r, view.high, held) if held is not None else 0.0
        raise_ = [
            a
            for a in candidates
            if r.bid_kind[a - r.BID] == "suit"
            and r.bid_strain[a - r.BID] == strain
            and r.bid_kind[view.high] == "suit"
            and _gain(r, a - r.BID, chance[a - r.BID] or 0.0) > keep + 10
            and (chance[a - r.BID] or 0.0) >= odds.need_of(a - r.BID) + 0.1
        ]
        if not raise_:
            return Decision(r.PASS, N_("partner holds the bid and the pair reaches no higher"))
        a = max(raise_, key=lambda a: _gain(r, a - r.BID, chance[a - r.BID] or 0.0))
        if r.procedure != "single-round":
            # Rounds: raise to the cheapest level above partner's that still gains.
            a = min(raise_)
        return Decision(a, Why(N_("raise partner's suit: %(why)s"), why=why_of(a)))
    if not candidates:
        need, needs = odds.need, odds.needs
        for a in legal:
            if a <= r.PASS:
                continue
            i = a - r.BID
            p = chance[i]
            if p is not None and need <= p < (needs[i] if needs else need):  # odds.need_of(i)
                note = note_of(i)  # a bid the score alone turned down
                break
        return Decision(r.PASS, noted(N_("the hand is not worth a higher bid"), note))
    if _stop(view) and not any((chance[a - r.BID] or 0.0) >= NEED for a in candidates):
        # Only to take the contract from them: the bid likeliest to make, the cheapest of those.
        pick = max(candidates, key=lambda a: (chance[a - r.BID] or 0.0, -a))
        return Decision(pick, noted(why_of(pick), note_of(pick - r.BID)))

    def gain(a: int) -> float:
        i = a - r.BID
        g = _gain(r, i, chance[i] or 0.0)
        if wins(i):
            g += 50.0 * (chance[i] or 0.0)  # making it wins the game
        return g

    best = max(candidates, key=gain)
    group = _group(r, best - r.BID)
    if r.procedure == "single-round":
        # One call: enough to win the game if that is in reach, else the best gain.
        winning = [a for a in candidates if wins(a - r.BID)]
        if winning:
            pick = max(winning, key=lambda a: (chance[a - r.BID] or 0.0, -a))
            return Decision(
                pick,
                noted(
                    Why(N_("one call: just enough to win the game; %(why)s"), why=why_of(pick)),
                    note_of(pick - r.BID),
                ),
            )
        if _team_of(r, view.seat).bit_count() > 1:
            return Decision(
                best,
                noted(
                    Why(
                        N_("one call: the bid that gains most (partner may raise it); %(why)s"),
                        why=why_of(best),
                    ),
                    note_of(best - r.BID),
                ),
            )
        # Alone, with no second call to climb with and no partner to raise: the highest level
        # the hand reaches in its best strain (a lower one scores less and leaves the others
        # room to outbid it cheaply).
        top = max(a for a in candidates if _group(r, a - r.BID) == group)
        return Decision(
            top,
            noted(
                Why(
                    N_("one call: the highest the hand reaches in its best strain; %(why)s"),
                    why=why_of(top),
                ),
                note_of(top - r.BID),
            ),
        )
    same = [a for a in candidates if _group(r, a - r.BID) == group]
    laid = [a for a in same if odds.laid and odds.laid[a - r.BID]]
    if laid and max(laid) > min(same):
        # No risk in bidding what the sure tricks make: the cheaper bid would only score less.
        pick = max(laid)
        return Decision(pick, Why(N_("bid what the hand lays down: %(why)s"), why=why_of(pick)))
    winning = [a for a in same if wins(a - r.BID)]
    if winning and not wins(min(same) - r.BID):
        pick = min(winning)
        return Decision(
            pick,
            noted(
                Why(N_("just high enough to win the game: %(why)s"), why=why_of(pick)),
                note_of(pick - r.BID),
            ),
        )
    pick = min(same)
    return Decision(pick, noted(why_of(pick), note_of(pick - r.BID)))


def _margin(rules: Rules, level: int) -> float:
    """Tricks to spare before bidding ``level``: high contracts cost more when they fail."""
    low = min(
        lv for lv, kind in zip(rules.bid_level, rules.bid_kind, strict=True) if kind == "suit"
    )
    return 0.35 * (level - low)


def _active_opponents_misere(rules: Rules) -> int:
    """How many opponents play against a misère (partners sit out or play along)."""
    if rules.partner_call == "none":
        return rules.players - max(len(t) for t in rules.teams)
    return rules.players - 1


def _take_or_sans(view: SeatView, fitted: bool = True) -> Decision:
    """Sans kitty when its bonus outweighs the tricks the kitty would bring (by the model)."""
    r = view.rules
    level = r.bid_level[view.contract]
    own = hand_tricks(r, view.hand, view.strain)
    widow = r.terms["kitty"] == "widow"  # the variant's word for it (American: the widow)
    if not fitted:
        return Decision(
            r.TAKE,
            N_("take the widow to improve the hand")
            if widow
            else N_("take the kitty to improve the hand"),
        )
    model = bid_model(r)
    fit = model.nt if view.strain == NT else model.suit
    mean = fit.mean(own)
    p_take = normal_at_least(mean, fit.sd, level)
    p_sans = normal_at_least(mean - fit.b * max(0.0, model.kitty_gain), fit.sd, level)
    value = r.bid_value[view.contract]
    bonus = r.sans_kitty_bonus or 0
    if (2 * p_sans - 1) * (value + bonus) > (2 * p_take - 1) * value:
        return Decision(
            r.SANS,
            Why(
                N_(
                    "%(sans)s to make it without the widow (%(take)s with it): "
                    "play sans for the bonus"
                )
                if widow
                else N_(
                    "%(sans)s to make it without the kitty (%(take)s with it): "
                    "play sans for the bonus"
                ),
                sans=percent_param(p_sans),
                take=percent_param(p_take),
            ),
        )
    return Decision(
        r.TAKE,
        Why(
            N_("take the widow: %(take)s with it, %(sans)s without")
            if widow
            else N_("take the kitty: %(take)s with it, %(sans)s without"),
            take=percent_param(p_take),
            sans=percent_param(p_sans),
        ),
    )


def _partner(view: SeatView, legal: list[int]) -> Decision:
    r = view.rules
    if legal[0] >= r.CALL:
        power = r.power[view.strain]
        best = max(legal, key=lambda a: power[a - r.CALL])
        return Decision(
            best, N_("call the highest card not held: its holder is the strongest partner")
        )
    # Choose the seat that bid highest (the strongest hand shown), else the next one.
    shown = {s: a for s, a in view.calls if a > r.PASS}
    options = [a - r.PARTNER for a in legal]
    best_seat = max(options, key=lambda s: (shown.get(s, -1), -((s - view.seat) % r.players)))
    if best_seat in shown:
        return Decision(r.PARTNER + best_seat, N_("choose the seat that showed the strongest hand"))
    return Decision(r.PARTNER + best_seat, N_("no seat showed strength: choose the next one"))


# -- kitty discard -------------------------------------------------------------------------------


def discard_choice(view: SeatView, hand: int | None = None) -> tuple[int, str]:
    """The set of cards (a bitmask) the contractor drops from ``hand`` (default: its hand), and
    why: as many cards as are still to be discarded (the first of :func:`discard_options`,
    the others not worked out)."""
    return next(_discard_sets(view, hand))


def discard_options(view: SeatView, hand: int | None = None) -> list[tuple[int, str]]:
    """Sets of cards worth considering for the discard, the heuristic's choice first.

    At a trump contract: void the shortest side suits without a winner (to ruff them), else
    drop the lowest cards; the alternatives void each short side suit in turn, or none. At no
    trumps: the lowest cards of the short suits. At misère: the most dangerous cards.
    """
    seen: set[int] = set()
    unique = []
    for mask, why in _discard_sets(view, hand):
        if mask not in seen:
            seen.add(mask)
            unique.append((mask, why))
    return unique


def _discard_sets(view: SeatView, hand: int | None = None) -> Iterator[tuple[int, str]]:
    """The sets of :func:`discard_options` as they are worked out, the choice first (a set may
    come again)."""
    r = view.rules
    hand = view.hand if hand is None else hand
    count = max(1, min(r.discard_count, hand.bit_count() - r.hand_size))
    # The contract's strain: the engine sets the trump tables only when the play starts, so at
    # the discard a view still shows no trumps (read at it, a bower could go).
    strain = NT
    if view.contract >= 0 and r.bid_kind[view.contract] == "suit":
        strain = r.bid_strain[view.contract]
    if view.misere:
        danger = misere_danger(r, hand, _active_opponents_misere(r))
        drop = [c for _, c in danger][:count]
        if len(drop) < count:
            t = _strain_tables(r, NT)
            rest = sorted(bits(hand & ~sum(1 << c for c in drop)), key=lambda c: -t.bottom[c])
            drop += rest[: count - len(drop)]
        yield sum(1 << c for c in drop), N_("misère: drop the cards most likely to win a trick")
        return
    t = _strain_tables(r, strain)
    trump_mask = t.masks[strain] if strain < NT else 0

    def keep_value(c: int) -> float:
        if trump_mask >> c & 1 or t.suit_of[c] == SUITLESS:
            return 1000.0 + t.power[c]
        above = (t.higher[c] & ~hand).bit_count()
        length = (hand & t.masks[t.suit_of[c]]).bit_count()
        if above == 0:
            return 500.0 + t.power[c]
        if above == 1 and length >= 2:
            return 200.0 + t.power[c]
        return t.power[c] + (10.0 * length if strain == NT else 0.0)

    def fill(drop_mask: int) -> int:
        budget = count - drop_mask.bit_count()
        for c in sorted(bits(hand & ~drop_mask), key=keep_value)[:budget]:
            drop_mask |= 1 << c
        return drop_mask

    if strain < NT:
        side = [s for s in range(4) if s != strain]
        side.sort(key=lambda s: (hand & t.masks[s]).bit_count())
        voids = 0
        budget = count
        for s in side:
            cards = hand & t.masks[s]
            n = cards.bit_count()
            if 0 < n <= budget and all(keep_value(c) < 500 for c in bits(cards)):
                voids |= cards
                budget -= n
        if voids:
            why = N_("void short side suits to ruff them, keep trumps and winners")
            yield fill(voids), why
        yield fill(0), N_("keep trumps and winners, drop low cards")
        for s in side:
            cards = hand & t.masks[s]
            if 0 < cards.bit_count() <= count:
                yield fill(cards), Why(N_("void %(suit)s to ruff it"), suit=SUIT_WORDS[SUITS[s]])
    else:
        yield fill(0), N_("keep winners and long suits, drop low cards of short suits")


def _discard(view: SeatView, state: HandState) -> Decision:
    """One card of the chosen set (a discard is one card per action)."""
    drop, why = discard_choice(view)
    c = (drop & -drop).bit_length() - 1
    return Decision(view.rules.DISCARD + c, why)


# -- play ----------------------------------------------------------------------------------------


def _play(view: SeatView, mover: int, legal: list[int]) -> Decision:
    r = view.rules
    t = _tables(view.suit_of, view.power, view.masks)
    hand = view.hand if mover == view.seat else view.faced[mover]
    ctx = _Context(view, t, mover, hand)
    if legal[-1] < r.NOMINATE:  # ascending: no nomination open (as a rule)
        nominate: list[int] = []
        cards = legal
    else:
        nominate = [a for a in legal if a >= r.NOMINATE]
        cards = [a for a in legal if a < r.NOMINATE]
    if nominate and not view.misere:
        # Make the joker the top card of the longest suit.
        others = hand & ~t.masks[SUITLESS]
        suit = max(range(4), key=lambda s: ((others & t.masks[s]).bit_count(), -s))
        return Decision(
            r.NOMINATE + suit,
            Why(
                N_("name the joker's suit %(suit)s: the top of the longest suit"),
                suit=SUIT_WORDS[SUITS[suit]],
            ),
        )
    if view.trick:
        if view.misere:
            return ctx.follow_misere(cards)
        return ctx.follow(cards)
    if view.misere:
        return ctx.lead_misere(cards)
    return ctx.lead(cards)


class _Context:
    """One play decision: the mover, its cards and the public facts of the trick."""

    __slots__ = (
        "after",
        "coop_why",
        "friends",
        "hand",
        "jl",
        "mover",
        "out",
        "possible",
        "r",
        "rival_why",
        "t",
        "trump",
        "trump_mask",
        "v",
    )

    def __init__(self, view: SeatView, t: _StrainTables, mover: int, hand: int) -> None:
        self.v = view
        self.r = r = view.rules
        self.t = t
        self.mover = mover
        self.hand = hand
        self.jl = r.JOKER_LEAD
        # Cards the mover cannot see: the others may hold them.
        self.out = ((1 << r.n_cards) - 1) & ~(view.played | hand)
        #: By seat: the cards of ``out`` it may hold (-1: not worked out yet).
        self.possible = [-1] * r.players
        allies = view.allies
        if view.contract >= 0:
            if allies >> mover & 1:
                self.friends = allies
            else:
                self.friends = ((1 << r.players) - 1) & ~allies
        else:
            self.friends = sum(1 << s for s in r.teams[r.side_of_seat[mover]])
        #: Why a fellow defender is played against, not with ("" when none is).
        self.rival_why = ""
        #: Why the defenders play together though they score apart ("" when not said).
        self.coop_why = ""
        if (
            view.contract >= 0
            and not allies >> mover & 1
            and not view.misere
            and not r.pool_opponents  # what _rivals asks first, read before the call
            and r.opponents_per_trick
        ):
            self._rivals()
        trump = view.trumpish
        if trump < SUITLESS:
            self.trump = trump
            self.trump_mask = t.masks[trump] if trump >= 0 else 0
        else:
            self.trump = -1
            self.trump_mask = 0
        # The seats still to play to this trick after the mover, in order.
        after = []
        nxt = view.next_seat
        s = nxt[mover]
        for _ in range(view.n_active - len(view.trick) - 1):
            after.append(s)
            s = nxt[s]
        self.after = after

    def _rivals(self) -> None:
        """Defenders who score apart are partners only while the contract is in doubt and is
        the threat. When making it would take the contractor's side to the target, the
        defenders play together until it is beaten (the contract is the threat); otherwise a
        fellow defender whose own tricks would take him to the target is covered like any
        opponent (he is the threat), and once the contract is made or beaten every defender
        plays for his own tricks."""
        v = self.v
        r = self.r
        if r.pool_opponents or not r.opponents_per_trick:
            return
        mine = r.side_of_seat[self.mover]
        # The fellow defenders: of the friends, the seats of other sides still playing.
        others = self.friends & ~_side_seats(r)[mine] & ~v.sitting_out & ~(1 << self.mover)
        if not others:
            return
        fellows = bits(others)
        if not fellows:
            return
        taken = sum(w for s, w in enumerate(v.tricks_won) if v.allies >> s & 1)
        level = r.bid_level[v.contract]
        left = r.hand_size - v.n_tricks
        beaten = taken + left < level
        settled = taken >= level or beaten
        cside = r.side_of_seat[v.contractor] if v.contractor >= 0 else -1
        contract_wins = (
            not settled and cside >= 0 and reaches(r, v.scores[cside] + r.bid_value[v.contract])
        )
        if contract_wins:
            self.coop_why = N_("making the contract would win the game: defend together")
            return
        # The tricks the defence may still expect, shared among the defenders.
        defence = max(1, left - max(0, level - taken))
        share = max(1, round(defence / (len(fellows) + 1)))
        for s in fellows:
            side = r.side_of_seat[s]
            won = sum(w for t, w in enumerate(v.tricks_won) if r.side_of_seat[t] == side)
            threat = _defence_reaches(r, v.scores, side, won + share, v.contract)
            if threat or settled:
                self.friends &= ~(1 << s)
                self.rival_why = (
                    N_("cover the defender about to win the game by his tricks")
                    if threat
                    else N_("the contract is settled: every defender plays for his own tricks")
                )

    # -- small facts --

    def card(self, action: int) -> int:
        """The card an action puts down (:meth:`SeatView.card_of`)."""
        return action if action < self.jl else self.v.card_of(action)

    def key(self, c: int) -> int:
        """The card's power in the current trick (0 when it neither follows nor trumps)."""
        t = self.t
        s = t.suit_of[c]
        v = self.v
        return t.power[c] if s == v.led or s == v.trumpish else 0

    def could_hold(self, seat: int, mask: int) -> int:
        """The cards of ``mask`` that ``seat`` may hold, as the mover knows."""
        v = self.v
        if v.faced[seat] and seat != self.mover:
            return mask & v.faced[seat]
        if seat == v.seat:
            return mask & v.hand
        possible = self.possible[seat]
        if possible < 0:
            # The unseen cards outside the suits ``seat`` has shown out of (once a decision).
            possible = self.out & ~self.t.voided[v.voids[seat]]
            self.possible[seat] = possible
        return mask & possible

    def holds(self, c: int, led: int) -> bool:
        """Whether ``c``, winning now, should still win after the seats still to play."""
        suit = self.t.suit_of[c]
        above = self.t.higher[c]
        friends, trump, voids, could_hold = self.friends, self.trump, self.v.voids, self.could_hold
        for s in self.after:
            if friends >> s & 1:
                continue
            higher = could_hold(s, above)
            if suit == trump and led != trump:
                higher &= self.trump_mask
                # An opponent who can follow the led suit cannot ruff over us.
                if not voids[s] >> led & 1:
                    continue
            if higher:
                return False
            # It may be ruffed by an opponent known void in the led suit holding trumps.
            if (
                suit != trump
                and trump >= 0
                and suit == led
                and voids[s] >> led & 1
                and could_hold(s, self.trump_mask)
            ):
                return False
        return True

    def is_boss(self, c: int) -> bool:
        return not self.t.higher[c] & self.out

    def low_card(self, cards: list[int]) -> int:
        """The card of least value: not a trump, not a winner, from a short suit, lowest."""
        if len(cards) == 1:
            return cards[0]
        t = self.t
        suit_of, power, masks, higher, span = t.suit_of, t.power, t.masks, t.higher, t.span
        trump, hand, out, card, jl = self.trump, self.hand, self.out, self.card, self.jl

        room = len(suit_of) + 1  # more than a suit's length

        def value(a: int) -> int:
            # (is a trump, is the boss, power, length in its suit), compared in that order,
            # packed in one int: a power is below ``span``, a length below ``room``.
            c = a if a < jl else card(a)
            suit = suit_of[c]
            is_trump = suit in (trump, SUITLESS)
            is_boss = not higher[c] & out
            length = (hand & masks[suit]).bit_count()
            return ((2 * is_trump + is_boss) * span + power[c]) * room + length

        return min(cards, key=value)

    def cheapest(self, cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        power, card, jl = self.t.power, self.card, self.jl
        return min(cards, key=lambda a: power[a if a < jl else card(a)])

    def highest(self, cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        power, card, jl = self.t.power, self.card, self.jl
        return max(cards, key=lambda a: power[a if a < jl else card(a)])

    # -- following --

    def follow(self, cards: list[int]) -> Decision:
        v = self.v
        led = v.led
        partner_wins = bool(self.friends >> v.best_seat & 1)
        # The cards that beat the best so far: self.key(self.card(a)) > v.best_key, written out.
        suit_of, power, jl, card = self.t.suit_of, self.t.power, self.jl, self.card
        trumpish, best = v.trumpish, v.best_key
        winners = []
        for a in cards:
            c = a if a < jl else card(a)
            s = suit_of[c]
            if (power[c] if s in (led, trumpish) else 0) > best:
                winners.append(a)
        follows = bool(self.hand & self.t.masks[led])
        if partner_wins:
            best_card = self.card(v.trick[(_seat_index(v, v.best_seat))])
            if not self.after or self.holds(best_card, led):
                why = N_("partner is winning the trick: play low")
                if self.coop_why and v.best_seat != self.mover:
                    why = Why(
                        N_("%(coop)s: the other defender is winning the trick, play low"),
                        coop=self.coop_why,
                    )
                return Decision(self.low_card(cards), why)
            sure = [a for a in winners if self.holds(self.card(a), led)]
            if sure:
                return Decision(
                    self.cheapest(sure), N_("partner's card may be beaten: win it surely")
                )
            return Decision(self.low_card(cards), N_("partner is winning for now: play low"))
        rival_wins = bool(self.rival_why) and not (v.allies >> v.best_seat & 1)
        if not winners:
            why = N_("cannot win the trick: play the least useful card")
            if not follows:
                why = N_("cannot win and void in the suit led: discard the least useful card")
            return Decision(self.low_card(cards), why)
        if not self.after:
            why = N_("last to play: win as cheaply as possible")
            if rival_wins:
                why = Why(N_("%(rival)s: %(why)s"), rival=self.rival_why, why=why)
            return Decision(self.cheapest(winners), why)
        sure = [a for a in winners if self.holds(self.card(a), led)]
        if sure:
            why = N_("win cheaply with a card that should hold")
            if rival_wins:
                why = Why(N_("%(rival)s: %(why)s"), rival=self.rival_why, why=why)
            if not follows:
                why = N_("void in the suit led: ruff with the cheapest trump that should hold")
            return Decision(self.cheapest(sure), why)
        friend_after = any(self.friends >> s & 1 for s in self.after)
        if friend_after and follows:
            return Decision(self.low_card(cards), N_("second hand low: partner plays after"))
        if not follows:
            return Decision(self.cheapest(winners), N_("void in the suit led: ruff"))
        return Decision(self.highest(winners), N_("third hand high: make the opponents pay"))

    def follow_misere(self, cards: list[int]) -> Decision:
        v = self.v
        t = self.t
        contractor_side = bool(v.allies >> self.mover & 1)
        under = [a for a in cards if self.key(self.card(a)) < v.best_key]
        if contractor_side:
            # Under the winning card, even our own (both hands played): every trick counts.
            if under:
                return Decision(
                    max(under, key=lambda a: t.power[self.card(a)]),
                    N_(
                        "misère: duck under the winning card with the highest card that still loses"
                    ),
                )
            if not self.hand & t.masks[v.led]:
                return Decision(
                    self.highest(cards), N_("misère: void, shed the most dangerous card")
                )
            return Decision(self.highest(cards), N_("misère: cannot duck; play the highest"))
        contractor_played = any(v.allies >> s & 1 for s in _seats_played(v))
        contractor_winning = bool(v.allies >> v.best_seat & 1)
        follows = bool(self.hand & t.masks[v.led])
        plain = [a for a in cards if t.suit_of[self.card(a)] != SUITLESS] or cards
        if not follows:
            if contractor_winning or not contractor_played:
                # Keep the joker: it would take the trick the contractor must win.
                return Decision(
                    self.highest(plain),
                    N_("against misère: void, shed a high card (not the joker), keep low ones"),
                )
            return Decision(
                self.highest(plain),
                N_("against misère: the bidder is beaten here; shed a high card"),
            )
        if contractor_played and contractor_winning:
            if under:
                return Decision(
                    max(under, key=lambda a: t.power[self.card(a)]),
                    N_("against misère: stay under the contractor's winning card"),
                )
            return Decision(
                self.highest(cards),
                N_("against misère: cannot get under the bidder; shed my highest card"),
            )
        if contractor_played:
            return Decision(
                self.highest(cards),
                N_("against misère: the bidder is beaten in this trick; shed my highest card"),
            )
        return Decision(
            self.cheapest(cards), N_("against misère: play low to leave the contractor no room")
        )

    # -- leading --

    def lead(self, cards: list[int]) -> Decision:
        v = self.v
        t = self.t
        r = self.r
        hand = self.hand
        on_contract_side = v.contract >= 0 and bool(v.allies >> self.mover & 1)
        opponents = [
            s for s in range(r.players) if not self.friends >> s & 1 and not v.sitting_out >> s & 1
        ]
        plain = [a for a in cards if a < r.JOKER_LEAD]
        joker_leads = [a for a in cards if a >= r.JOKER_LEAD]
        if self.trump >= 0:
            trumps = [a for a in plain if t.suit_of[a] == self.trump]
            opp_trumps = any(self.could_hold(s, self.trump_mask) for s in opponents)
            if on_contract_side and trumps and opp_trumps:
                top = self.highest(trumps)
                if self.is_boss(top):
                    return Decision(top, N_("draw trumps with the top trump"))
                if (
                    len(trumps) * 1.0
                    >= (self.trump_mask & self.out).bit_count() / max(1, len(opponents)) + 1
                ):
                    return Decision(self.cheapest(trumps), N_("draw trumps: lead a low one"))
        bosses = []
        ruffed: dict[int, bool] = {}  # by suit: whether an opponent would ruff it
        higher, out = t.higher, self.out
        for a in plain:
            suit = t.suit_of[a]
            if suit == self.trump or higher[a] & out:  # a trump, or not the boss (is_boss)
                continue
            if self.trump >= 0:
                ruff = ruffed.get(suit)
                if ruff is None:
                    ruff = ruffed[suit] = any(
                        v.voids[s] >> suit & 1 and self.could_hold(s, self.trump_mask)
                        for s in opponents
                    )
                if ruff:
                    continue  # an opponent would ruff it
            bosses.append(a)
        if bosses:
            best = max(
                bosses, key=lambda a: ((hand & t.masks[t.suit_of[a]]).bit_count(), t.power[a])
            )
            return Decision(best, N_("cash a winner"))
        if joker_leads and (on_contract_side or v.contract < 0):
            name = max(
                joker_leads, key=lambda a: (hand & t.masks[(a - r.JOKER_LEAD) % 4]).bit_count()
            )
            return Decision(name, N_("lead the joker, naming our longest suit"))
        if not on_contract_side and self.trump >= 0:
            # Lead a suit partner has shown out of, for partner to ruff.
            for s in range(r.players):
                if s == self.mover or not self.friends >> s & 1 or v.sitting_out >> s & 1:
                    continue
                for a in plain:
                    suit = t.suit_of[a]
                    if (
                        suit != self.trump
                        and v.voids[s] >> suit & 1
                        and not v.voids[s] >> self.trump & 1
                    ):
                        return Decision(
                            self.cheapest([b for b in plain if t.suit_of[b] == suit]),
                            N_("lead the suit partner is void in, for a ruff"),
                        )
        side = [a for a in plain if t.suit_of[a] != self.trump] or plain or cards
        if self.trump >= 0 and not on_contract_side:
            # A singleton may give us a ruff later.
            singles = [
                a
                for a in side
                if (hand & t.masks[t.suit_of[a]]).bit_count() == 1 and hand & self.trump_mask
            ]
            if singles:
                return Decision(
                    self.cheapest(singles), N_("lead a singleton, to ruff the suit later")
                )
        through = self.lead_through(side) if self.coop_why else None
        if through is not None:
            return through
        longest = max(side, key=lambda a: (hand & t.masks[t.suit_of[self.card(a)]]).bit_count())
        suit = t.suit_of[self.card(longest)]
        top = self.sequence_top(suit)
        if top >= 0 and top in side:
            return Decision(
                top, N_("lead the top of a sequence in the longest suit: it drives out a winner")
            )
        low = self.cheapest([a for a in side if t.suit_of[self.card(a)] == suit])
        return Decision(low, N_("lead low from the longest suit"))

    def sequence_top(self, suit: int) -> int:
        """The mover's top card in ``suit`` when the next is in sequence with it (no unseen
        card between them, as with king and queen once the ace is out), else -1: leading it
        costs nothing and forces out a higher card, where a low lead lets a low card win."""
        t = self.t
        if suit == SUITLESS:
            return -1
        mine = _desc(self.hand & t.masks[suit], t.power)
        if len(mine) < 2:
            return -1
        top, second = mine[0], mine[1]
        between = t.higher[second] & ~t.higher[top] & ~(1 << top)
        return -1 if between & self.out else top

    def lead_through(self, side: list[int]) -> Decision | None:
        """Defending when the contractor plays next and a fellow defender last: lead low in the
        side suit where the mover holds least (no honour to give away), one the contractor has
        not shown out of, so that the fellow defender plays over the contractor."""
        v = self.v
        t = self.t
        nxt = v.next_seat[self.mover]
        if not v.allies >> nxt & 1 or len(self.after) < 2:
            return None
        if not any(self.friends >> s & 1 for s in self.after[1:]):
            return None
        best: tuple[int, int] | None = None
        pick = -1
        for a in side:
            c = self.card(a)
            suit = t.suit_of[c]
            if suit == self.trump or suit == SUITLESS or v.voids[nxt] >> suit & 1:
                continue
            mine = self.hand & t.masks[suit]
            top = _desc(mine, t.power)[0]
            # Honours: cards with at most two higher cards still out.
            if (t.higher[top] & self.out).bit_count() <= 2:
                continue
            key = (t.power[top], mine.bit_count())
            if best is None or key < best:
                best = key
                pick = suit
        if pick < 0:
            return None
        low = self.cheapest([a for a in side if t.suit_of[self.card(a)] == pick])
        return Decision(
            low,
            Why(
                N_("%(coop)s: lead through the contractor, low in my weakest suit"),
                coop=self.coop_why,
            ),
        )

    def lead_misere(self, cards: list[int]) -> Decision:
        v = self.v
        t = self.t
        r = self.r
        plain = [a for a in cards if a < r.JOKER_LEAD] or cards
        contractor_side = bool(v.allies >> self.mover & 1)
        opponents = [
            s for s in range(r.players) if not self.friends >> s & 1 and not v.sitting_out >> s & 1
        ]
        if contractor_side:

            def risk(a: int) -> tuple[int, int]:
                c = self.card(a)
                below = sum((self.could_hold(s, t.lower[c])).bit_count() for s in opponents)
                above = sum((self.could_hold(s, t.higher[c])).bit_count() for s in opponents)
                return (0 if above else 1, below - above)

            best = min(plain, key=risk)
            return Decision(best, N_("misère: lead the card the opponents can most easily beat"))
        contractor = [
            s for s in range(r.players) if v.allies >> s & 1 and not v.sitting_out >> s & 1
        ]

        def pressure(a: int) -> tuple[int, int]:
            c = self.card(a)
            suit = t.suit_of[c]
            # The face-up hand (open misère) and the voids shown say what the bidder can hold.
            open_suit = any(self.could_hold(s, t.masks[suit]) for s in contractor)
            under = sum(self.could_hold(s, t.lower[c]).bit_count() for s in contractor)
            return (0 if open_suit else 1, under * 100 + t.power[c])

        best = min(plain, key=pressure)
        c = self.card(best)
        suit = t.suit_of[c]
        seen = [s for s in contractor if v.faced[s]]
        if not any(self.could_hold(s, t.masks[suit]) for s in contractor):
            return Decision(best, N_("against misère: the bidder holds none of my suits; lead low"))
        if seen and not any(self.could_hold(s, t.lower[c]) for s in contractor):
            return Decision(
                best,
                N_(
                    "against open misère: the face-up hand has only higher cards in this suit: "
                    "the bidder must win it"
                ),
            )
        if seen:
            return Decision(
                best, N_("against open misère: lead low in a suit the face-up hand holds")
            )
        return Decision(best, N_("against misère: lead low in a suit the contractor holds"))


_SIDE_SEATS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def _side_seats(r: Rules) -> tuple[int, ...]:
    """By side: its seats as a bitmask (remembered per rules object)."""
    hit = _SIDE_SEATS.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_SIDE_SEATS) > 64:
            _SIDE_SEATS.clear()
        masks = [0] * r.n_sides
        for s in range(r.players):
            masks[r.side_of_seat[s]] |= 1 << s
        hit = _SIDE_SEATS[id(r)] = (r, tuple(masks))
    return hit[1]


def _seat_index(view: SeatView, seat: int) -> int:
    """Where ``seat`` played in the current trick."""
    s = view.trick_leader
    for i in range(len(view.trick)):
        if s == seat:
            return i
        s = view.next_seat[s]
    return 0


def _seats_played(view: SeatView) -> list[int]:
    out = []
    s = view.trick_leader
    for _ in view.trick:
        out.append(s)
        s = view.next_seat[s]
    return out
