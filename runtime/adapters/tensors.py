"""Fixed-size tensors of what one seat knows: the observation and the information state.

Both are flat lists of floats whose length depends only on the variant (players, deck, ladder,
hand size), laid out as named sections (:class:`TensorLayout`); every value is 0 or 1 except
the few counts noted, which are scaled into 0..1. Seats are absolute (section ``seat`` says
whose view it is). Both are built from :func:`~fivehundred.runtime.engine.seatview.view_of` plus the
public facts of the state, so nothing in them depends on another seat's unplayed cards, a kitty
the seat never saw, or a partner it has not been told of (``tests/test_tensors.py`` checks it).

- The **observation tensor** is what the seat sees now: its cards, the auction summarised (who
  bid what, who passed, the high bid), the contract, the cards played by each seat, the trick on
  the table, known voids, hands face up, the kitty it saw as contractor and its discards.
- The **information-state tensor** is the observation followed by the history a perfect-recall
  player remembers: its cards as dealt, when each seat passed, and every trick card by card.

:func:`information_state_string` says the same as a short string (a few hundred characters):
the seat's view, the calls in order and every trick, equal for exactly the states the seat
cannot tell apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from ..engine.codes import bits
from ..engine.hand import OVER, PHASES, PLAY, HandState
from ..engine.rules import Rules
from ..engine.seatview import SeatView, view_of

__all__ = [
    "Section",
    "TensorLayout",
    "information_state_layout",
    "information_state_string",
    "information_state_tensor",
    "observation_layout",
    "observation_tensor",
]


@dataclass(frozen=True)
class Section:
    """One named block of a tensor: ``shape`` (row-major) starting at ``offset``."""

    name: str
    shape: tuple[int, ...]
    offset: int
    doc: str

    @property
    def size(self) -> int:
        """The number of floats in the block."""
        return prod(self.shape)


@dataclass(frozen=True)
class TensorLayout:
    """The sections of a tensor, in order; ``size`` floats in all."""

    sections: tuple[Section, ...]
    size: int
    by_name: dict[str, Section] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_name.update((s.name, s) for s in self.sections)

    def __getitem__(self, name: str) -> Section:
        return self.by_name[name]

    def describe(self) -> str:
        """One line per section: offset, shape, name and meaning."""
        lines = []
        for s in self.sections:
            shape = "x".join(str(d) for d in s.shape)
            lines.append(f"{s.offset:>6}  {shape:>9}  {s.name:<14} {s.doc}")
        return "\n".join(lines)


def _layout(specs: list[tuple[str, tuple[int, ...], str]]) -> TensorLayout:
    out = []
    offset = 0
    for name, shape, doc in specs:
        out.append(Section(name, shape, offset, doc))
        offset += prod(shape)
    return TensorLayout(tuple(out), offset)


def _observation_specs(r: Rules) -> list[tuple[str, tuple[int, ...], str]]:
    n, c, b = r.players, r.n_cards, r.n_bids
    return [
        ("seat", (n,), "whose view this is"),
        ("phase", (len(PHASES),), "auction, discard, play, over, kitty, partner"),
        ("dealer", (n,), "the dealer"),
        ("to_move", (n,), "the seat to act (none once the hand is over)"),
        ("hand", (c,), "the seat's own cards now"),
        ("bids", (n, b), "seat s bid ladder entry i (inkles apart)"),
        ("inkles", (n, b), "seat s made the inkle i"),
        ("passed", (n,), "seat s has passed"),
        ("high_bid", (b,), "the highest bid so far"),
        ("high_seat", (n,), "who made it"),
        ("contract", (b,), "the contract, once the auction is over"),
        ("contractor", (n,), "the contractor"),
        ("strain", (5,), "trumps of the hand being played: S C D H, or no trumps"),
        ("sans", (1,), "the contractor plays sans kitty"),
        ("nominated", (4,), "the suit nominated for the contractor's joker"),
        ("allies", (n,), "the contractor's side as this seat knows it"),
        ("sitting_out", (n,), "seats that sit this hand out"),
        ("called", (c,), "cards called to find partners"),
        ("kitty_seen", (c,), "the kitty's cards, if this seat took it as contractor"),
        ("discarded", (c,), "the cards this seat discarded as contractor"),
        ("played", (n, c), "card played by seat s, this hand"),
        ("trick", (n, c), "card seat s put on the trick in progress"),
        ("led", (4,), "the suit led to the trick in progress (a joker lead's named suit)"),
        ("voids", (n, 4), "seat s has shown out of suit x (S C D H)"),
        ("faced", (n, c), "cards of seat s lying face up (open misère, both hands)"),
        ("held", (n,), "how many cards seat s holds, divided by the hand size"),
        ("tricks_won", (n,), "tricks seat s has won, divided by the hand size"),
        ("scores", (r.n_sides,), "each side's score before the hand, divided by the target"),
        # no ace, no face: only in the variants with that option (the others keep their shape)
        *(
            [("redeal", (n,), "seat s asked for a redeal (no ace, no face)")]
            if r.REDEAL >= 0
            else []
        ),
    ]


def _history_specs(r: Rules) -> list[tuple[str, tuple[int, ...], str]]:
    n, c, b, t = r.players, r.n_cards, r.n_bids, r.hand_size
    return [
        ("dealt", (c,), "the seat's cards as dealt"),
        ("passed_at", (n, b + 1), "seat s passed when the high bid was i-1 (0: no bid yet)"),
        ("trick_cards", (t, n, c), "in trick k, seat s played card x"),
        ("trick_leader", (t, n), "the leader of trick k"),
        ("joker_named", (t, 4), "the suit a joker lead named in trick k"),
    ]


#: Layouts by what they depend on: (kind, players, cards, bids, hand size, sides, redeal).
_CACHE: dict[tuple[str, int, int, int, int, int, bool], TensorLayout] = {}


def _key(rules: Rules, kind: str) -> tuple[str, int, int, int, int, int, bool]:
    return (
        kind,
        rules.players,
        rules.n_cards,
        rules.n_bids,
        rules.hand_size,
        rules.n_sides,
        rules.REDEAL >= 0,
    )


def observation_layout(rules: Rules) -> TensorLayout:
    """The sections of a variant's observation tensor."""
    key = _key(rules, "obs")
    if key not in _CACHE:
        _CACHE[key] = _layout(_observation_specs(rules))
    return _CACHE[key]


def information_state_layout(rules: Rules) -> TensorLayout:
    """The sections of a variant's information-state tensor (the observation's come first)."""
    key = _key(rules, "info")
    if key not in _CACHE:
        _CACHE[key] = _layout(_observation_specs(rules) + _history_specs(rules))
    return _CACHE[key]


def observation_tensor(state: HandState, seat: int) -> list[float]:
    """What ``seat`` sees now, as :func:`observation_layout` describes it."""
    out = [0.0] * observation_layout(state.rules).size
    _write_observation(state, view_of(state, seat), out, observation_layout(state.rules))
    return out


def information_state_tensor(state: HandState, seat: int) -> list[float]:
    """What ``seat`` knows and remembers, as :func:`information_state_layout` describes it."""
    layout = information_state_layout(state.rules)
    out = [0.0] * layout.size
    view = view_of(state, seat)
    _write_observation(state, view, out, layout)
    _write_history(state, view, out, layout)
    return out


def _set(out: list[float], layout: TensorLayout, name: str, *index: int) -> None:
    section = layout.by_name[name]
    flat = 0
    for i, dim in zip(index, section.shape, strict=True):
        flat = flat * dim + i
    out[section.offset + flat] = 1.0


def _set_mask(out: list[float], layout: TensorLayout, name: str, mask: int, row: int = -1) -> None:
    section = layout.by_name[name]
    base = section.offset + (row * section.shape[-1] if row >= 0 else 0)
    for c in bits(mask):
        out[base + c] = 1.0


def _card(r: Rules, action: int) -> int:
    return action if action < r.JOKER_LEAD else r.joker_cards[(action - r.JOKER_LEAD) // 4]


def _write_observation(
    state: HandState, v: SeatView, out: list[float], layout: TensorLayout
) -> None:
    r = state.rules
    n = r.players
    _set(out, layout, "seat", v.seat)
    _set(out, layout, "phase", v.phase)
    _set(out, layout, "dealer", v.dealer)
    if v.phase != OVER:
        _set(out, layout, "to_move", state.to_move)
    _set_mask(out, layout, "hand", v.hand)
    passed = 0
    for (s, a), inkle in zip(v.calls, v.inkles, strict=True):
        if a == r.PASS:
            passed |= 1 << s
        elif a == r.REDEAL:
            _set(out, layout, "redeal", s)
        else:
            _set(out, layout, "inkles" if inkle else "bids", s, a - r.BID)
    _set_mask(out, layout, "passed", passed)
    if v.high >= 0:
        _set(out, layout, "high_bid", v.high)
        _set(out, layout, "high_seat", v.high_seat)
    if v.contract >= 0:
        _set(out, layout, "contract", v.contract)
        _set(out, layout, "contractor", v.contractor)
    if v.contract >= 0:
        _set(out, layout, "strain", r.bid_strain[v.contract])
    elif v.phase in (PLAY, OVER):  # all passed, played at no trumps
        _set(out, layout, "strain", v.strain)
    if v.sans:
        _set(out, layout, "sans", 0)
    if v.nominated >= 0:
        _set(out, layout, "nominated", v.nominated)
    _set_mask(out, layout, "allies", v.allies)
    _set_mask(out, layout, "sitting_out", v.sitting_out)
    _set_mask(out, layout, "called", v.called_cards)
    _set_mask(out, layout, "kitty_seen", v.kitty_seen)
    _set_mask(out, layout, "discarded", v.discarded)
    for leader, actions, _ in v.tricks:
        for s, a in zip(state.trick_seats(leader, len(actions)), actions, strict=True):
            _set(out, layout, "played", s, _card(r, a))
    for s, a in zip(state.trick_seats(v.trick_leader, len(v.trick)), v.trick, strict=True):
        _set(out, layout, "played", s, _card(r, a))
        _set(out, layout, "trick", s, _card(r, a))
    if v.trick and 0 <= v.led < 4:
        _set(out, layout, "led", v.led)
    for s in range(n):
        for x in range(4):
            if v.voids[s] >> x & 1:
                _set(out, layout, "voids", s, x)
        _set_mask(out, layout, "faced", v.faced[s], s)
    held = layout["held"].offset
    won = layout["tricks_won"].offset
    for s in range(n):
        out[held + s] = v.held[s] / r.hand_size
        out[won + s] = v.tricks_won[s] / r.hand_size
    scores = layout["scores"].offset
    for side in range(r.n_sides):
        out[scores + side] = v.scores[side] / r.target


def _write_history(state: HandState, v: SeatView, out: list[float], layout: TensorLayout) -> None:
    r = state.rules
    _set_mask(out, layout, "dealt", state.dealt[0][v.seat])
    high = -1
    for (s, a), inkle in zip(v.calls, v.inkles, strict=True):
        if a == r.PASS:
            _set(out, layout, "passed_at", s, high + 1)
        elif a == r.REDEAL:
            continue  # in the observation's redeal section
        elif not inkle:
            high = a - r.BID
    tricks = list(v.tricks)
    if v.trick:
        tricks.append((v.trick_leader, v.trick, -1))
    for k, (leader, actions, _) in enumerate(tricks):
        _set(out, layout, "trick_leader", k, leader)
        for s, a in zip(state.trick_seats(leader, len(actions)), actions, strict=True):
            _set(out, layout, "trick_cards", k, s, _card(r, a))
            if r.JOKER_LEAD <= a < r.PASS:
                _set(out, layout, "joker_named", k, (a - r.JOKER_LEAD) % 4)


def information_state_string(state: HandState, seat: int) -> str:
    """What ``seat`` knows and remembers, as a compact string (perfect recall).

    Built from :func:`~fivehundred.runtime.engine.seatview.view_of`, as the tensors are, plus
    the seat's cards as dealt: ``|``-separated fields of the seat and the table, its cards as
    dealt and now (hexadecimal bitmasks of card indexes), the calls in order (``seat:action``,
    ``~`` for an inkle), the contract, the kitty it saw and its discards, the partners it
    knows, the cards each seat holds, every trick (``leader:actions``), the trick in progress
    and the hands lying face up. Two states give the same string exactly when ``seat`` cannot
    tell them apart.
    """
    v = view_of(state, seat)
    calls = " ".join(
        f"{s}{'~' if inkle else ':'}{a}" for (s, a), inkle in zip(v.calls, v.inkles, strict=True)
    )
    tricks = " ".join(f"{leader}:{','.join(map(str, acts))}" for leader, acts, _ in v.tricks)
    trick = f"{v.trick_leader}:{','.join(map(str, v.trick))}" if v.trick else ""
    return "|".join(
        (
            f"{v.seat} {v.dealer} {v.phase} {','.join(map(str, v.scores))}",
            f"{state.dealt[0][v.seat]:x} {v.hand:x}",
            calls,
            f"{v.contract} {v.contractor} {int(v.sans)} {v.nominated}",
            f"{v.allies:x} {v.sitting_out:x}",
            f"{v.called_cards:x} {v.kitty_seen:x} {v.discarded:x}",
            ",".join(map(str, v.held)),
            tricks,
            trick,
            ",".join(f"{m:x}" for m in v.faced),
        )
    )
