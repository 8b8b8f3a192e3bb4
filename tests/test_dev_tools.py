"""The developer tooling: the package mapping mypy checks, the pre-commit hooks, what CI runs."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import yaml

ROOT = Path(__file__).resolve().parent.parent


def typecheck_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / ".ci" / "typecheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mypy_checks_every_module_under_its_import_name() -> None:
    """.ci/typecheck.py reads pyproject's package-dir: each file of the checked packages once,
    named as Python imports it (the name resolves to that very file)."""
    sources = typecheck_module().package_sources(ROOT / "pyproject.toml")
    names = {s.module: ROOT / str(s.path) for s in sources}
    assert len(names) == len(sources)
    for folder, package in (
        ("runtime", "fivehundred.runtime"),
        ("generator", "fivehundred.generator"),
    ):
        for path in (ROOT / folder).glob("*.py"):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            assert names.get(name) == path, name
    assert names["fivehundred"] == ROOT / "runtime" / "_pkg" / "__init__.py"
    for name in ("fivehundred.runtime.engine.hand", "fivehundred.generator.build", "fivehundred"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None
        assert Path(spec.origin).resolve() == names[name].resolve()


def test_the_package_ships_its_types() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    assert "py.typed" in setuptools["package-data"]["fivehundred"]
    assert (ROOT / setuptools["package-dir"]["fivehundred"] / "py.typed").is_file()


def test_pre_commit_hooks_run_the_checks_ci_runs() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    assert set(hooks) >= {"ruff", "ruff-format", "mypy", "fivehundred-validate"}
    assert (
        hooks["ruff-format"]["entry"].startswith("ruff format")
        and "--check" in hooks["ruff-format"]["entry"]
    )
    assert hooks["mypy"]["entry"] == "bash .ci/typecheck"
    assert "specs/variants" in hooks["fivehundred-validate"]["files"]
    bin_dir = Path(sys.executable).parent
    for hook in hooks.values():
        command = hook["entry"].split()[0]
        assert (bin_dir / command).exists() or shutil.which(command), command


def test_ci_lints_formats_and_type_checks() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command in ("ruff check .", "ruff format --check .", "bash .ci/typecheck"):
        assert f"\n{command}\n" in ci, command
