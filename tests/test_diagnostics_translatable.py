"""Every diagnostic a broken rule file gets is translatable (issue 20 §2).

Each case is a broken house file chosen to reach one of the checks (the YAML loader, extends
and its merge directives, the schema, the semantic checks, the variant id and the choices'
clauses, and the stale-prose warnings). Every diagnostic it produces must keep its template
(a :class:`~fivehundred.runtime.engine.messages.Phrase`), render unchanged in English and
differently in Dutch: a message written as a plain f-string again fails here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fivehundred.generator.i18n import load_translations
from fivehundred.generator.pipeline import check_spec, find_spec
from fivehundred.generator.schemacheck import check_schema
from fivehundred.generator.yamlload import load_yaml
from fivehundred.runtime.engine.errors import Diagnostic, SpecError

#: Special bids that replace australian's (``replace:``), then the entries of a case.
SPECIALS = "extends: australian\nauction:\n  ladder:\n    special:\n      replace:\n"

#: name -> (file name, text): each one must fail with at least one diagnostic.
CASES: dict[str, tuple[str, str]] = {
    "same meaning": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, kind: misere, value: 250, above: 7NT}\n"
        "        - {bid: MIS2, kind: misere, value: 250, above: MIS}\n",
    ),
    "reads as an action": (
        "house.yaml",
        SPECIALS + "        - {bid: PASS, value: 100, above: 6S}\n",
    ),
    "a card's code": ("house.yaml", SPECIALS + "        - {bid: AS, value: 100, above: 6S}\n"),
    "defined twice": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 250, above: 7NT}\n"
        "        - {bid: MIS, value: 100, above: 6S}\n",
    ),
    "placed above an unknown bid": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 250, above: 7NT}\n"
        "        - {bid: OMIS, value: 500, above: MSI}\n"
        "        - {bid: BMIS, value: 500, above: ZZZZZZ}\n",
    ),
    "two above one bid": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 250, above: 7NT}\n"
        "        - {bid: OMIS, value: 500, above: 7NT}\n",
    ),
    "the base's bid already sits there": (
        "house.yaml",
        "extends: australian\nauction:\n  ladder:\n    special:\n"
        "      - {bid: NEW, kind: misere, open: from-start, value: 300, above: 7NT}\n",
    ),
    "a circle": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 250, above: OMIS}\n"
        "        - {bid: OMIS, value: 500, above: MIS}\n",
    ),
    "above itself": ("house.yaml", SPECIALS + "        - {bid: MIS, value: 250, above: MIS}\n"),
    "worth less than the bid below": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 100, above: 7NT}\n",
    ),
    "never bid, below its level": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 250, above: 7NT, available: {after_bid_of: 8}}\n",
    ),
    "never bid, no such level": (
        "house.yaml",
        SPECIALS + "        - {bid: OMIS, open: from-start, value: 500, above: 10D,"
        " available: {after_bid_of: 11}}\n",
    ),
    "open misère after 8": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, value: 250, above: 7NT}\n"
        "        - {bid: OMIS, open: from-start, value: 500, above: 10D,"
        " available: {after_bid_of: 8}}\n",
    ),
    "open misère after 8, no plain misère": (
        "house.yaml",
        SPECIALS + "        - {bid: OMIS, open: from-start, value: 500, above: 10D,"
        " available: {after_bid_of: 8}}\n",
    ),
    "inkles in rounds": (
        "house.yaml",
        "extends: australian\nteams: none\nauction:\n  inkles: {bidders: 2, level: 6}\n",
    ),
    "inkles leave nobody": (
        "house.yaml",
        "extends: australian\nauction:\n  procedure: single-round\n"
        "  inkles: {bidders: 4, level: 5}\n",
    ),
    "sans-kitty without taking it": (
        "house.yaml",
        "extends: australian\nauction:\n  sans_kitty: {bonus: 50}\nkitty: {take: false}\n",
    ),
    "misère partner without partners": (
        "house.yaml",
        "extends: australian\nteams: none\nplay: {misere_partner: both-hands}\nauction:\n"
        "  ladder:\n    special:\n      - {bid: MIS, value: 250, above: 7NT, partner: plays}\n",
    ),
    "slam and freeze": (
        "house.yaml",
        "extends: australian\nscoring:\n  slam: {value: 250, below: 40}\n"
        "  opponents_freeze_at: 500\n",
    ),
    "a threshold without its score": (
        "house.yaml",
        "extends: australian\nscoring:\n  freeze: threshold\n",
    ),
    "a freeze without a target": (
        "house.yaml",
        "extends: australian\nscoring: {opponents_freeze_at: 400}\nend: {target: null}\n",
    ),
    "lose_at at once": ("house.yaml", "extends: australian\nend: {lose_at: 0}\n"),
    "out_backwards alone": (
        "house.yaml",
        "extends: australian\nend: {lose_at: null, out_backwards: cannot-win}\n",
    ),
    "nobody can win": (
        "house.yaml",
        "extends: australian\nauction:\n  ladder:\n    levels: {from: 6, to: 6}\n"
        "    special: []\nscoring:\n  slam: {value: 0}\n"
        "  table: {S: [-50], C: [-40], D: [-30], H: [-20], NT: [-10]}\n",
    ),
    "nothing scores": (
        "house.yaml",
        "extends: australian\nauction:\n  ladder:\n    levels: {from: 6, to: 6}\n"
        "    special: []\nscoring:\n  slam: {value: 0}\n"
        "  table: {S: [-50], C: [-40], D: [-30], H: [-20], NT: [-10]}\n"
        "  opponents_per_trick: 0\nend: {must_bid_to_win: false}\n",
    ),
    "an option that needs another": (
        "house.yaml",
        "extends: australian\nauction: {procedure: single-round, bid_after_pass: always}\n",
    ),
    "replace on a list merged as a whole": (
        "house.yaml",
        "extends: australian\ndeck:\n  jokers:\n    replace: [JK]\n",
    ),
    "remove inside replace": (
        "house.yaml",
        SPECIALS + "        - {bid: MIS, remove: true}\n",
    ),
    "remove with more keys": (
        "house.yaml",
        "extends: australian\nauction:\n  ladder:\n    special:\n"
        "      - {bid: MIS, remove: true, value: 3}\n",
    ),
    "directives without a base": (
        "house.yaml",
        "id: lonely\nauction:\n  ladder:\n    special:\n      replace: []\n"
        "choices:\n  - {clause: auction.misere, remove: true}\n",
    ),
    "an empty name": ("house.yaml", "extends: australian\nname: ''\n"),
    "a file name that is no id": ("My House.yaml", "extends: australian\n"),
    "a built-in's id": ("house.yaml", "extends: australian\nid: australian\n"),
    "a long id": ("house.yaml", f"extends: australian\nid: {'a' * 65}\n"),
    "a choice citing no clause": (
        "house.yaml",
        "extends: australian\nchoices:\n  - {clause: auction.inkles, source: G, text: x}\n",
    ),
    "an invalid character": ("house.yaml", "extends: australian\nname: \x07\n"),
}


def translatable(found: list[Diagnostic]) -> None:
    """Every diagnostic of ``found`` keeps its template, in English and in Dutch."""
    dutch = load_translations("nl")
    assert found
    for d in found:
        assert d.template is not None, f"not translatable: {d}"
        assert d.text() == str(d.message), d
        assert d.text(dutch) != d.text(), f"not translated into Dutch: {d}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_diagnostic_of_a_broken_file_is_translatable(tmp_path: Path, case: str) -> None:
    name, text = CASES[case]
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        check_spec(path)
    translatable(list(caught.value.diagnostics))


@pytest.mark.parametrize("name", ["missing.yaml", "australain", "nowhere/house.yaml"])
def test_a_rule_file_not_found_is_translatable(name: str) -> None:
    with pytest.raises(SpecError) as caught:
        find_spec(name)
    translatable(list(caught.value.diagnostics))


def test_the_stale_prose_warnings_are_translatable(tmp_path: Path) -> None:
    """A house file changing the rules its inherited choices and summary explain."""
    path = tmp_path / "house.yaml"
    path.write_text(
        "extends: australian\nauction:\n  raise_own_bid: true\n  ladder:\n    special:\n"
        "      - {bid: BMIS, remove: true}\n",
        encoding="utf-8",
    )
    warnings = list(check_spec(path).warnings)
    assert any("summary" in w.message for w in warnings), warnings
    assert sum("choice for clause" in w.message for w in warnings) == 2, warnings
    translatable(warnings)


def test_the_schema_keywords_no_variant_uses_yet_are_translatable() -> None:
    """multipleOf, a pattern without plain words, min/maxLength, min/maxProperties."""
    schema = {
        "type": "object",
        "properties": {
            "step": {"multipleOf": 5},
            "code": {"type": "string", "pattern": "^[A-Z]+$", "maxLength": 3},
            "name": {"type": "string", "minLength": 2},
            "few": {"type": "object", "maxProperties": 1},
            "many": {"type": "object", "minProperties": 2},
        },
    }
    text = "step: 7\ncode: abcd\nname: x\nfew: {a: 1, b: 2}\nmany: {a: 1}\n"
    data, marks = load_yaml(text, "keywords.yaml")
    found = check_schema(data, marks, schema)
    assert {d.line for d in found} == {1, 2, 3, 4, 5}, found
    assert len(found) == 6, found  # the code breaks both its pattern and its length
    translatable(found)
