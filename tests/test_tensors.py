"""Observation and information-state tensors: fixed size per variant, described section by
section, and nothing in them another seat could not know (G, T, P: each player sees only
his own hand; the kitty only the contractor who takes it; open misère: the bidder's hand)."""

from __future__ import annotations

from random import Random

import pytest

import fivehundred
from fivehundred.generator.pipeline import builtin_ids
from fivehundred.runtime.engine.codes import bits
from fivehundred.runtime.engine.hand import AUCTION, KITTY, HandState
from fivehundred.runtime.engine.seatview import view_of


def _swap(state: HandState, a: tuple[str, int], b: tuple[str, int], ca: int, cb: int) -> None:
    """Exchange card ``ca`` of container ``a`` with card ``cb`` of ``b`` (hands, kitty, dead),
    in the current holdings and in the deal."""
    hands, kitty, dead = list(state.dealt[0]), state.dealt[1], state.dealt[2]
    for (kind, s), give, take in ((a, ca, cb), (b, cb, ca)):
        flip = (1 << give) | (1 << take)
        if kind == "hand":
            state.hands[s] ^= flip
            if hands[s] >> give & 1:
                hands[s] ^= flip
        elif kind == "kitty":
            state.kitty ^= flip
            kitty ^= flip
        else:
            state.dead ^= flip
            dead ^= flip
    state.dealt = (tuple(hands), kitty, dead)


def _hidden_containers(state: HandState, seat: int) -> list[tuple[tuple[str, int], int]]:
    """(container, holding) pairs whose cards ``seat`` cannot see now (called cards excluded:
    they say who the partner is)."""
    view = view_of(state, seat)
    keep = ~state.called_cards
    out: list[tuple[tuple[str, int], int]] = []
    for s in range(state.rules.players):
        if s != seat and not view.faced[s]:
            out.append((("hand", s), state.hands[s] & keep))
    if state.phase in (AUCTION, KITTY):  # the kitty still lies face down
        out.append((("kitty", 0), state.kitty & keep))
    if state.dead:
        out.append((("dead", 0), state.dead & keep))
    return [(c, m) for c, m in out if m]


def _random_states(variant: str, count: int, seed: int) -> list[HandState]:
    game = fivehundred.load(variant)
    rng = Random(seed)
    out = []
    for n in range(count):
        state = game.new_hand(rng=rng, dealer=n % game.num_players)
        steps = rng.randrange(game.max_hand_length)
        while not state.is_over() and steps:
            state.apply_fast(rng.choice(state.legal_actions()))
            steps -= 1
        out.append(state.hand)
    return out


@pytest.mark.parametrize("variant", builtin_ids())
def test_tensors_hide_other_seats_cards(variant: str) -> None:
    """Two states that differ only in cards a seat cannot see give that seat identical
    observation and information-state tensors and information-state strings; a change in its
    own cards changes all three."""
    game = fivehundred.load(variant)
    rng = Random(11)
    compared = changed = 0
    for state in _random_states(variant, 60, 5):
        for seat in range(game.num_players):
            obs = fivehundred.State(game, state).observation_tensor(seat)
            info = fivehundred.State(game, state).information_state_tensor(seat)
            text = fivehundred.State(game, state).information_state_string(seat)
            assert len(obs) == game.observation_shape[0]
            assert len(info) == game.information_state_shape[0]
            hidden = _hidden_containers(state, seat)
            if len(hidden) >= 2:
                (a, ma), (b, mb) = rng.sample(hidden, 2)
                twin = state.copy()
                _swap(twin, a, b, rng.choice(bits(ma)), rng.choice(bits(mb)))
                tw = fivehundred.State(game, twin)
                assert tw.observation_tensor(seat) == obs, (variant, seat, state.phase_name)
                assert tw.information_state_tensor(seat) == info, (variant, seat)
                assert tw.information_state_string(seat) == text, (variant, seat)
                compared += 1
            own = state.hands[seat] & ~state.called_cards
            if hidden and own:
                (b, mb) = hidden[0]
                twin = state.copy()
                _swap(twin, ("hand", seat), b, rng.choice(bits(own)), rng.choice(bits(mb)))
                tw = fivehundred.State(game, twin)
                assert tw.observation_tensor(seat) != obs
                assert tw.information_state_tensor(seat) != info
                assert tw.information_state_string(seat) != text
                changed += 1
    assert compared >= 4 and changed > 50  # two-handed: few states hide two holdings


def test_layout_sections_tile_the_tensor() -> None:
    """The sections follow one another with no gap and add up to the shape."""
    for variant in builtin_ids():
        game = fivehundred.load(variant)
        for layout, shape in (
            (game.observation_layout, game.observation_shape),
            (game.information_state_layout, game.information_state_shape),
        ):
            offset = 0
            for section in layout.sections:
                assert section.offset == offset
                offset += section.size
            assert (offset,) == shape == (layout.size,)
        # The information state starts with the observation.
        obs_names = [s.name for s in game.observation_layout.sections]
        info_names = [s.name for s in game.information_state_layout.sections]
        assert info_names[: len(obs_names)] == obs_names


def test_tensor_values_follow_the_hand() -> None:
    """Deal S (conftest): seat 1 bids 6H; sections hold what the layout says."""
    game = fivehundred.load("australian")
    state = game.new_hand(seed=3, dealer=0)
    lay = game.observation_layout
    t = state.observation_tensor(1)

    def block(name: str, tensor: list[float]) -> list[float]:
        s = lay[name]
        return tensor[s.offset : s.offset + s.size]

    hand = [float(state.hand.hands[1] >> c & 1) for c in range(43)]
    assert block("hand", t) == hand
    assert block("seat", t) == [0, 1, 0, 0] and block("dealer", t) == [1, 0, 0, 0]
    assert block("to_move", t) == [0, 1, 0, 0]
    state.apply("6H")
    for _ in range(3):
        state.apply("pass")
    t = state.observation_tensor(2)
    bids = block("bids", t)
    assert bids[1 * 28 + game.bids.index("6H")] == 1 and sum(bids) == 1
    assert block("passed", t) == [1, 0, 1, 1]  # the third pass ended the auction: 6H
    assert block("contract", state.observation_tensor(0))[game.bids.index("6H")] == 1
    assert block("strain", state.observation_tensor(0)) == [0, 0, 0, 1, 0]
    # The contractor sees the kitty; the others do not.
    kitty = [float(state.hand.kitty >> c & 1) for c in range(43)]
    assert block("kitty_seen", state.observation_tensor(1)) == kitty
    assert sum(block("kitty_seen", state.observation_tensor(0))) == 0


@pytest.mark.parametrize(
    "variant", ["australian", "five-handed-call", "open-misere-after-8", "both-hands-misere"]
)
def test_information_state_string_tells_apart_what_the_tensor_does(variant: str) -> None:
    """Swapping two cards between any two holdings (hands, the kitty face down, the dead hand)
    changes a seat's compact information-state string exactly when it changes its
    information-state tensor; and the string is short, not the tensor's thousands of floats."""
    game = fivehundred.load(variant)
    rng = Random(3)
    same = differ = 0
    for state in _random_states(variant, 40, 9):
        holdings: list[tuple[tuple[str, int], int]] = [
            (("hand", s), state.hands[s] & ~state.called_cards) for s in range(game.num_players)
        ]
        if state.phase in (AUCTION, KITTY):
            holdings.append((("kitty", 0), state.kitty & ~state.called_cards))
        holdings.append((("dead", 0), state.dead & ~state.called_cards))
        holdings = [(c, m) for c, m in holdings if m]
        if len(holdings) < 2:
            continue
        for seat in range(game.num_players):
            (a, ma), (b, mb) = rng.sample(holdings, 2)
            twin = state.copy()
            _swap(twin, a, b, rng.choice(bits(ma)), rng.choice(bits(mb)))
            one, two = fivehundred.State(game, state), fivehundred.State(game, twin)
            text = one.information_state_string(seat)
            equal_info = one.information_state_tensor(seat) == two.information_state_tensor(seat)
            assert (text == two.information_state_string(seat)) == equal_info, (variant, seat)
            same += equal_info
            differ += not equal_info
            assert len(text) < 400 and "\n" not in text
    assert same > 20 and differ > 20
