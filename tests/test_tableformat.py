"""The table format defined once (runtime/engine/tableformat.py): the generator derives, the
engine reads.

The derived tables are checked against the rules they spell out (deal.packets and
deal.rotation, the effective suits of trump.order / trump.left-bower / joker.no-trumps.*, the
nominated joker of joker.no-trumps.nominate, the auction conditions of auction.misere,
auction.blind-misere and auction.inkles), on the built-in variants of sources G, T and P.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from fivehundred.generator.model import build_ruleset
from fivehundred.generator.options import with_defaults
from fivehundred.runtime.engine.codes import bits
from fivehundred.runtime.engine.errors import ArgumentError
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.engine.tableformat import FORMAT

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = sorted(
    p.stem for p in (ROOT / "generated" / "json").glob("*.json") if p.stem != "ruleset.schema"
)


def exported(variant: str) -> dict[str, Any]:
    """A variant's tables as an engine in another language reads them: the JSON export."""
    data: dict[str, Any] = json.loads(
        (ROOT / "generated" / "json" / f"{variant}.json").read_text("utf-8")
    )
    return data


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_json_export_is_the_module_and_rules_read_it(variant: str) -> None:
    """The JSON export and the generated module hold the same tables (integers exact, masks
    beyond 2**53 included), and Rules built from either reads the same rules."""
    data = exported(variant)
    data.pop("$schema")
    module = Rules.builtin(variant)
    assert json.loads(json.dumps(module.tables)) == data
    from_json = Rules(data)  # type: ignore[arg-type]
    assert from_json.masks == module.masks and from_json.deal_order == module.deal_order


@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_order_spells_out_the_packets(variant: str) -> None:
    """deal.packets / deal.rotation: for every dealer, packet by packet clockwise from the
    dealer's left; every seat gets hand_size cards, the kitty and dead hand theirs."""
    r = Rules.builtin(variant)
    n = r.players
    for dealer, order in enumerate(r.deal_order):
        assert len(order) == r.n_cards
        k = 0
        for to, count in r.packets:
            if to == "players":
                for step in range(1, n + 1):
                    assert order[k : k + count] == ((dealer + step) % n,) * count
                    k += count
            else:
                assert order[k : k + count] == ((n if to == "kitty" else n + 1),) * count
                k += count
        assert [order.count(seat) for seat in range(n)] == [r.hand_size] * n
        assert order.count(n) == r.kitty and order.count(n + 1) == r.dead_hand


@pytest.mark.parametrize("variant", VARIANTS)
def test_suit_masks_are_the_effective_suits(variant: str) -> None:
    """trump.left-bower, joker.trump, joker.no-trumps.*: mask s of strain i holds exactly the
    cards whose suit_of is s; the five masks partition the deck."""
    r = Rules.builtin(variant)
    for strain in range(5):
        masks = r.masks[strain]
        for s in range(5):
            assert list(bits(masks[s])) == [
                c for c in range(r.n_cards) if r.suit_of[strain][c] == s
            ]
        assert sum(masks) == (1 << r.n_cards) - 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_jokers_and_restricted_bids(variant: str) -> None:
    """deck.joker: joker indices and mask; auction.misere / auction.blind-misere /
    auction.inkles: the bids a condition can bar, and no other."""
    r = Rules.builtin(variant)
    jokers = r.tables["jokers"]
    assert tuple(r.deck[c] for c in r.joker_cards) == tuple(jokers)
    assert r.joker_mask == sum(1 << c for c in r.joker_cards)
    inkle = r.inkles[1] if r.inkles else None
    expected = [
        i for i in range(r.n_bids) if r.bid_after[i] or r.bid_blind[i] or r.bid_level[i] == inkle
    ]
    assert list(r.restricted_bids) == expected


def test_american_inkles_restrict_the_six_level() -> None:
    """auction.inkles (source T, American): every 6-level bid is restricted, nothing else."""
    r = Rules.builtin("american")
    assert [r.bid_codes[i] for i in r.restricted_bids] == ["6S", "6C", "6D", "6H", "6NT"]


def test_two_nominated_jokers_sit_above_the_ace_black_highest() -> None:
    """joker.no-trumps.nominate: a nominated joker has power 99 (the black one when both are
    in) and 98 (the red), above the ace (16) and below every trump (101+)."""
    data = yaml.safe_load((ROOT / "specs" / "variants" / "australian.yaml").read_text("utf-8"))
    data["deck"]["jokers"] = ["JK", "BJ"]
    data["deal"]["packets"] = None
    data["deal"]["kitty"] = 4
    rs = build_ruleset(with_defaults(data))
    assert rs.nominated_power == (98, 99)
    assert max(max(p for p in power if p < 100) for power in rs.power) == 16
    assert Rules.builtin("australian").nominated_power == (99,)


def test_masks_beyond_2_53_survive_json() -> None:
    """Six-handed has 63 cards: its masks need 63 bits, and the export keeps them exact."""
    data = exported("six-handed")
    top = max(max(masks) for masks in data["derived"]["suit_masks"])
    assert top > 2**53
    assert Rules(data).masks == Rules.builtin("six-handed").masks  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [1, 3, None, "2"])
def test_an_engine_refuses_a_format_it_does_not_know(bad: Any) -> None:
    tables: Any = copy.deepcopy(Rules.builtin("australian").tables)
    tables["format"] = bad
    with pytest.raises(ArgumentError, match=f"this engine reads format {FORMAT}"):
        Rules(tables)


def test_a_format_1_module_is_refused_not_misread() -> None:
    """FORMAT 1 had no `derived`: its tables get a sentence, not a KeyError."""
    tables: Any = copy.deepcopy(Rules.builtin("australian").tables)
    tables["format"] = 1
    del tables["derived"]
    with pytest.raises(ArgumentError, match="format 1"):
        Rules(tables)
    with pytest.raises(ArgumentError):
        Rules([])  # type: ignore[arg-type]


@pytest.mark.skipif(shutil.which("mypy") is None, reason="mypy is a dev extra")
def test_mypy_rejects_a_misspelt_option_value(tmp_path: Path) -> None:
    """Option values are Literal types: comparing one with a value it cannot have is a mypy
    error under --strict (strict equality), so a typo in the engine cannot pass CI."""
    package = tmp_path / "fivehundred"  # the package layout, as pyproject's package-dir maps it
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "runtime").symlink_to(ROOT / "runtime", target_is_directory=True)
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from fivehundred.runtime.engine.rules import Rules\n\n\n"
        "def f(r: Rules) -> bool:\n"
        '    return r.procedure == "round" or r.both_out == "contractor"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            *(sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent"),
            *("--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(probe)),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Non-overlapping equality check" in done.stdout
    assert "Literal['round']" in done.stdout and "contractor" not in done.stdout


def test_the_engine_reads_the_format_without_the_generator() -> None:
    """One direction only: the engine (rules, hand, the format) imports nothing of the
    generator, which imports the format from the runtime."""
    code = (
        "import sys, fivehundred.runtime.engine.rules, fivehundred.runtime.engine.hand, "
        "fivehundred.runtime.engine.tableformat\n"
        "bad = sorted(m for m in sys.modules if m.startswith('fivehundred.generator'))\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    import fivehundred.generator.model as model

    assert model.FORMAT is FORMAT


@pytest.mark.parametrize("variant", ["australian", "five-handed-call", "double-nullo"])
def test_a_rule_file_loads_as_the_tables_its_module_holds(variant: str) -> None:
    """A rule file played straight from its YAML (``load_rules(path)``, compiled in memory) has
    the very tables of its committed generated module: one format, whichever way it is read."""
    from fivehundred.runtime.loading import load_rules

    spec = next((ROOT / "specs" / "variants").rglob(f"{variant}.yaml"))
    from_file = load_rules(str(spec))
    built = Rules.builtin(variant)
    assert type(from_file) is Rules
    assert json.dumps(from_file.tables) == json.dumps(built.tables)
