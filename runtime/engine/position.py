"""A position from one seat's view: its cards, the actions it saw, what it knows of the kitty.

A bot test, a club's puzzle or a hand someone asks about knows one seat's cards and the public
history (the calls, the contract, the tricks so far), never the other hands. :func:`position`
builds a full :class:`HandState` from that alone: the cards the seat cannot see are dealt to the
other seats consistently with what they played and the suits they showed out of (the kitty of a
contractor the seat cannot see is discarded again unseen), and every action is replayed with
the engine's checks. A fair bot decides from :func:`~.seatview.view_of` of the seat, which reads
nothing of the invented cards, so its decision is the one the position alone gives.
"""

from __future__ import annotations

from random import Random

from .codes import bits
from .errors import ArgumentError, FiveHundredError
from .hand import AUCTION, DISCARD, PLAY, HandState, deal
from .notation import ENGLISH, Notation
from .rules import Rules
from .seatview import view_of

__all__ = ["position"]


def _mask(rules: Rules, codes: list[str], what: str, notation: Notation | None = None) -> int:
    mask = 0
    for code in codes:
        try:
            c = rules.card(notation.read(code) if notation and isinstance(code, str) else code)
        except FiveHundredError:
            c = -1
        if c < 0:
            raise ArgumentError(f"{what}: {code!r} is not a card of {rules.variant}")
        if mask >> c & 1:
            raise ArgumentError(f"{what}: {code!r} is named twice")
        mask |= 1 << c
    return mask


def position(
    rules: Rules,
    seat: int,
    hand: list[str],
    actions: list[str],
    *,
    dealer: int = 0,
    scores: list[int] | None = None,
    kitty: list[str] | None = None,
    shown: dict[int, list[str]] | None = None,
    seed: int = 0,
    notation: Notation | None = ENGLISH,
) -> HandState:
    """The hand as ``seat`` sees it now, the hidden cards dealt from ``seed``.

    ``hand``: the cards the seat holds now. ``actions``: the hand's actions so far as a game
    record writes them (``7H``, ``pass``, ``take``, ``JS``, ...), the first call by the seat
    left of ``dealer``; a discard the seat could not see is left out (it is made up), the
    seat's own as ``discard 4D 5C 6C``. ``kitty``: the kitty's cards, given when the seat took
    it. ``shown``: by seat, the cards now held by a hand laid face up (open misère). Raises
    :class:`ArgumentError` (or :class:`IllegalActionError` for an action the
    position cannot have had) with a sentence naming what does not fit. Cards and actions
    may be written in ``notation`` too (``J♥``, ``7♠``; :meth:`Rules.parse_actions`), a
    person's input; None reads the codes alone.
    """
    n = rules.players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ArgumentError(f"position: a seat is 0..{n - 1}, not {seat!r}")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise ArgumentError(f"position: a dealer is 0..{n - 1}, not {dealer!r}")
    held = _mask(rules, hand, "the seat's cards", notation)
    seen_kitty = _mask(rules, kitty or [], "the kitty", notation)
    # Pass 1: replay on any deal to learn who played which card and where discards go.
    probe = HandState(rules, dealer, *deal(rules, dealer, Random(seed)), scores)
    played = [0] * n
    own_discard = 0
    script: list[tuple[str, ...]] = []  # per step: the texts; ("*",) a made-up discard
    for text in actions:
        if probe.is_over:
            raise ArgumentError(f"position: the hand is over before {text!r}")
        if probe.phase == DISCARD and probe.contractor != seat:
            _fake_discard(probe)
            script.append(("*",))
        try:
            ids = rules.parse_actions(text, bidding=probe.phase == AUCTION, notation=notation)
        except FiveHundredError as exc:
            raise ArgumentError(f"position: {exc}") from None
        for a in ids:
            if probe.phase == PLAY and a < rules.PASS:
                mover = probe.to_move
                played[mover] |= 1 << _card_of(rules, a)
            elif probe.phase == DISCARD:
                own_discard |= 1 << (a - rules.DISCARD)
            probe.apply_fast(a)
        script.append((text,))
    if probe.phase == DISCARD and probe.contractor != seat:
        _fake_discard(probe)
        script.append(("*",))
    view = view_of(probe, seat)
    took = (
        probe.contract >= 0
        and probe.contractor == seat
        and bool(rules.kitty_take and rules.discard_count and not probe.sans)
        and probe.phase != AUCTION
    )
    if took and not seen_kitty:
        raise ArgumentError("position: the seat took the kitty: give the kitty's cards")
    if seen_kitty and not took:
        raise ArgumentError("position: only a contractor who took the kitty knows its cards")
    # Pass 2: the deal. The seat's own cards are known; the others get what they played and
    # unseen cards of suits they have not shown out of.
    everyone = 0
    for m in played:
        if everyone & m:
            raise ArgumentError("position: a card is played twice")
        everyone |= m
    if everyone & held or everyone & ~played[seat] & seen_kitty:
        raise ArgumentError("position: a card the seat holds (or saw in the kitty) was played")
    own = held | played[seat] | own_discard
    if took:
        own &= ~seen_kitty
    if own.bit_count() != rules.hand_size or own & seen_kitty:
        raise ArgumentError(
            f"position: the seat's cards, plays and discards make {own.bit_count()} cards, "
            f"not a hand of {rules.hand_size}"
        )
    faced = {}
    for t, codes in (shown or {}).items():
        if not isinstance(t, int) or not 0 <= t < n or t == seat:
            raise ArgumentError(f"position: a hand shown is another seat's, 0..{n - 1}, not {t!r}")
        faced[t] = _mask(rules, codes, f"seat {t}'s cards shown", notation)
        if faced[t] & (own | everyone | seen_kitty):
            raise ArgumentError(f"position: seat {t}'s cards shown are seen elsewhere too")
    pool = ((1 << rules.n_cards) - 1) & ~(own | everyone | seen_kitty)
    for m in faced.values():
        pool &= ~m
    rng = Random(seed)
    # A contractor never holds the card he called.
    barred = [0] * n
    if probe.contract >= 0:
        barred[probe.contractor] = probe.called_cards
    fixed = {t: played[t] | m for t, m in faced.items()}
    hands = _fill(rules, seat, own, played, view.voids, view.masks, barred, pool, rng, fixed)
    rest = bits(pool & ~sum(hands[t] & ~played[t] for t in range(n) if t != seat))
    for t, m in fixed.items():
        if m.bit_count() != rules.hand_size:
            raise ArgumentError(
                f"position: seat {t}'s cards shown and played make {m.bit_count()} cards, "
                f"not a hand of {rules.hand_size}"
            )
    rng.shuffle(rest)
    if took:
        kitty_mask = seen_kitty
    else:
        kitty_mask = sum(1 << c for c in rest[: rules.kitty])
        rest = rest[rules.kitty :]
    dead = sum(1 << c for c in rest[: rules.dead_hand])
    state = HandState(rules, dealer, hands, kitty_mask, dead, scores)
    # Pass 3: every action again, checked.
    for step in script:
        if step == ("*",):
            state.apply_str(rules.discard_str(state.kitty))
        else:
            state.apply_str(step[0], notation)
    if state.hands[seat] != held:
        raise ArgumentError("position: the seat's cards do not match the actions")
    return state


def _card_of(rules: Rules, action: int) -> int:
    if action < rules.JOKER_LEAD:
        return action
    return rules.joker_cards[(action - rules.JOKER_LEAD) // 4]


def _fake_discard(probe: HandState) -> None:
    """Discard on the probe as many of the contractor's cards as the rules ask (which ones
    does not matter there)."""
    for c in bits(probe.hands[probe.contractor])[: probe.rules.discard_count]:
        if probe.phase != DISCARD:
            break
        probe.apply_fast(probe.rules.DISCARD + c)


def _fill(
    rules: Rules,
    seat: int,
    own: int,
    played: list[int],
    voids: tuple[int, ...],
    masks: tuple[int, ...],
    barred: list[int],
    pool: int,
    rng: Random,
    fixed: dict[int, int],
) -> list[int]:
    """The dealt hands: the seat's, and every other seat's plays plus unseen cards outside the
    suits it showed out of (the most constrained seat first)."""
    n = rules.players
    order = sorted(
        (t for t in range(n) if t != seat and t not in fixed), key=lambda t: -(voids[t].bit_count())
    )
    for _ in range(50):
        cards = bits(pool)
        rng.shuffle(cards)
        hands = [0] * n
        hands[seat] = own
        for t, m in fixed.items():
            hands[t] = m
        ok = True
        for t in order:
            forbid = barred[t]
            for e in bits(voids[t]):
                forbid |= masks[e]
            need = rules.hand_size - played[t].bit_count()
            if need < 0:
                raise ArgumentError(f"position: seat {t} played more cards than a hand holds")
            got = 0
            rest = []
            for c in cards:
                if need and not forbid >> c & 1:
                    got |= 1 << c
                    need -= 1
                else:
                    rest.append(c)
            if need:
                ok = False
                break
            hands[t] = played[t] | got
            cards = rest
        if ok:
            return hands
    raise ArgumentError("position: no deal of the unseen cards fits the suits the seats showed")
