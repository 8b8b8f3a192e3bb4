"""The joker options of issue 17 §4: the joker lowest in a misère (T's app option, clause
joker.no-trumps.misere-low), and the house rules for the joker's suit in no trumps: first or last
card of its suit (joker.no-trumps.first-or-last) and no suit shown void
(joker.no-trumps.void-suit). Each under its setting and its default, through the checked
engine's legal actions and errors, the compiled engine, the double-dummy solver, the command
line and the conformance vectors.

The deal used by most tests (dealer 0, 43 cards): seat 2, the contractor, holds the joker, four
low hearts and five low diamonds; seat 0, his partner, all ten spades (he sits a misère out);
seats 1 and 3 the clubs, the high diamonds and hearts; the kitty 8H 9H 10H, which seat 2 takes
and discards.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest
from variant_helpers import act, deal_with, legal, overlay_rules, rules_of

from fivehundred.runtime.bots.solver import Solver
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.errors import IllegalActionError
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent

SEATS = {
    2: "JK 4H 5H 6H 7H 4D 5D 6D 7D 8D",
    0: "5S 6S 7S 8S 9S 10S JS QS KS AS",
    1: "5C 6C 7C 8C 9C 9D 10D JD JH QH",
    3: "10C JC QC KC AC QD KD AD KH AH",
    "kitty": "8H 9H 10H",
}
#: Seat 1 bids 7C, seat 2 misère over it; the others pass; seat 2 discards the kitty.
MISERE = "7C, MIS, pass, pass, pass, discard 8H 9H 10H"
NO_TRUMPS = "7NT, pass, pass, pass, discard 8H 9H 10H"


def _hand(rules: Rules, auction: str, seats: dict[object, str] | None = None) -> HandState:
    state = deal_with(rules, 0, dict(seats or SEATS))
    return act(state, auction)


def _winner_of_first_trick(state: HandState) -> int:
    assert state.tricks, "the first trick is not over"
    return state.tricks[0][2]


# -- joker.no-trumps.misere-low ------------------------------------------------------------------


def test_low_joker_led_loses_to_any_card_of_the_named_suit_low_joker_misere() -> None:
    """Clause joker.no-trumps.misere-low (T's app option "the joker as the lowest card of a
    misère"; spec choice in low-joker-misere): seat 2 leads JK naming diamonds in his misère;
    seats 1 and 3 hold diamonds and must follow, and the higher diamond takes the trick, so the
    misère goes on. In the Australian game (G) the same lead takes the trick and the misère is
    lost at once."""
    low = _hand(rules_of("low-joker-misere"), MISERE)
    assert low.misere and low.to_move == 2
    act(low, "JK:D, QD, 9D")
    assert _winner_of_first_trick(low) == 3
    assert not low.is_over
    high = _hand(rules_of("australian"), MISERE)
    act(high, "JK:D, QD, 9D")
    assert _winner_of_first_trick(high) == 2
    assert high.is_over and high.result is not None and high.result.made is False


def test_low_joker_led_wins_when_nobody_plays_the_named_suit_low_joker_misere() -> None:
    """Clause joker.no-trumps.misere-low: led naming spades, which only seat 0 holds (and he sits
    the misère out), the low joker is the only card of the suit led: it takes the trick and the
    misère is lost (the rule's one exception, as the book states it)."""
    state = _hand(rules_of("low-joker-misere"), MISERE)
    act(state, "JK:S, 10C, 5C")
    assert _winner_of_first_trick(state) == 2
    assert state.is_over and state.result is not None and state.result.made is False


def test_low_joker_played_to_another_lead_never_wins_low_joker_misere() -> None:
    """Clause joker.no-trumps.misere-low with joker.no-trumps.misere-void (G: in misère a void
    player must play the joker): seat 3, void in clubs and holding JK, must play it to seat 2's
    5C, and the low joker does not take the trick: seat 1's club does. Under the Australian
    rules the joker takes that trick."""
    seats = {
        2: "4H 5H 6H 7H 4D 5D 6D 7D 8D 5C",
        3: "JK QD KD AD JH QH KH AH 9D 10D",
        1: "6C 7C 8C 9C 10C JC QC KC AC JD",
        0: SEATS[0],
        "kitty": SEATS["kitty"],
    }
    for variant, winner in (("low-joker-misere", 1), ("australian", 3)):
        state = _hand(rules_of(variant), MISERE, seats)
        act(state, "5C")
        assert legal(state) == ["JK"], variant  # joker.no-trumps.misere-void
        act(state, "JK, 6C")
        assert _winner_of_first_trick(state) == winner, variant


def test_low_joker_still_follows_no_suit_and_only_when_void_low_joker_misere() -> None:
    """Clause joker.no-trumps.follow under joker.no-trumps.misere-low: the low joker still
    belongs to no suit. Its leader names any suit for it; a follower holding the led suit (seat
    3, with the joker moved to him, on seat 2's 4D) may not play it, the sentence naming seat 3
    and the rule, and only the leader names a suit for a joker (joker.no-trumps.lead)."""
    state = _hand(rules_of("low-joker-misere"), MISERE)
    assert {"JK:S", "JK:C", "JK:D", "JK:H"} <= set(legal(state))
    seats = {**SEATS, 2: "10C 4H 5H 6H 7H 4D 5D 6D 7D 8D", 3: "JK JC QC KC AC QD KD AD KH AH"}
    follower = _hand(rules_of("low-joker-misere"), MISERE, seats)
    act(follower, "4D")
    assert follower.to_move == 3 and "JK" not in legal(follower)
    with pytest.raises(IllegalActionError) as err:
        follower.apply_str("JK")
    assert (err.value.seat, err.value.clause) == (3, "joker.no-trumps.follow")
    with pytest.raises(IllegalActionError) as err:
        follower.apply_str("JK:D")
    assert err.value.clause == "joker.no-trumps.lead"


def test_nominated_low_joker_is_the_lowest_of_its_suit_low_joker_misere() -> None:
    """Clause joker.no-trumps.misere-low with joker.no-trumps.nominate (G): a joker the misère
    contractor nominates to diamonds is the lowest diamond (power 0, derived
    misere_nominated_power), so any diamond beats it; in no trumps the nominated joker is the
    highest diamond (99) and wins."""
    rules = rules_of("low-joker-misere")
    state = _hand(rules, MISERE + ", nominate D")
    assert state.power[rules.card("JK")] == 0
    act(state, "JK, QD, 9D")
    assert _winner_of_first_trick(state) == 3
    nt = _hand(rules, NO_TRUMPS + ", nominate D", _nt_seats())
    assert nt.power[rules.card("JK")] == 99


def _nt_seats() -> dict[object, str]:
    """The deal with seat 1 holding the joker, so that he is the no-trumps contractor."""
    seats = dict(SEATS)
    seats[1], seats[2] = seats[2], seats[1]
    return seats


def test_low_joker_only_in_misere_and_default_keeps_it_highest() -> None:
    """The option is off by default (every built-in variant keeps the joker the highest card in
    a misère, derived.misere_power equals the no-trumps powers), and with it on the joker stays
    the highest card at no trumps."""
    for variant in ("australian", "american", "three-handed"):
        r = rules_of(variant)
        assert r.misere_power == r.power[4], variant
    r = rules_of("low-joker-misere")
    jk = r.card("JK")
    assert r.misere_power[jk] == 0 and r.power[4][jk] > 200
    state = _hand(r, NO_TRUMPS, _nt_seats())
    act(state, "JK:D, 9D, QD, 5S")
    assert _winner_of_first_trick(state) == 1


# -- joker.no-trumps.first-or-last and joker.no-trumps.void-suit -------------------------------


def _overlay(tmp_path: Path, name: str = "on", **rules: object) -> Rules:
    """Australian with the joker's lead naming any suit, no nomination, and ``rules``."""
    no_trumps = {"lead": "name-any-suit", "nominate": "none", **rules}
    return overlay_rules(
        "australian", {"play": {"joker": {"no_trumps": no_trumps}}}, tmp_path, name
    )


#: Seat 1 holds the joker and plays 7NT; he has no spade, seat 3 no heart and no club.
FOL_SEATS = {
    1: "JK AC KC AH 5H 6H 4D 5D 6D 7D",
    2: "5C 6C 7C 8C 9C 10C JC QC 8D 9D",
    3: "5S 6S 7S 8S 9S 10S JS QS 10D JD",
    0: "KS AS 4H 7H 8H 9H JH QH KH QD",
    "kitty": "10H KD AD",
}
FOL_AUCTION = "7NT, pass, pass, pass, discard 10H KD AD"


def _joker_leads(state: HandState) -> set[str]:
    return {a for a in legal(state) if a.startswith("JK")}


def test_first_or_last_joker_lead_legal_actions_under_each_setting(tmp_path: Path) -> None:
    """Clause joker.no-trumps.first-or-last (a house rule; spec choice in joker-first-or-last):
    seat 1 leads AC, his first club, and wins; on lead again he holds KC, so JK:C would be
    neither his first club nor his last: it is refused with a sentence naming the seat, the
    lead and the rule, while JK:S, JK:D, JK:H stay open. Once KC is played the joker is his last
    club and JK:C is open again. With the option off (the default) every suit is open."""
    state = _hand(_overlay(tmp_path, first_or_last=True), FOL_AUCTION, FOL_SEATS)
    act(state, "AC, 5C, 5S, KS")
    assert state.to_move == 1
    assert _joker_leads(state) == {"JK:S", "JK:D", "JK:H"}
    with pytest.raises(IllegalActionError) as err:
        state.apply_str("JK:C")
    assert (err.value.seat, err.value.action) == (1, "JK:C")
    assert err.value.clause == "joker.no-trumps.first-or-last"
    assert "first or last card of clubs" in str(err.value)
    act(state, "KC, 6C, 6S, AS")
    assert state.to_move == 1 and "JK:C" in _joker_leads(state)
    off = _hand(_overlay(tmp_path, "off"), FOL_AUCTION, FOL_SEATS)
    act(off, "AC, 5C, 5S, KS")
    assert _joker_leads(off) == {"JK:S", "JK:C", "JK:D", "JK:H"}


def test_first_or_last_binds_a_nominated_joker_however_played(tmp_path: Path) -> None:
    """Clause joker.no-trumps.first-or-last for a joker nominated to hearts (G's nomination): it
    may be led as seat 1's first heart; once he has played 5H it may not be played to a heart
    lead while he holds 6H or AH (refused, naming the rule), nor led while he holds AH; with AH
    gone it is his last heart and he may lead it."""
    rules = _overlay(tmp_path, first_or_last=True, nominate="contractor")
    state = _hand(rules, FOL_AUCTION + ", nominate H", FOL_SEATS)
    act(state, "AC, 5C, 5S, KS")
    assert "JK" in legal(state)  # no heart played yet: it would be his first
    act(state, "5H, 8D, 7S, 7H, 8H")  # seat 0 wins with 7H and leads 8H
    assert legal(state) == ["6H", "AH"]
    with pytest.raises(IllegalActionError) as err:
        state.apply_str("JK")
    assert err.value.clause == "joker.no-trumps.first-or-last" and err.value.seat == 1
    act(state, "6H, 9D, 8S, 9H")
    assert legal(state) == ["AH"]
    act(state, "AH, 6C, 9S")
    assert state.to_move == 1 and "JK" in legal(state)


def test_void_suit_refuses_naming_a_suit_shown_void(tmp_path: Path) -> None:
    """Clause joker.no-trumps.void-suit (a house rule; spec choice in joker-first-or-last): seat
    1 discards 5D on seat 0's AS, showing himself void in spades; back on lead he may name
    clubs, diamonds or hearts for the joker but not spades: JK:S is refused with a sentence
    naming seat 1 and spades. With the option off he may name spades."""
    play = "AC, 5C, 5S, KS, 4D, 8D, 10D, QD, AS, 5D, 9D, 6S, 4H, AH, 6C, 7S"
    state = _hand(_overlay(tmp_path, lead_not_void=True), FOL_AUCTION, FOL_SEATS)
    act(state, play)
    assert state.to_move == 1 and state.shown_suits(1) == (0b1110, 0b0001)
    assert _joker_leads(state) == {"JK:C", "JK:D", "JK:H"}
    with pytest.raises(IllegalActionError) as err:
        state.apply_str("JK:S")
    assert (err.value.seat, err.value.clause) == (1, "joker.no-trumps.void-suit")
    assert "seat 1 has shown void in spades" in str(err.value)
    off = _hand(_overlay(tmp_path, "off"), FOL_AUCTION, FOL_SEATS)
    act(off, play)
    assert "JK:S" in _joker_leads(off)


def test_checked_and_fast_paths_agree_and_never_leave_a_seat_without_a_move(
    tmp_path: Path,
) -> None:
    """Every decision of random hands has a legal action under the joker rules, and the checked
    path (legal_actions + apply, every check) plays exactly the hands of the fast path
    (HandState.playout) from the same random stream: in joker-first-or-last, and with two jokers
    (australian-46 with first-or-last and void-suit), where a leader holding nothing but jokers
    may have shown void in every suit and joker.no-trumps.void-suit lapses for him."""
    two = overlay_rules(
        "australian-46",
        {"play": {"joker": {"no_trumps": {"first_or_last": True, "lead_not_void": True}}}},
        tmp_path,
        "two-jokers",
    )
    for rules in (rules_of("joker-first-or-last"), two):
        for seed in range(200):
            fast = HandState.new(rules, seed % 4, Random(seed))
            fast.playout(Random(seed + 1))
            checked = HandState.new(rules, seed % 4, Random(seed))
            rng = Random(seed + 1)
            while not checked.is_over:
                acts = checked.legal_actions()
                assert acts, (rules.variant, seed)
                checked.apply(acts[int(rng.random() * len(acts))])
            assert checked.tricks == fast.tricks and checked.result == fast.result, seed


def test_solver_lists_the_engine_play_actions_under_the_joker_rules() -> None:
    """The double-dummy solver (runtime/bots/solver.py) lists exactly the engine's play actions
    under first-or-last and void-suit in every position of random hands of joker-first-or-last,
    and what it computes is reached through legal actions only."""
    rules = rules_of("joker-first-or-last")
    checked = 0
    for seed in range(150):
        state = HandState.new(rules, seed % 4, Random(seed))
        rng = Random(seed)
        while not state.is_over:
            acts = state.legal_actions()
            if state.phase_name == "play":
                engine = [a for a in acts if a < rules.NOMINATE]
                assert Solver(state).legal_actions() == engine, (seed, state.n_tricks)
                checked += 1
            state.apply(acts[int(rng.random() * len(acts))])
    assert checked > 300


def _vectors(variant: str) -> list[dict[str, Any]]:
    path = ROOT / "generated" / "conformance" / f"{variant}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


@pytest.mark.parametrize(
    ("variant", "clause"),
    [
        ("joker-first-or-last", "joker.no-trumps.first-or-last"),
        ("joker-first-or-last", "joker.no-trumps.void-suit"),
    ],
)
def test_conformance_illegal_vector_and_cli_exit_2(
    variant: str, clause: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The house variant's conformance vectors hold an illegal joker lead citing each rule, and
    ``fivehundred replay`` of that record exits 2 with one line naming the action, the seat and
    the rule (INTERCHANGE.md, "Command line")."""
    vectors = [v for v in _vectors(variant) if v["expect"].get("error", {}).get("clause") == clause]
    assert vectors, clause
    error = vectors[0]["expect"]["error"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(vectors[0]["record"]), encoding="utf-8")
    code = main(["replay", str(path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert f"'{error['action']}'" in err[0] and f"[{clause}]" in err[0]
    assert "seat " in err[0] and "Traceback" not in err[0]


def test_conformance_vectors_play_the_low_joker() -> None:
    """low-joker-misere's conformance vectors include finished misères in which the low joker
    was played (clause joker.no-trumps.misere-low), so an outside engine's trick winners are
    checked against it."""
    assert any("joker.no-trumps.misere-low" in v["clauses"] for v in _vectors("low-joker-misere"))


@pytest.mark.parametrize("variant", ["low-joker-misere", "joker-first-or-last"])
def test_openspiel_and_pettingzoo_play_the_house_variants(variant: str) -> None:
    """OpenSpiel's random simulation test and PettingZoo's API test run on both house variants
    (their legal actions are the engine's)."""
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import fivehundred.openspiel  # noqa: F401  (registers the game)
    from fivehundred.pettingzoo import env

    game = pyspiel.load_game("python_fivehundred", {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    api_test(env(variant=variant), num_cycles=200)


def test_show_and_diff_list_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``fivehundred show`` and ``diff`` take the options from the registry: each house variant
    shows its option's label, and diff against australian names it."""
    for variant, label in (
        ("low-joker-misere", "joker lowest in a misère"),
        ("joker-first-or-last", "joker first or last card of its suit"),
        ("joker-first-or-last", "joker may not name a suit its holder showed void in"),
    ):
        assert main(["show", variant]) == 0
        assert label in capsys.readouterr().out, (variant, label)
        assert main(["diff", "australian", variant]) in (0, 1)
        assert label in capsys.readouterr().out, (variant, label)


@pytest.mark.parametrize("base", ["american", "australian-46", "three-handed"])
def test_compiled_engine_agrees_with_every_joker_rule_at_once(base: str, tmp_path: Path) -> None:
    """The three options together compose with each base's joker rules (American: nullo, no
    nomination; australian-46: two jokers, nomination, the black above the red; three-handed:
    one round, P's rules): the engine compiled in memory from the rule file plays exactly the
    checked path's actions, trick winners and points, in random hands and in every contract of
    the ladder (tests/test_engines.py's comparison)."""
    from test_engines import _disagreement

    from fivehundred.runtime.engine.fast import fast_engine

    rules = overlay_rules(
        base,
        {
            "play": {
                "joker": {
                    "no_trumps": {
                        "low_in_misere": True,
                        "first_or_last": True,
                        "lead_not_void": True,
                    }
                }
            }
        },
        tmp_path,
        f"all-{base}",
    )
    assert fast_engine(rules).generated
    problems = [_disagreement(rules, seed, None) for seed in range(150)]
    for bid in range(rules.n_bids):
        for k in range(3):
            seat = (bid + k) % rules.players
            problems.append(_disagreement(rules, 10_000 + 100 * k + bid, (seat, bid)))
    found = [p for p in problems if p is not None]
    assert not found, "\n".join(found[:5])


@pytest.mark.parametrize("bot_name", ["heuristic", "search:4"])
def test_bots_play_legal_moves_where_the_joker_rules_bind(bot_name: str) -> None:
    """The bots pick from the legal actions and the search bot's sampler and solver keep the
    new legality: from the positions where the conformance vectors show first-or-last and
    void-suit binding, and from a misère with the low joker on lead, each bot plays the hand out
    through the checked path (``apply`` raises on an illegal action)."""
    from fivehundred.runtime.bots.registry import make_bot
    from fivehundred.runtime.engine.records import replay

    starts = []
    for vector in _vectors("joker-first-or-last"):
        error = vector["expect"].get("error")
        if error and error["clause"] in (
            "joker.no-trumps.first-or-last",
            "joker.no-trumps.void-suit",
        ):
            record = vector["record"]
            starts.append(replay({**record, "actions": record["actions"][: error["index"]]}))
    assert len(starts) == 2
    starts.append(_hand(rules_of("low-joker-misere"), MISERE))
    bot = make_bot(bot_name)
    rng = Random(5)
    for state in starts:
        while not state.is_over:
            state.apply(bot.choose(state, rng))
