"""Where the misères stand among the bids: every ladder interaction of auction.ladder and its misère
options.

Each scenario is an auction played call by call with ``HandState.apply_str`` (dealer 0, so seat 1
calls first), asserting which bids are legal at each point and that a barred bid is refused citing
its rule clause. The rule files are the built-in variants and house files (compiled in memory from
``specs/``), or a small overlay written into ``tmp_path`` where no house file has the setting.

Sources: G (the Australian rules page), T (the app's house options).
"""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest
from variant_helpers import legal, overlay_rules, rules_of

from fivehundred.runtime.engine.errors import IllegalActionError, SpecError
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules


def auction(rules: Rules, calls: str = "") -> HandState:
    """A fresh hand (dealer 0) after the comma-separated ``calls``, each applied with checks."""
    state = HandState.new(rules, 0, Random(7))
    for call in (c.strip() for c in calls.split(",")):
        if call:
            state.apply_str(call)
    return state


def bids(state: HandState) -> list[str]:
    """The bids (not pass) the seat to move may make now."""
    return [a for a in legal(state) if a != "pass"]


def refused(state: HandState, call: str, clause: str) -> None:
    """``call`` is illegal now, and the engine says so citing ``clause``."""
    assert call not in legal(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_str(call)
    assert info.value.clause == clause, (info.value.clause, str(info.value))


def above(state: HandState, code: str) -> list[str]:
    """The legal bids strictly above ``code`` on the ladder."""
    codes = state.rules.bid_codes
    return [b for b in bids(state) if codes.index(b) > codes.index(code)]


# -- G: the Australian ladder (australian.yaml) -------------------------------------------------


def test_auction_misere_only_after_a_7_bid_g() -> None:
    """G: misère "may be bid only after someone has bid 7"."""
    r = rules_of("australian")
    state = auction(r)
    refused(state, "MIS", "auction.misere")
    state = auction(r, "6S, 6NT")
    refused(state, "MIS", "auction.misere")
    state = auction(r, "6S, 7S")
    assert "MIS" in bids(state)
    state = auction(r, "7H, pass, pass")  # seat 0: MIS overcalls 7H
    assert "MIS" in bids(state)


def test_auction_misere_between_7nt_and_8s_g() -> None:
    """G: misère is above every 7 bid and below every 8 bid."""
    r = rules_of("australian")
    codes = r.bid_codes
    assert codes[codes.index("7NT") + 1] == "MIS" and codes[codes.index("MIS") + 1] == "8S"
    state = auction(r, "7NT")
    assert bids(state)[:2] == ["MIS", "8S"]
    state = auction(r, "7NT, MIS")
    refused(state, "7NT", "auction.higher")
    assert bids(state)[0] == "8S"
    state = auction(r, "7S, 8S")
    refused(state, "MIS", "auction.higher")


def test_auction_open_misere_any_time_even_first_g() -> None:
    """G: open misère is above 10 diamonds and below 10 hearts and may be bid at any time, even
    first."""
    r = rules_of("australian")
    state = auction(r)
    assert "OMIS" in bids(state)
    state.apply_str("OMIS")
    assert bids(state) == ["BMIS", "10H", "10NT"]  # seat 2's first call: blind misère too
    state = auction(r, "10D")
    assert "OMIS" in bids(state)
    state = auction(r, "10H")
    refused(state, "OMIS", "auction.higher")
    assert bids(state) == ["10NT"]


def test_auction_blind_misere_first_call_only_g() -> None:
    """G: blind misère is bid before looking at one's cards, so only as one's first call; it
    ranks directly above open misère (a choice of the Australian spec)."""
    r = rules_of("australian")
    state = auction(r)
    assert "BMIS" in bids(state)
    state = auction(r, "6S, BMIS")  # seat 2's first call
    assert state.calls[-1][1] == r.bid_action("BMIS")
    state = auction(r, "6S, 7S, pass, pass")  # back to seat 1, who has called already
    refused(state, "BMIS", "auction.blind-misere")
    assert "OMIS" in bids(state)
    state = auction(r, "6S, pass, pass, 7S")  # seat 0's first call came late: still his first
    state = auction(r, "6S, pass, pass")
    assert "BMIS" in bids(state)


def test_auction_misere_off_g(tmp_path: Path) -> None:
    """G variation: "misère bids are not allowed at all" (T: Misère "off")."""
    r = overlay_rules("australian", {"auction": {"ladder": {"special": []}}}, tmp_path, "no-mis")
    assert [b for b in r.bid_codes if not b[0].isdigit()] == []
    assert bids(auction(r, "7NT"))[0] == "8S"


def test_auction_misere_without_a_7_bid_g(tmp_path: Path) -> None:
    """G variation: "misère may be bid without a 7 bid"."""
    special = [
        {"bid": "MIS", "value": 250, "above": "7NT"},
        {"bid": "OMIS", "open": "after-first-trick", "value": 500, "above": "10D"},
        {"bid": "BMIS", "blind": True, "value": 500, "above": "OMIS"},
    ]
    r = overlay_rules(
        "australian", {"auction": {"ladder": {"special": {"replace": special}}}}, tmp_path, "m"
    )
    state = auction(r)
    assert "MIS" in bids(state)
    state.apply_str("MIS")
    assert bids(state)[0] == "8S"


# -- T: misère points and the overcalls they imply (house files) --------------------------------


def test_auction_misere_210_overcalled_by_7nt_t() -> None:
    """T: "±210 allows 7NT to overcall it"; with "Misère: anytime" it may be bid first."""
    r = rules_of("misere-anytime-210")
    state = auction(r)
    assert "MIS" in bids(state) and "OMIS" in bids(state)
    state = auction(r, "MIS")
    refused(state, "7H", "auction.higher")
    assert bids(state)[0] == "7NT"
    state = auction(r, "7NT")
    refused(state, "MIS", "auction.higher")


def test_auction_misere_230_overcalled_by_any_8_t() -> None:
    """T: "±230 can be overcalled by an 8-level bid" (and the house file misere-230: between 7NT and
    8S)."""
    r = rules_of("misere-230")
    state = auction(r, "7S, MIS")
    refused(state, "7NT", "auction.higher")
    assert bids(state)[0] == "8S"


def test_auction_misere_250_with_8_spades_overbids_t() -> None:
    """T: at 250, "8♠ overbids misère" is the default: any 8 bid overcalls it (Trickster's
    Australian defaults)."""
    r = rules_of("trickster-australian")
    state = auction(r, "7S, MIS")
    assert bids(state)[0] == "8S"


def test_auction_misere_250_without_8_spades_overbids_t() -> None:
    """T: at 250 without "8♠ overbids misère", 8 clubs (260) or better overcalls it; 8 spades
    (240) does not, and misère overcalls 8 spades."""
    r = rules_of("nullo-above-8s")
    state = auction(r, "8S")
    assert bids(state)[0] == "MIS"
    state = auction(r, "8S, MIS")
    refused(state, "8S", "auction.higher")
    assert bids(state)[0] == "8C"


def test_auction_open_misere_330_overcalled_by_a_9_bid_t() -> None:
    """T: open misère "±330: a 9-level bid may overcall"."""
    r = rules_of("misere-anytime-210")
    state = auction(r, "OMIS")
    refused(state, "8NT", "auction.higher")
    assert above(state, "OMIS")[:2] == ["BMIS", "9S"]  # blind misère sits directly above it


def test_auction_open_misere_430_overcalled_by_a_10_bid_t() -> None:
    """T: open misère "±430: a 10-level bid may overcall" (house file misere-230: between 9NT and
    10S)."""
    r = rules_of("misere-230")
    state = auction(r, "OMIS")
    refused(state, "9NT", "auction.higher")
    assert "10S" in bids(state)


def test_auction_open_misere_500_overcalled_only_by_10nt_t() -> None:
    """T: open misère "can be overbid by 10NT" only (at ±500)."""
    r = rules_of("trickster-australian")
    state = auction(r, "10H")
    assert bids(state) == ["OMIS", "10NT"]
    state = auction(r, "OMIS")
    refused(state, "10H", "auction.higher")
    assert bids(state) == ["10NT"]


def test_auction_open_misere_520_overcalled_by_nothing_t(tmp_path: Path) -> None:
    """T: open misère "±520: no overcalls may be called"."""
    special = [
        {"bid": "MIS", "value": 250, "above": "7NT", "available": {"after_bid_of": 7}},
        {"bid": "OMIS", "open": "from-start", "value": 520, "above": "10NT"},
    ]
    r = overlay_rules(
        "australian", {"auction": {"ladder": {"special": {"replace": special}}}}, tmp_path, "o"
    )
    assert r.bid_codes[-1] == "OMIS"
    state = auction(r, "10NT")
    assert bids(state) == ["OMIS"]
    state = auction(r, "OMIS")
    assert legal(state) == ["pass"]
    refused(state, "10NT", "auction.higher")


def test_auction_open_misere_only_after_an_8_bid_t() -> None:
    """T: "Open misère after 8: yes" requires someone to have bid at the 8 level first."""
    r = rules_of("open-misere-after-8")
    refused(auction(r), "OMIS", "auction.open-misere")
    refused(auction(r, "7S, 7NT"), "OMIS", "auction.open-misere")
    refused(auction(r, "7S, MIS"), "OMIS", "auction.open-misere")  # a misère is no 8 bid
    state = auction(r, "8S")
    assert "OMIS" in bids(state)
    state = auction(r, "8S, pass, 9H")
    assert "OMIS" in bids(state)


def test_auction_open_misere_after_8_needs_misere_after_7_t(tmp_path: Path) -> None:
    """T: "Open misère after 8 ... the Misère option must be set to after 7 to use this"."""
    special = [
        {"bid": "MIS", "value": 250, "above": "7NT"},
        {
            "bid": "OMIS",
            "open": "from-start",
            "value": 500,
            "above": "10D",
            "available": {"after_bid_of": 8},
        },
    ]
    with pytest.raises(SpecError) as info:
        overlay_rules(
            "australian", {"auction": {"ladder": {"special": {"replace": special}}}}, tmp_path, "x"
        )
    assert any(d.clause == "auction.open-misere" for d in info.value.diagnostics)


def test_auction_misere_any_time_t() -> None:
    """T: "Misère: anytime" lets misère and open misère be bid at any time."""
    r = rules_of("misere-anytime-210")
    state = auction(r)
    assert {"MIS", "OMIS", "BMIS"} <= set(bids(state))
    state = auction(r, "6S, MIS")
    assert "MIS" not in bids(state)


# -- T: the American ladder: inkles, nullo any time ----------------------------------------------


def test_auction_inkles_and_nullo_t() -> None:
    """T: the first two bidders' 6-level bids are inkles; the last two start at 7; nullo (250,
    any time here) sits above 7NT, open nullo (500) above 10H."""
    r = rules_of("american")
    state = auction(r)
    assert bids(state)[0] == "6S" and "MIS" in bids(state)
    state = auction(r, "6H")  # an inkle: it sets no bid to beat
    assert bids(state)[0] == "6S"
    state = auction(r, "6H, 6S")
    refused(state, "6NT", "auction.inkles")
    assert bids(state)[0] == "7S"
    state = auction(r, "7S, MIS")
    refused(state, "7NT", "auction.higher")
    assert bids(state)[0] == "8S"
    state = auction(r, "10H")
    assert bids(state) == ["OMIS", "10NT"]
