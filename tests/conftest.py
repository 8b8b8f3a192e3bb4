"""Shared fixtures for the engine tests: the australian rules, hand-built deals, action helpers.

Deals are written as card codes (INTERCHANGE.md "Codes"); a deal must be complete and exact
(four hands of ten cards and a kitty of three, every card of the 43-card deck once), so every
scenario says precisely where each card is.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from fivehundred.runtime.engine.codes import normalise_card
from fivehundred.runtime.engine.errors import IllegalActionError
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.loading import load_rules

ROOT = Path(__file__).resolve().parent.parent

# The heuristic keeps its fitted hand models on disk (runtime/bots/handmodel.py): the tests
# fit them afresh and touch no cache folder of the user's (test_bots.py tests the cache in a
# folder of its own). Set here, so the commands the tests start inherit it too.
os.environ["FIVEHUNDRED_CACHE"] = "off"
AUSTRALIAN_SPEC = ROOT / "specs" / "variants" / "australian.yaml"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def rules() -> Rules:
    """The australian rules, compiled in memory from the spec (independent of generated/)."""
    return load_rules(str(AUSTRALIAN_SPEC))


def split_codes(cards: str | Iterable[str]) -> list[str]:
    """``"JH JD 5S"`` or ``["JH", "JD", "5S"]`` -> a list of codes."""
    return cards.split() if isinstance(cards, str) else list(cards)


def mask_of(rules: Rules, cards: str | Iterable[str]) -> int:
    """The bitmask of some card codes (each code once)."""
    mask = 0
    for code in split_codes(cards):
        c = rules.card(code)
        assert not mask >> c & 1, f"{code} named twice"
        mask |= 1 << c
    return mask


def codes_of(rules: Rules, mask: int) -> list[str]:
    """Card codes of a bitmask, in deck order."""
    return [rules.deck[c] for c in range(rules.n_cards) if mask >> c & 1]


def build_hand(
    rules: Rules,
    dealer: int,
    hands: list[str] | list[list[str]],
    kitty: str | list[str],
    scores: list[int] | None = None,
) -> HandState:
    """A :class:`HandState` at the start of the auction from a complete, exact deal."""
    masks = [mask_of(rules, h) for h in hands]
    kmask = mask_of(rules, kitty)
    assert len(masks) == rules.players
    assert all(m.bit_count() == rules.hand_size for m in masks), [m.bit_count() for m in masks]
    assert kmask.bit_count() == rules.kitty
    union = kmask
    for m in masks:
        assert not union & m, "a card is dealt twice"
        union |= m
    assert union == (1 << rules.n_cards) - 1, "the deal misses cards: " + " ".join(
        codes_of(rules, ((1 << rules.n_cards) - 1) & ~union)
    )
    return HandState(rules, dealer, masks, kmask, 0, scores)


def parse(state: HandState, text: str) -> int:
    """The action int of ``text`` for the seat to move, resolved independently of the engine's
    parser: card codes 6..10 of every suit (``8D``) are also bid codes, and mean the card
    outside the auction."""
    r = state.rules
    if state.phase_name != "auction" and normalise_card(text) is not None:
        return r.card(text)
    words = text.split()
    if words and words[0] in r.bid_index and len(words) == 1:
        return r.bid_action(words[0])
    return r.parse_actions(text)[-1]  # a whole discard: its last card's action


def apply_all(state: HandState, actions: str | Iterable[str]) -> HandState:
    """Apply action strings with every check (``HandState.apply_str``), each checked to mean what
    :func:`parse` says. A string is split on ``,`` (``"6H, pass, JK:H"``)."""
    if isinstance(actions, str):
        actions = [a.strip() for a in actions.split(",") if a.strip()]
    for text in actions:
        want = parse(state, text)
        assert state.apply_str(text) == want, text
    return state


def legal_strs(state: HandState) -> list[str]:
    """The legal actions of the seat to move, as public codes."""
    return [state.rules.action_str(a) for a in state.legal_actions()]


def snapshot(state: HandState) -> dict[str, Any]:
    """Everything observable about ``state``: every seat's observation, the legal actions, and
    (stronger still) every internal field."""
    fields = {
        name: copy.deepcopy(getattr(state, name)) for name in HandState.__slots__ if name != "rules"
    }
    return {
        "observations": [state.observation(seat) for seat in range(state.rules.players)],
        "legal": state.legal_actions(),
        "fields": fields,
    }


def check_illegal(state: HandState, action: str, clause: str) -> IllegalActionError:
    """Assert that ``action`` is illegal now, citing ``clause``, and leaves ``state`` unchanged."""
    before = snapshot(state)
    if len(state.rules.parse_actions(action)) == 1:
        assert parse(state, action) not in before["legal"], f"{action} is legal"
    with pytest.raises(IllegalActionError) as info:
        state.apply_str(action)
    after = snapshot(state)
    assert after == before, "an illegal action changed the state"
    assert info.value.clause == clause, (info.value.clause, str(info.value))
    assert info.value.seat == state.to_move
    return info.value


@pytest.fixture()
def hand(rules: Rules) -> Callable[..., HandState]:
    """``hand(dealer, [hand0, hand1, hand2, hand3], kitty, scores=None)`` -> HandState."""

    def make(
        dealer: int, hands: list[str], kitty: str, scores: list[int] | None = None
    ) -> HandState:
        return build_hand(rules, dealer, hands, kitty, scores)

    return make


@pytest.fixture()
def act() -> Callable[[HandState, str | Iterable[str]], HandState]:
    """``act(state, "6H, pass, pass")``: apply action strings with every check."""
    return apply_all


@pytest.fixture()
def illegal() -> Callable[[HandState, str, str], IllegalActionError]:
    """``illegal(state, action, clause)``: see :func:`check_illegal`."""
    return check_illegal


# -- hand-built deals used by several test files ------------------------------------------------
# Hands by seat 0..3, dealer 0 (seat 1 calls first). Each is checked complete by build_hand.

#: Deal S: seat 1 holds the eight top hearts (JK JH JD AH KH QH 10H 9H) and two low spades; seat 0
#: eight spades (7S..AS) and two low hearts; seat 2 every club; seat 3 every diamond but JD.
DEAL_S = (
    [
        "7S 8S 9S 10S JS QS KS AS 4H 5H",
        "JK JH JD AH KH QH 10H 9H 5S 6S",
        "5C 6C 7C 8C 9C 10C JC QC KC AC",
        "4D 5D 6D 7D 8D 9D 10D QD KD AD",
    ],
    "8H 7H 6H",
)

#: Deal B (hearts contract by seat 1): seat 2 holds JD and 5D and no heart; seat 3 holds the
#: joker, no heart, and clubs; seat 0 holds five low hearts and five high diamonds.
DEAL_B = (
    [
        "8H 7H 6H 5H 4H 9D 10D QD KD AD",
        "JH AH KH QH 10H 9H 4D 5S 5C 6C",
        "JD 5D 6S 7S 8S 9S 7C 8C 9C 10C",
        "JK 6D 7D 8D 10S JS QS QC KC AC",
    ],
    "KS AS JC",
)

#: Deal C (no trumps by seat 1, who holds the joker and every ace and king).
DEAL_C = (
    [
        "10S JS 10C JC 9D 10D JD 9H 10H JH",
        "JK AS AC AD AH KS KC KD KH QS",
        "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H",
        "8S 9S 8C 9C 6D 7D 8D 6H 7H 8H",
    ],
    "QC QD QH",
)

#: Deal D: seat 0 (the dealer) holds the joker and no club; seat 1 the top spades and clubs.
DEAL_D = (
    [
        "JK 5S 6S 4D 5D 6D 7D 4H 5H 6H",
        "AS KS QS AC KC QC AD KD AH KH",
        "7S 8S 5C 6C 7C 8D 9D 7H 8H 9H",
        "9S 10S 8C 9C 10C 10D JD 10H JH QH",
    ],
    "JS JC QD",
)

#: Deal M (a misère that can be made): seat 1 holds the ten lowest cards.
DEAL_M = (
    [
        "JS QS KS JC QC KC 8D 9D 8H 9H",
        "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H",
        "8S 9S 10S 8C 9C 10C 6D 7D 6H 7H",
        "AS AC 10D JD QD KD AD 10H JH QH",
    ],
    "KH AH JK",
)

DEALS = {"S": DEAL_S, "B": DEAL_B, "C": DEAL_C, "D": DEAL_D, "M": DEAL_M}


@pytest.fixture()
def deal(rules: Rules) -> Callable[..., HandState]:
    """``deal("S", dealer=0, scores=None)``: a fresh HandState of a named hand-built deal."""

    def make(name: str, dealer: int = 0, scores: list[int] | None = None) -> HandState:
        hands, kitty = DEALS[name]
        return build_hand(rules, dealer, list(hands), kitty, scores)

    return make


# -- groups and markers ----------------------------------------------------------------------
# Every test module belongs to one group, a marker: `generator` (rule files to outputs),
# `runtime` (the engine) or `e2e` (the command line and whole programs). Tests that take seconds
# each are also `slow`, and the rule books in a real browser are `browser`; README "Tests" says
# how to run the fast part (`-m "not slow and not browser"`).
GROUPS: dict[str, str] = {
    "test_yamlload.py": "generator",
    "test_schemacheck.py": "generator",
    "test_schemas.py": "generator",
    "test_options.py": "generator",
    "test_scoring.py": "runtime",
    "test_semantic.py": "generator",
    "test_diagnostics_translatable.py": "generator",
    "test_resolve.py": "generator",
    "test_tables_australian.py": "generator",
    "test_tableformat.py": "generator",
    "test_layout.py": "runtime",
    "test_native.py": "runtime",
    "test_docs.py": "generator",
    "test_i18n.py": "generator",
    "test_notation_books.py": "generator",
    "test_build_atomic.py": "generator",
    "test_build_cache.py": "generator",
    "test_dev_tools.py": "generator",
    "test_rules_australian.py": "runtime",
    "test_variants.py": "runtime",
    "test_ladder_scenarios.py": "runtime",
    "test_option_matrix.py": "runtime",
    "test_perft.py": "runtime",
    "test_legality_property.py": "runtime",
    "test_invariants.py": "runtime",
    "test_records.py": "runtime",
    "test_api.py": "runtime",
    "test_tensors.py": "runtime",
    "test_bots.py": "runtime",
    "test_solver.py": "runtime",
    "test_search.py": "runtime",
    "test_positions.py": "runtime",
    "test_balance.py": "runtime",
    "test_rare.py": "runtime",
    "test_conformance.py": "runtime",
    "test_engines.py": "runtime",
    "test_openspiel.py": "runtime",
    "test_pettingzoo.py": "runtime",
    "test_cli.py": "e2e",
    "test_validate_cli.py": "e2e",
    "test_hostile_cli.py": "e2e",
    "test_play.py": "e2e",
    "test_hostile.py": "e2e",
    "test_engine_fuzz.py": "e2e",
    "test_reliability.py": "e2e",
    "test_browser.py": "e2e",
    "test_server.py": "e2e",
    "test_table_browser.py": "e2e",
    "test_auction_options.py": "runtime",
    "test_no_ace_no_face.py": "runtime",
    "test_joker_options.py": "runtime",
    "test_books_index.py": "generator",
    "test_notation_io.py": "e2e",
    "test_bench.py": "e2e",
    "test_diagnostics_i18n.py": "e2e",
    "test_table_language.py": "e2e",
}
#: Whole modules that are slow (many tests of a second or more each).
SLOW_MODULES = {"test_option_matrix.py"}
#: Single slow tests (every parametrisation of them), by module and function.
SLOW_TESTS = {
    ("test_engines.py", "test_generated_engine_agrees_over_thousands_of_hands"),
    ("test_server.py", "test_whole_games_no_client_sees_a_hidden_card"),
    ("test_hostile.py", "test_hostile_text_reaches_generated_python_only_as_literals"),
    ("test_hostile.py", "test_hostile_text_is_escaped_in_the_rule_book"),
    ("test_hostile.py", "test_hostile_text_survives_a_rule_file"),
    ("test_engine_fuzz.py", "test_every_action_int_in_every_phase"),
    ("test_engine_fuzz.py", "test_engine_fuzz"),
    ("test_engine_fuzz.py", "test_loader_fuzz"),
    ("test_build_atomic.py", "test_replace_failing_on_any_call_rolls_back"),
    ("test_semantic.py", "test_check_semantics_never_raises"),
    ("test_semantic.py", "test_check_semantics_on_mutated_australian"),
    ("test_invariants.py", "test_observations_never_leak"),
    ("test_invariants.py", "test_simulate_hands_invariants"),
    ("test_i18n.py", "test_extract_is_idempotent"),
    ("test_reliability.py", "test_replay_memory_is_flat_in_the_number_of_records"),
    ("test_reliability.py", "test_a_second_build_waits_for_the_lock_and_says_so"),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its group, and as ``slow`` or ``browser`` where it is."""
    for item in items:
        module = item.path.name
        group = GROUPS.get(module)
        if group is not None:
            item.add_marker(getattr(pytest.mark, group))
        if module in ("test_browser.py", "test_table_browser.py"):
            item.add_marker(pytest.mark.browser)
        name = getattr(item, "originalname", item.name)
        if module in SLOW_MODULES or (module, name) in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Under CI (``CI`` set), a browser test that was skipped is a failure: CI must show the
    books and the table really work in chromium, never pass by skipping them."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") and item.get_closest_marker("browser"):
        report.outcome = "failed"
        report.longrepr = f"CI is set but this browser test was skipped: {report.longrepr}"


# The peak is VmHWM, the high-water mark of the measured process's own memory map. getrusage's
# ru_maxrss would carry over the peak of the (large) pytest process that spawned it, since Linux
# keeps the larger of the two across exec: CI once read 447 MB for a 24 MB `play`.
MEASURE = """\
import re, sys
from fivehundred.runtime.cli.main import main
code = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status:
    kib = re.search(r"^VmHWM:\\s+(\\d+) kB", status.read(), re.M).group(1)
print(code, kib, file=sys.stderr)
"""


def peak_kib(tmp_path: Path, *argv: str, **kwargs: Any) -> tuple[int, int, str]:
    """Exit code, peak resident memory (KiB) and standard error (less the measurement's own
    line) of ``fivehundred ARGV`` run in a fresh process."""
    script = tmp_path / "measure.py"
    script.write_text(MEASURE, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(script), *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=600,
        cwd=ROOT,
        **kwargs,
    )
    *lines, last = proc.stderr.splitlines()
    code, kib = last.split()
    return int(code), int(kib), "\n".join(lines)
