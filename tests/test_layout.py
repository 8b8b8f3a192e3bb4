"""The layers of the package, as its folders show them (README, "Layout").

Each layer imports only the layers below it: the engine (tables, rules, hand, game, records,
errors) imports nothing else of the package, in particular nothing of the generator; the bots
build on the engine; the studies on the engine and the bots; the adapters on those and on
``runtime/loading.py`` (the one way from the runtime into the generator); the command line on
everything. The generator uses only the engine's table format and errors and the shared file
and text helpers. Read from the source (every ``import``, at any depth), so a lazy import inside
a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The helpers every layer above the engine may use: files, text for terminals, transactions.
SHARED = {"runtime.files", "runtime.terminal", "runtime.transaction"}
#: Package of each folder, and the packages each may import (itself and SHARED always).
LAYERS: dict[str, set[str]] = {
    "runtime.engine": set(),
    "runtime.bots": {"runtime.engine"},
    # the balance report escapes Markdown as the rule books do (generator.docs.md_text)
    "runtime.studies": {"runtime.engine", "runtime.bots", "generator.docs"},
    "runtime.adapters": {"runtime.engine", "runtime.bots", "runtime.loading", "runtime.studies"},
    # the server (fivehundred serve) compiles house files, finds the books and reads the
    # catalogues through the generator, as the command line does
    "runtime.server": {
        "runtime.engine", "runtime.bots", "runtime.studies", "runtime.loading", "generator",
    },
    "runtime.cli": {
        "runtime.engine", "runtime.bots", "runtime.studies", "runtime.adapters",
        "runtime.loading", "runtime.server", "runtime.native", "generator",
    },
    # the build writes the conformance vectors by replaying hands on the engine
    "generator": {"runtime.engine", "runtime.studies", "runtime.adapters.conformance"},
}  # fmt: skip


def _package_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts[:-1])


def _imports(path: Path) -> set[str]:
    """Absolute names (below ``fivehundred``) of every package module ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package_of(path).split(".")
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            elif node.module and node.module.startswith("fivehundred."):
                name = node.module.removeprefix("fivehundred.")
            else:
                continue
            found.add(name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("fivehundred."):
                    found.add(alias.name.removeprefix("fivehundred."))
    return found


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).glob("*.py"))


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_layer_imports_only_the_layers_below(package: str) -> None:
    allowed = {package, *LAYERS[package], *(set() if package == "runtime.engine" else SHARED)}
    wrong = []
    for path in _files(package):
        for name in sorted(_imports(path)):
            if not any(name == a or name.startswith(a + ".") for a in allowed):
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not wrong, "\n".join(wrong)


def test_every_runtime_module_is_in_a_layer() -> None:
    """No module lies loose in runtime/ but the shared helpers, the loader and the guard of
    the compiled build (``native``: the package's import installs it)."""
    loose = {p.stem for p in (ROOT / "runtime").glob("*.py")}
    assert loose == {"__init__", "files", "loading", "native", "terminal", "transaction"}, loose
    folders = {p.name for p in (ROOT / "runtime").iterdir() if p.is_dir() and p.name[0] != "_"}
    assert {f"runtime.{f}" for f in folders} - {"runtime.__pycache__"} <= set(LAYERS)


def test_every_test_module_is_in_a_group() -> None:
    """README "Tests": every test module is in one group (generator, runtime or e2e) of
    tests/conftest.py's GROUPS, so that `-m runtime` and the others run all of their tests."""
    from conftest import GROUPS

    modules = {p.name for p in (ROOT / "tests").glob("test_*.py")}
    assert modules - set(GROUPS) == set()
    assert set(GROUPS.values()) == {"generator", "runtime", "e2e"}
