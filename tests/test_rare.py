"""Issue 19 §4: a rule a house file changes that the bots reached in under 1% of a study's hands
gets, in the rule book and in the balance report, a reason why (runtime/studies/rare.py): the
situation it governs is rare (with how often it arose), or the bots seldom choose it (with what
their model made of it). A rule reached in 1% of hands or more gets no such sentence."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from variant_helpers import deal_with, rules_of

from fivehundred.generated.rulesets import VARIANTS
from fivehundred.generator import balancebook
from fivehundred.generator.diff import changed_clauses
from fivehundred.generator.docs import render_markdown
from fivehundred.generator.pipeline import compile_spec, find_spec
from fivehundred.runtime.studies.balance import figures, run_study
from fivehundred.runtime.studies.balancereport import house_changes, text_report
from fivehundred.runtime.studies.rare import (
    CHOICE,
    RARE,
    REASONS,
    SITUATION,
    hand_situations,
    model_trials,
)


def _ruleset(variant: str) -> Any:
    return compile_spec(find_spec(variant))


def _rare_entries(variant: str, lang: str = "en") -> list[dict[str, Any]]:
    ctx = balancebook.book_context(_ruleset(variant), lang)
    assert ctx["state"] == "ok", variant
    return list(ctx["compare"]["rare"]) if ctx["compare"] else []


def _plain(text: str) -> str:
    """Markdown text as one line without the escapes a sentence gets in a book."""
    return re.sub(r"\\(.)", r"\1", " ".join(text.split()))


# -- the rule books (the committed summaries) -----------------------------------------------


def test_every_rare_changed_rule_of_a_built_in_book_says_why() -> None:
    """The "Done when" of issue 19 §4: every built-in house file's changed clause under 1% of
    its study's hands has a reason, each of both kinds appears, and the book prints it."""
    kinds: dict[str, set[str]] = {}
    for variant in VARIANTS:
        rare = _rare_entries(variant)
        if not rare:
            continue
        book = _plain(render_markdown(_ruleset(variant)))
        for r in rare:
            assert r["id"] in REASONS, f"{variant}: {r['id']} is rare and has no reason"
            assert r["why"] is not None, f"{variant}: {r['id']} is rare and says not why"
            kinds.setdefault(r["why"]["kind"], set()).add(r["id"])
            sentence = r["why"]["message"] % r["why"]["args"]
            assert _plain(sentence) in book, (variant, sentence)
    assert SITUATION in kinds and CHOICE in kinds, kinds


@pytest.mark.parametrize("kind", [SITUATION, CHOICE])
def test_a_reason_is_translated_in_every_book_language(kind: str) -> None:
    variant, entry = next(
        (v, r)
        for v in VARIANTS
        for r in _rare_entries(v)
        if r["why"] is not None and r["why"]["kind"] == kind
    )
    english = _plain(render_markdown(_ruleset(variant)))
    for lang in ("nl", "nb", "da", "ar", "pt"):
        (mine,) = [r for r in _rare_entries(variant, lang) if r["id"] == entry["id"]]
        assert mine["why"]["message"] == entry["why"]["message"]
        book = _plain(render_markdown(_ruleset(variant), lang))
        # the English sentence is not in the book, its numbers are (in the language's writing)
        assert _plain(entry["why"]["message"] % entry["why"]["args"]) not in book, lang
        assert _plain(entry["why"]["message"] % entry["why"]["args"]) in english
        for number in mine["why"]["args"].values():
            assert number in book, (lang, number)


def test_a_rule_reached_in_one_percent_of_hands_gets_no_reason() -> None:
    """The threshold: the same summary with the rule's count raised to 1% of its hands."""
    variant = next(v for v in VARIANTS if any(r["why"] for r in _rare_entries(v)))
    rs = _ruleset(variant)
    data = balancebook.load_summary(variant)
    assert data is not None
    clauses = [c["id"] for c in rs.clauses]
    changed = set(rs.differences)
    rules = balancebook._rules(rs)
    rare = balancebook._rare(data, clauses, changed, "en", lambda: rules)
    assert rare
    raised = copy.deepcopy(data)
    for r in rare:
        fig = raised["figures"]["clauses"][r["id"]]
        fig["k"] = -(-fig["n"] * int(RARE * 100) // 100)  # the least count at 1%
    assert balancebook._rare(raised, clauses, changed, "en", lambda: rules) == []
    raised["figures"]["clauses"][rare[0]["id"]]["k"] -= 1
    (back,) = balancebook._rare(raised, clauses, changed, "en", lambda: rules)
    assert back["id"] == rare[0]["id"] and back["why"] == rare[0]["why"]


# -- the report --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "house", "kind"),
    [("australian", "joker-first-or-last", SITUATION), ("australian", "both-hands-misere", CHOICE)],
)
def test_the_report_says_why_a_changed_rule_is_rare(base: str, house: str, kind: str) -> None:
    """A small study with the heuristic: every changed clause under 1% of a variant's hands
    has the reason beside its warning (of the expected kind for the rule this house file
    makes rare), and a clause at 1% or more has neither."""
    studies = run_study([rules_of(base), rules_of(house)], 6, seed=1, workers=1)
    changed = changed_clauses(_ruleset(base), _ruleset(house))
    rows = house_changes(studies, changed)
    seen = set()
    for row in rows:
        for variant, acted in row["acted"].items():
            rare = acted["n"] and acted["k"] < RARE * acted["n"]
            if not rare or row["clause"] not in REASONS:
                assert variant not in row["why"], row
                continue
            why = row["why"][variant]
            seen.add(why["kind"])
            assert why["text"] in row["note"]
    assert kind in seen, rows
    text = text_report(studies, changed)
    for row in rows:
        for why in row["why"].values():
            assert why["text"] in text


def test_the_situation_count_bounds_the_claims_and_is_read_from_the_deal() -> None:
    """No ace, no face: a hand is counted when a seat was dealt none of the cards that bar the
    claim, so every redeal claimed is among them; the reason quotes that count."""
    rules = rules_of("no-ace-no-face")
    plain = [c for c in range(rules.n_cards) if not rules.face_mask >> c & 1]
    low = " ".join(rules.deck[c] for c in plain[: rules.hand_size])
    st = deal_with(rules, fixed={1: low})
    assert "auction.no-ace-no-face" in hand_situations(st)
    aces = [rules.deck[c] for c in rules.face_cards[: rules.players]]
    with_face = deal_with(rules, fixed=dict(enumerate(aces)))
    assert all(h & rules.face_mask for h in with_face.hands)
    assert hand_situations(with_face) == set()
    (study,) = run_study([rules], 25, seed=3, workers=1)
    figs = figures(study)
    dealt = figs["situations"]["auction.no-ace-no-face"]
    claimed = figs["clauses"]["auction.no-ace-no-face"]
    assert claimed.k <= dealt.k and dealt.n == claimed.n == study.tally.hands
    assert dealt.k > 0


def test_model_trials_only_for_the_heuristic() -> None:
    rules = rules_of("both-hands-misere")
    assert model_trials(rules, ("random",)) == {}
    trials = model_trials(rules, ("heuristic",))
    clauses = {rules.bid_clause[i] for i in range(rules.n_bids) if rules.bid_kind[i] == "misere"}
    assert trials and {t["clause"] for t in trials.values()} <= clauses
    assert all(0 <= t["made"] <= t["n"] for t in trials.values())
