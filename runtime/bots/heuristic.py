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
    opponents' bids move it. It bids the strain that gains most at its cheapest level whose
    chance reaches :data:`NEED` (moved by the score), no trumps only with the suits stopped,
    raises partner's suit or its own bid only when that gains, and bids misère from the model's
    chance for the hand's danger score (:func:`misere_score`).
Kitty
    It keeps trumps and winners and drops whole short side suits (to ruff them), or at misère
    its most dangerous cards; it plays sans kitty when the bonus outweighs the kitty's tricks.
Play
    Second hand low, third hand high, win as cheaply as will hold, never overtake a partner who
    is winning, draw trumps as contractor with the top ones, cash winners, ruff when void, lead
    partner's voids as defender; at misère the contractor ducks under and sheds high cards while
    the defenders lead low into what the bidder holds (the face-up hand at open misère), keep the
    trick low for him and shed high cards once he is beaten. Defenders who score apart cover a
    fellow defender about to win the game, and play for their own tricks once the contract is
    settled.

Every decision comes with a short reason (``fivehundred play``'s ``hint``), English as a
string and translatable: a message marked ``N_`` or a :class:`~.reasons.Why` with parameters
(the table's suggestions show it in the player's language).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from ..engine.codes import NT, SUITLESS, SUITS, bits
from ..engine.hand import AUCTION, DISCARD, KITTY, PARTNER, PLAY, HandState
from ..engine.messages import N_, SUIT_WORDS
from ..engine.rules import Rules
from ..engine.seatview import SeatView, view_of
from .handmodel import HandModel, hand_model, normal_at_least
from .reasons import Why
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
]


@dataclass(frozen=True, slots=True)
class Decision:
    """An action and why it was chosen."""

    action: int
    reason: str


# -- tables derived once per rules ---------------------------------------------------------------


class _StrainTables:
    """Per (suit_of, power) pair: for every card the mask of higher cards of its effective suit."""

    __slots__ = ("bottom", "higher", "lower", "masks", "power", "suit_of")

    def __init__(
        self, suit_of: tuple[int, ...], power: tuple[int, ...], masks: tuple[int, ...]
    ) -> None:
        n = len(suit_of)
        self.suit_of = suit_of
        self.power = power
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


_TABLES: dict[tuple[tuple[int, ...], tuple[int, ...]], _StrainTables] = {}


def _tables(
    suit_of: tuple[int, ...], power: tuple[int, ...], masks: tuple[int, ...]
) -> _StrainTables:
    """The tables of one card order; ``masks`` are the effective suits of ``suit_of`` (the
    ruleset's ``suit_masks``, or the hand's once a joker is nominated), so they are no part of
    the key."""
    key = (suit_of, power)
    t = _TABLES.get(key)
    if t is None:
        if len(_TABLES) > 512:
            _TABLES.clear()
        t = _TABLES[key] = _StrainTables(suit_of, power, masks)
    return t


def _strain_tables(rules: Rules, strain: int) -> _StrainTables:
    return _tables(rules.suit_of[strain], rules.power[strain], rules.masks[strain])


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
    """Tricks ``hand`` should take on its own with ``strain`` as trumps (NT: no trumps)."""
    t = _strain_tables(rules, strain)
    live = _live_share(rules)
    opponents = max(1, rules.players - 1)
    tricks = 0.0
    if strain < NT:
        trump_mask = t.masks[strain]
        trumps = hand & trump_mask
        n_trumps = trumps.bit_count()
        held = 0
        missing = 0.0
        for c in _desc(trump_mask, t.power):
            if hand >> c & 1:
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
        tricks += max(0.0, n_trumps - 1 - outside / opponents) * 0.3
        spare = max(0, n_trumps - 2)
        side_suits = [s for s in range(4) if s != strain]
    else:
        spare = 0
        side_suits = [0, 1, 2, 3]
        tricks += (hand & t.masks[SUITLESS]).bit_count()  # a joker of its own at no trumps
        stoppers = 0
    for s in side_suits:
        suit_mask = t.masks[s]
        mine = hand & suit_mask
        length = mine.bit_count()
        if strain < NT:
            if length == 0:
                ruffs = min(spare, 2)
                tricks += 0.8 * ruffs
                spare -= ruffs
            elif length == 1:
                ruffs = min(spare, 1)
                tricks += 0.5 * ruffs
                spare -= ruffs
        held = 0
        missing = 0.0
        for c in _desc(suit_mask, t.power):
            if held >= length:
                break
            if hand >> c & 1:
                if missing < 0.5:
                    # A winner: at a trump contract the third round is likely ruffed.
                    tricks += 1.0 if strain == NT or held < 2 else 0.4
                    if strain == NT and held == 0:
                        stoppers += 1
                elif missing < 1.5 and held == 0 and length >= 2:
                    tricks += 0.4
                    if strain == NT:
                        stoppers += 1
                elif missing < 2.5 and held <= 1 and length >= 3 and strain == NT:
                    tricks += 0.2
                held += 1
            else:
                missing += live
        if strain == NT and length >= 5 and mine & ~t.lower[_desc(suit_mask, t.power)[1]]:
            tricks += (length - 4) * 0.7  # a long suit with a top card runs
    if strain == NT:
        tricks -= 0.6 * max(0, 3 - stoppers)
    # The counts above overrate strong hands (winners and ruffs overlap): shrink the excess.
    base = 0.5 * rules.hand_size
    if tricks > base:
        tricks = base + (tricks - base) * 0.6
    return tricks


def misere_danger(rules: Rules, hand: int, opponents: int) -> list[tuple[float, int]]:
    """The cards of ``hand`` that may win a trick at misère, as (danger, card), worst first.

    A card is in danger when too few cards of its suit rank below it for the opponents to play
    under it on every round of the suit; jokers (which always win) are the worst.
    """
    t = _strain_tables(rules, NT)
    out: list[tuple[float, int]] = []
    for c in bits(hand & t.masks[SUITLESS]):
        out.append((100.0, c))
    for s in range(4):
        mine = sorted(bits(hand & t.masks[s]), key=lambda c: t.power[c])
        for i, c in enumerate(mine):
            # The opponents hold ``below`` cards under the i-th lowest card; leading the suit
            # they play about ``opponents`` of them a round: more than i rounds' worth catch it.
            below = t.bottom[c] - i
            danger = below / max(1, opponents) - i - 0.5
            if danger > 0:
                out.append((danger, c))
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
        state = hand_state(state)
        mover = state.to_move
        seat = state.controller(mover)
        if state.phase == DISCARD:
            return _discard(view_of(state, seat), state)
        legal = state.legal_actions()  # from the mover's own cards and public facts only
        if len(legal) == 1:
            return Decision(legal[0], N_("the only legal action"))
        view = view_of(state, seat)
        if state.phase == AUCTION:
            odds = bid_odds(view, self.boldness)
            return choose_bid(view, legal, _judge_of(odds, view.rules), odds)
        if state.phase == KITTY:
            return _take_or_sans(view, self.fitted)
        if state.phase == PARTNER:
            return _partner(view, legal)
        if state.phase == PLAY:
            return _play(view, mover, legal)
        return Decision(legal[0], N_("the first legal action"))


# -- auction -------------------------------------------------------------------------------------


def _team_of(rules: Rules, seat: int) -> int:
    """The seats known at the auction to be on ``seat``'s side (a bitmask)."""
    if rules.partner_call != "none":
        return 1 << seat
    return sum(1 << s for s in rules.teams[rules.side_of_seat[seat]])


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


def misere_score(rules: Rules, hand: int) -> float:
    """How dangerous ``hand`` is at misère: the danger of its cards (:func:`misere_danger`)
    left once the kitty's discard has dropped the worst ones."""
    drops = rules.discard_count if rules.kitty_take else 0
    danger = misere_danger(rules, hand, _active_opponents_misere(rules))
    return sum(min(d, 3.0) for d, _ in danger[drops:])


def _fitting_player(rules: Rules) -> Callable[[HandState], int]:
    bot = HeuristicBot(fitted=False)

    def play(state: HandState) -> int:
        if state.phase == KITTY:
            return rules.TAKE
        return bot.decide(state).action

    return play


def bid_model(rules: Rules) -> HandModel:
    """The heuristic's model of what contracts make in ``rules`` (fitted once, by self-play)."""
    return hand_model(rules, hand_tricks, misere_score, _fitting_player(rules))


@dataclass(frozen=True, slots=True)
class BidOdds:
    """The chance of making each ladder entry, as the seat to bid sees it."""

    #: By ladder index: the chance of making it (None: not a bid this hand would consider).
    chance: tuple[float | None, ...]
    #: By ladder index: what the chance rests on, in words.
    basis: tuple[str, ...]
    #: The chance the bot asks before bidding (the score moves it from :data:`NEED`).
    need: float
    #: Why ``need`` moved, or "".
    need_why: str


def _side_score(view: SeatView, seat: int) -> int:
    return view.scores[view.rules.side_of_seat[seat]]


def _need(view: SeatView) -> tuple[float, str]:
    """The chance to ask for: lower when the opponents are about to go out (defend by bidding),
    higher when failing would put us out backwards."""
    r = view.rules
    mine = r.side_of_seat[view.seat]
    others = [sc for side, sc in enumerate(view.scores) if side != mine]
    cheapest = min(
        (v for v, k in zip(r.bid_value, r.bid_kind, strict=True) if k == "suit"), default=0
    )
    if others and max(others) >= r.target - 2 * max(cheapest, 10 * r.hand_size // 2):
        return NEED - 0.12, N_("the opponents are near the target: bid to keep them out")
    if r.lose_at is not None and view.scores[mine] - 2 * cheapest <= r.lose_at:
        return NEED + 0.1, N_("near the losing score: bid only a safe contract")
    return NEED, ""


def bid_odds(view: SeatView, boldness: float = 0.0) -> BidOdds:
    """The chance of making every ladder entry from this seat's hand and the calls so far.

    Suit and no-trump bids: the fitted model (:func:`bid_model`) of the hand's count plus the
    partners' (the count a partner's bid in the strain shows, else an average partner's), less
    what the opponents' bids show; no trumps only with every suit stopped, or one open and the
    joker held. Misère bids: the model's chance for the hand's danger score, a partner who plays
    along counting against it when he has bid.
    """
    r = view.rules
    model = bid_model(r)
    hand = view.hand
    own = _counts(r, hand)
    team = _team_of(r, view.seat)
    n_mates = max(0, team.bit_count() - 1)
    per_mate = model.suit.partners_mean / n_mates if n_mates else 0.0
    shown: dict[int, int] = {}
    mate_bid = False
    opp_bids = 0
    opp_seats = 0
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
            opp_seats |= 1 << s
    need, need_why = _need(view)
    unstopped = _unstopped(r, hand)
    has_joker = bool(hand & _strain_tables(r, NT).masks[SUITLESS])
    score = misere_score(r, hand)
    chance: list[float | None] = []
    basis: list[str] = []
    for i in range(r.n_bids):
        kind = r.bid_kind[i]
        if kind == "misere":
            mfit = model.misere.get(i)
            if mfit is None:
                chance.append(None)
                basis.append("")
                continue
            if r.bid_blind[i]:
                chance.append(None)  # judged from the score alone: see _blind_misere
                basis.append("")
                continue
            p = mfit.chance(score)
            if r.bid_partner[i] != "sits-out" and n_mates and mate_bid:
                p *= 0.3  # partner plays along and has shown high cards
            chance.append(p)
            basis.append(
                Why(
                    N_("a misère hand (danger %(danger)s): about %(chance)s to take no trick"),
                    danger=f"{score:.1f}",
                    chance=f"{p:.0%}",
                )
            )
            continue
        strain, level = r.bid_strain[i], r.bid_level[i]
        fit = model.nt if strain == NT else model.suit
        mates: float | None = None
        why_mates: str = (
            N_("with an average partner") if n_mates else N_("alone against the others")
        )
        if strain in shown:
            lp = shown[strain]
            # The count a partner's bid at ``lp`` shows: enough to make it with us average.
            z = 0.13  # the normal quantile of about NEED
            need_own = (lp - 0.5 + z * fit.sd - fit.a - fit.c * fit.partners_mean) / fit.b
            mates = (need_own + 0.5) + per_mate * (n_mates - 1)
            why_mates = Why(N_("with partner's %(level)s shown"), level=lp)
        mean = fit.mean(own[strain], mates)
        if strain in shown and mates is not None:
            # The same pair seen from partner's side: partner's count as the bidder's.
            alt = (
                fit.a
                + fit.b * (mates - per_mate * (n_mates - 1))
                + fit.c * (own[strain] + per_mate * (n_mates - 1))
            )
            mean = max(mean, alt)
        mean += boldness - 0.3 * opp_bids
        if strain == NT and (unstopped > 1 or (unstopped == 1 and not has_joker)):
            chance.append(None)
            basis.append("")
            continue
        p = normal_at_least(mean, fit.sd, level)
        name = SUIT_WORDS[SUITS[strain]] if strain < NT else N_("no trumps")
        chance.append(p)
        basis.append(
            Why(
                N_("about %(tricks)s tricks at %(strain)s %(mates)s: %(chance)s to make %(level)s"),
                tricks=f"{mean:.1f}",
                strain=name,
                mates=why_mates,
                chance=f"{p:.0%}",
                level=level,
            )
        )
    return BidOdds(tuple(chance), tuple(basis), need, need_why)


_COUNTS: dict[tuple[int, int], tuple[Rules, list[float]]] = {}


def _counts(rules: Rules, hand: int) -> list[float]:
    """:func:`hand_tricks` of ``hand`` at every strain (remembered through the auction)."""
    hit = _COUNTS.get((id(rules), hand))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_COUNTS) > 256:
        _COUNTS.clear()
    own = [hand_tricks(rules, hand, s) for s in range(5)]
    _COUNTS[(id(rules), hand)] = (rules, own)
    return own


def _unstopped(rules: Rules, hand: int) -> int:
    """Suits of ``hand`` with no stopper at no trumps (no ace, no guarded king, ...)."""
    t = _strain_tables(rules, NT)
    out = 0
    for s in range(4):
        mine = hand & t.masks[s]
        n = mine.bit_count()
        top = _desc(t.masks[s], t.power)
        stopped = False
        for rank, c in enumerate(top[:4]):
            if mine >> c & 1 and n > rank:
                stopped = True
                break
        out += not stopped
    return out


def heuristic_judge(view: SeatView, boldness: float = 0.0) -> BidJudge:
    """The heuristic bot's judge of bids (:func:`bid_odds`): a bid is acceptable when its chance
    reaches the need; ``strict`` asks for about a trick more."""
    return _judge_of(bid_odds(view, boldness), view.rules)


def _judge_of(odds: BidOdds, r: Rules) -> BidJudge:
    def judge(i: int, strict: bool) -> str | None:
        p = odds.chance[i]
        if p is None:
            return None
        if strict and r.bid_kind[i] != "misere":
            p = _next_chance(odds, r, i)
        return odds.basis[i] if p >= odds.need else None

    return judge


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
    mine = r.side_of_seat[view.seat]
    others = [sc for side, sc in enumerate(view.scores) if side != mine]
    cheapest = min(
        (v for v, k in zip(r.bid_value, r.bid_kind, strict=True) if k == "suit"), default=0
    )
    for a in legal:
        if a <= r.PASS or not r.bid_blind[a - r.BID]:
            continue
        i = a - r.BID
        if (
            others
            and max(others) >= r.target - cheapest
            and view.scores[mine] + r.bid_value[i] >= r.target
            and view.scores[mine] <= max(others) - 300
            and (r.lose_at is None or view.scores[mine] - r.bid_value[i] > r.lose_at)
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
    """
    r = view.rules
    team = _team_of(r, view.seat)
    partner_high = (
        view.high >= 0 and view.high_seat != view.seat and bool(team >> view.high_seat & 1)
    )
    if odds is not None and _first_call(view):
        blind = _blind_misere(view, legal)
        if blind is not None:
            return blind
    candidates: list[tuple[int, str]] = []
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
        return _choose_by_gain(view, legal, candidates, odds, partner_high)
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
    return all(s != view.seat for s, _ in view.calls)


def _group(r: Rules, i: int) -> int:
    """Bids compared together: one group per strain, one per misère bid."""
    return r.bid_strain[i] if r.bid_kind[i] == "suit" else 5 + i


def _choose_by_gain(
    view: SeatView,
    legal: list[int],
    candidates: list[tuple[int, str]],
    odds: BidOdds,
    partner_high: bool,
) -> Decision:
    r = view.rules

    def noted(why: str) -> str:
        return Why(N_("%(why)s (%(need)s)"), why=why, need=odds.need_why) if odds.need_why else why

    chance = odds.chance
    mine = r.side_of_seat[view.seat]
    if view.high >= 0 and view.high_seat == view.seat:
        # Raising one's own bid: only for more than the bid held is worth.
        held = chance[view.high]
        keep = _gain(r, view.high, held) if held is not None else 0.0
        better = [
            (a, why)
            for a, why in candidates
            if _group(r, a - r.BID) == _group(r, view.high)
            and _gain(r, a - r.BID, chance[a - r.BID] or 0.0) > keep + 10
        ]
        if not better:
            return Decision(r.PASS, N_("keep the bid: a raise would risk more than it adds"))
        a, why = max(better, key=lambda c: _gain(r, c[0] - r.BID, chance[c[0] - r.BID] or 0.0))
        return Decision(a, Why(N_("raise my own bid: %(why)s"), why=why))
    if partner_high:
        strain = r.bid_strain[view.high]
        held = chance[view.high]
        keep = _gain(r, view.high, held) if held is not None else 0.0
        raise_ = [
            (a, why)
            for a, why in candidates
            if r.bid_kind[a - r.BID] == "suit"
            and r.bid_strain[a - r.BID] == strain
            and r.bid_kind[view.high] == "suit"
            and _gain(r, a - r.BID, chance[a - r.BID] or 0.0) > keep + 10
            and (chance[a - r.BID] or 0.0) >= odds.need + 0.1
        ]
        if not raise_:
            return Decision(r.PASS, N_("partner holds the bid and the pair reaches no higher"))
        a, why = max(raise_, key=lambda c: _gain(r, c[0] - r.BID, chance[c[0] - r.BID] or 0.0))
        if r.procedure != "single-round":
            # Rounds: raise to the cheapest level above partner's that still gains.
            a, why = min(raise_)
        return Decision(a, Why(N_("raise partner's suit: %(why)s"), why=why))
    if not candidates:
        return Decision(r.PASS, noted(N_("the hand is not worth a higher bid")))

    def gain(c: tuple[int, str]) -> float:
        i = c[0] - r.BID
        g = _gain(r, i, chance[i] or 0.0)
        if view.scores[mine] + r.bid_value[i] >= r.target:
            g += 50.0 * (chance[i] or 0.0)  # making it wins the game
        return g

    best = max(candidates, key=gain)
    group = _group(r, best[0] - r.BID)
    if r.procedure == "single-round":
        # One call: enough to win the game if that is in reach, else the best gain.
        winning = [
            c
            for c in candidates
            if view.scores[mine] + r.bid_value[c[0] - r.BID] >= r.target
            and r.bid_kind[c[0] - r.BID] == "suit"
        ]
        if winning:
            pick = max(winning, key=lambda c: (chance[c[0] - r.BID] or 0.0, -c[0]))
            return Decision(
                pick[0],
                noted(Why(N_("one call: just enough to win the game; %(why)s"), why=pick[1])),
            )
        return Decision(
            best[0], noted(Why(N_("one call: the bid that gains most; %(why)s"), why=best[1]))
        )
    same = [c for c in candidates if _group(r, c[0] - r.BID) == group]
    pick = min(same)
    return Decision(pick[0], noted(pick[1]))


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
    if not fitted:
        return Decision(r.TAKE, N_("take the kitty to improve the hand"))
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
                    "%(sans)s to make it without the kitty (%(take)s with it): "
                    "play sans for the bonus"
                ),
                sans=f"{p_sans:.0%}",
                take=f"{p_take:.0%}",
            ),
        )
    return Decision(
        r.TAKE,
        Why(
            N_("take the kitty: %(take)s with it, %(sans)s without"),
            take=f"{p_take:.0%}",
            sans=f"{p_sans:.0%}",
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
    why: as many cards as are still to be discarded."""
    return discard_options(view, hand)[0]


def discard_options(view: SeatView, hand: int | None = None) -> list[tuple[int, str]]:
    """Sets of cards worth considering for the discard, the heuristic's choice first.

    At a trump contract: void the shortest side suits without a winner (to ruff them), else
    drop the lowest cards; the alternatives void each short side suit in turn, or none. At no
    trumps: the lowest cards of the short suits. At misère: the most dangerous cards.
    """
    r = view.rules
    hand = view.hand if hand is None else hand
    count = max(1, min(r.discard_count, hand.bit_count() - r.hand_size))
    strain = view.strain if view.contract >= 0 else NT
    if view.misere:
        danger = misere_danger(r, hand, _active_opponents_misere(r))
        drop = [c for _, c in danger][:count]
        if len(drop) < count:
            t = _strain_tables(r, NT)
            rest = sorted(bits(hand & ~sum(1 << c for c in drop)), key=lambda c: -t.bottom[c])
            drop += rest[: count - len(drop)]
        return [
            (sum(1 << c for c in drop), N_("misère: drop the cards most likely to win a trick"))
        ]
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

    options: list[tuple[int, str]] = []
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
            options.append((fill(voids), why))
        options.append((fill(0), N_("keep trumps and winners, drop low cards")))
        for s in side:
            cards = hand & t.masks[s]
            if 0 < cards.bit_count() <= count:
                options.append(
                    (fill(cards), Why(N_("void %(suit)s to ruff it"), suit=SUIT_WORDS[SUITS[s]]))
                )
    else:
        options.append((fill(0), N_("keep winners and long suits, drop low cards of short suits")))
    seen: set[int] = set()
    unique = []
    for mask, why in options:
        if mask not in seen:
            seen.add(mask)
            unique.append((mask, why))
    return unique


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

    def __init__(self, view: SeatView, t: _StrainTables, mover: int, hand: int) -> None:
        self.v = view
        self.r = view.rules
        self.t = t
        self.mover = mover
        self.hand = hand
        # Cards the mover cannot see: the others may hold them.
        self.out = ((1 << self.r.n_cards) - 1) & ~(view.played | hand)
        if view.contract >= 0:
            on_side = view.allies >> mover & 1
            if on_side:
                self.friends = view.allies
            else:
                self.friends = ((1 << self.r.players) - 1) & ~view.allies
        else:
            self.friends = sum(1 << s for s in self.r.teams[self.r.side_of_seat[mover]])
        #: Why a fellow defender is played against, not with ("" when none is).
        self.rival_why = ""
        if view.contract >= 0 and not view.allies >> mover & 1 and not view.misere:
            self._rivals()
        self.trump = view.trumpish if view.trumpish < SUITLESS else -1
        self.trump_mask = t.masks[self.trump] if self.trump >= 0 else 0
        # The seats still to play to this trick after the mover, in order.
        after = []
        s = view.next_seat[mover]
        for _ in range(view.n_active - len(view.trick) - 1):
            after.append(s)
            s = view.next_seat[s]
        self.after = after

    def _rivals(self) -> None:
        """Defenders who score apart are partners only while the contract is in doubt: once it
        is made or beaten, or when a fellow defender's tricks would win him the game, he is
        covered like any opponent."""
        v = self.v
        r = self.r
        if r.pool_opponents or not r.opponents_per_trick:
            return
        mine = r.side_of_seat[self.mover]
        fellows = [
            s
            for s in bits(self.friends)
            if s != self.mover and r.side_of_seat[s] != mine and not v.sitting_out >> s & 1
        ]
        if not fellows:
            return
        taken = sum(w for s, w in enumerate(v.tricks_won) if v.allies >> s & 1)
        level = r.bid_level[v.contract]
        left = r.hand_size - v.n_tricks
        settled = taken >= level or taken + left < level
        for s in fellows:
            side = r.side_of_seat[s]
            won = sum(w for t, w in enumerate(v.tricks_won) if r.side_of_seat[t] == side)
            threat = (
                not r.must_bid_to_win
                and v.scores[side] + r.opponents_per_trick * (won + 1) >= r.target
            )
            if threat or settled:
                self.friends &= ~(1 << s)
                self.rival_why = (
                    N_("cover the defender about to win the game")
                    if threat
                    else N_("the contract is settled: every defender plays for his own tricks")
                )

    # -- small facts --

    def card(self, action: int) -> int:
        return self.v.card_of(action)

    def key(self, c: int) -> int:
        """The card's power in the current trick (0 when it neither follows nor trumps)."""
        s = self.t.suit_of[c]
        v = self.v
        return self.t.power[c] if s == v.led or s == v.trumpish else 0

    def could_hold(self, seat: int, mask: int) -> int:
        """The cards of ``mask`` that ``seat`` may hold, as the mover knows."""
        v = self.v
        if v.faced[seat] and seat != self.mover:
            return mask & v.faced[seat]
        if seat == v.seat:
            return mask & v.hand
        voids = v.voids[seat]
        for e in bits(voids):
            mask &= ~self.t.masks[e]
        return mask & self.out

    def holds(self, c: int, led: int) -> bool:
        """Whether ``c``, winning now, should still win after the seats still to play."""
        t = self.t
        suit = t.suit_of[c]
        for s in self.after:
            if self.friends >> s & 1:
                continue
            higher = self.could_hold(s, t.higher[c])
            if suit == self.trump and led != self.trump:
                higher &= self.trump_mask
                # An opponent who can follow the led suit cannot ruff over us.
                if not self.v.voids[s] >> led & 1:
                    continue
            if higher:
                return False
            # It may be ruffed by an opponent known void in the led suit holding trumps.
            if (
                suit != self.trump
                and self.trump >= 0
                and suit == led
                and self.v.voids[s] >> led & 1
                and self.could_hold(s, self.trump_mask)
            ):
                return False
        return True

    def is_boss(self, c: int) -> bool:
        return not self.t.higher[c] & self.out

    def low_card(self, cards: list[int]) -> int:
        """The card of least value: not a trump, not a winner, from a short suit, lowest."""
        t = self.t

        def value(a: int) -> tuple[int, int, int, int]:
            c = self.card(a)
            suit = t.suit_of[c]
            is_trump = suit == self.trump or suit == SUITLESS
            length = (self.hand & t.masks[suit]).bit_count()
            return (int(is_trump), int(self.is_boss(c)), t.power[c], length)

        return min(cards, key=value)

    def cheapest(self, cards: list[int]) -> int:
        return min(cards, key=lambda a: self.t.power[self.card(a)])

    def highest(self, cards: list[int]) -> int:
        return max(cards, key=lambda a: self.t.power[self.card(a)])

    # -- following --

    def follow(self, cards: list[int]) -> Decision:
        v = self.v
        led = v.led
        partner_wins = bool(self.friends >> v.best_seat & 1)
        winners = [a for a in cards if self.key(self.card(a)) > v.best_key]
        follows = bool(self.hand & self.t.masks[led])
        if partner_wins:
            best_card = self.card(v.trick[(_seat_index(v, v.best_seat))])
            if not self.after or self.holds(best_card, led):
                return Decision(self.low_card(cards), N_("partner is winning the trick: play low"))
            sure = [a for a in winners if self.holds(self.card(a), led)]
            if sure:
                return Decision(
                    self.cheapest(sure), N_("partner's card may be beaten: win it surely")
                )
            return Decision(self.low_card(cards), N_("partner is winning for now: play low"))
        if not winners:
            why = N_("cannot win the trick: play the least useful card")
            if not follows:
                why = N_("cannot win and void in the suit led: discard the least useful card")
            return Decision(self.low_card(cards), why)
        if not self.after:
            why = N_("last to play: win as cheaply as possible")
            if self.rival_why and v.contract >= 0 and not v.allies >> v.best_seat & 1:
                why = Why(N_("%(rival)s: %(why)s"), rival=self.rival_why, why=why)
            return Decision(self.cheapest(winners), why)
        sure = [a for a in winners if self.holds(self.card(a), led)]
        if sure:
            why = N_("win cheaply with a card that should hold")
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
        for a in plain:
            suit = t.suit_of[a]
            if suit == self.trump or not self.is_boss(a):
                continue
            if self.trump >= 0 and any(
                v.voids[s] >> suit & 1 and self.could_hold(s, self.trump_mask) for s in opponents
            ):
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
        longest = max(side, key=lambda a: (hand & t.masks[t.suit_of[self.card(a)]]).bit_count())
        suit = t.suit_of[self.card(longest)]
        low = self.cheapest([a for a in side if t.suit_of[self.card(a)] == suit])
        return Decision(low, N_("lead low from the longest suit"))

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
