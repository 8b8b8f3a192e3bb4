"""A build that fails or is interrupted leaves generated/ byte for byte as it was.

Every test builds into a temporary copy of generated/ (``build(root=...)``), never the real one.
Most tests replace ``plan_outputs`` by its result computed once, so that they exercise the
commit (runtime/transaction.py ``commit_files``) many times cheaply.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fivehundred.generator import build as build_mod
from fivehundred.generator.build import GENERATED_DIR, LOCK_NAME, build
from fivehundred.generator.buildcache import OWNED
from fivehundred.runtime import transaction
from fivehundred.runtime.engine.errors import FileError, SpecError

PREFIX = ".fivehundred-build-"


@pytest.fixture(scope="module")
def plan() -> dict[str, str]:
    """What the build produces (computed once for the module)."""
    return build_mod.plan_outputs()


@pytest.fixture()
def cached_plan(monkeypatch: pytest.MonkeyPatch, plan: dict[str, str]) -> dict[str, str]:
    monkeypatch.setattr(build_mod, "plan_outputs", lambda: dict(plan))
    return plan


def snapshot(root: Path) -> dict[str, Any]:
    """Every file's SHA-256 and mode, and every folder, under ``root``."""
    files: dict[str, tuple[str, int]] = {}
    folders: list[str] = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if "__pycache__" in path.parts or path.name == LOCK_NAME:
            continue
        if path.is_dir():
            folders.append(rel)
        else:
            files[rel] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mode)
    return {"files": files, "folders": folders}


def strays(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(PREFIX + "*"))


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A copy of generated/ (without caches)."""
    root = tmp_path / "generated"
    shutil.copytree(GENERATED_DIR, root, ignore=shutil.ignore_patterns("__pycache__", LOCK_NAME))
    return root


@pytest.fixture()
def stale_tree(tree: Path, cached_plan: dict[str, str]) -> tuple[Path, int]:
    """An up-to-date copy, then made stale: files changed, deleted, and a file no build makes.

    Returns the root and how many files the next build replaces.
    """
    build(root=tree)
    assert not build(check=True, root=tree).changed
    rels = sorted(cached_plan)
    for rel in rels[::9]:
        (tree / rel).write_bytes((tree / rel).read_bytes() + b"\nstale\n")
    for rel in rels[4::15]:
        (tree / rel).unlink()
    (tree / "json" / "gone.json").write_text("{}\n")
    (tree / "docs" / "old").mkdir(parents=True, exist_ok=True)
    (tree / "docs" / "old" / "book.md").write_text("# old\n")
    report = build(check=True, root=tree)
    assert report.removed == ("docs/old/book.md", "json/gone.json")
    assert len(report.written) >= 10
    return tree, len(report.written)


class Boom(OSError):
    """The injected failure."""


def fail_on_call(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    k: int,
    error: Callable[[], BaseException] = lambda: Boom("injected failure"),
    *,
    from_then_on: bool = False,
    only: Callable[..., bool] = lambda *args: True,
) -> list[int]:
    """Make ``os.<name>`` raise on its k-th call (matching ``only``), or on every call from the
    k-th on. Returns a one-item list counting the calls."""
    real = getattr(os, name)
    calls = [0]

    def fake(*args: Any, **kwargs: Any) -> Any:
        if only(*args):
            calls[0] += 1
            if calls[0] == k or (from_then_on and calls[0] >= k):
                raise error()
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, fake)
    return calls


def test_a_clean_build_then_check(stale_tree: tuple[Path, int], plan: dict[str, str]) -> None:
    root, _ = stale_tree
    report = build(root=root)
    assert report.removed == ("docs/old/book.md", "json/gone.json")
    assert not build(check=True, root=root).changed
    for rel, text in plan.items():
        assert (root / rel).read_bytes() == text.encode("utf-8"), rel
    assert strays(root) == []


def test_replace_failing_on_any_call_rolls_back(
    stale_tree: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, n = stale_tree
    before = snapshot(root)
    for k in range(1, n + 1):
        with monkeypatch.context() as m:
            fail_on_call(m, "replace", k)
            with pytest.raises(FileError, match="injected failure"):
                build(root=root)
        assert snapshot(root) == before, f"replace #{k} of {n} failed and changed the tree"
        assert strays(root) == []
    with monkeypatch.context() as m:
        calls = fail_on_call(m, "replace", n + 1)
        build(root=root)
    assert calls[0] == n
    assert not build(check=True, root=root).changed


def test_replace_failing_for_good_still_rolls_back(
    stale_tree: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every os.replace from the k-th on fails, the rollback's own included: it copies."""
    root, n = stale_tree
    before = snapshot(root)
    for k in (1, 2, n // 2, n):
        with monkeypatch.context() as m:
            fail_on_call(m, "replace", k, from_then_on=True)
            with pytest.raises(FileError, match="injected failure"):
                build(root=root)
        assert snapshot(root) == before, k
        assert strays(root) == []


def test_removal_failing_rolls_back(
    stale_tree: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = stale_tree
    before = snapshot(root)
    targets = {str(root / "docs/old/book.md"), str(root / "json/gone.json")}
    for k in (1, 2):
        with monkeypatch.context() as m:
            fail_on_call(m, "unlink", k, only=lambda path, *a: str(path) in targets)
            with pytest.raises(FileError, match="injected failure"):
                build(root=root)
        assert snapshot(root) == before, k
        assert strays(root) == []


def test_staging_failure_writes_nothing(
    stale_tree: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, n = stale_tree
    before = snapshot(root)
    for k in (1, n // 2, n):
        with monkeypatch.context() as m:
            fail_on_call(m, "fsync", k)
            with pytest.raises(FileError, match="injected failure"):
                build(root=root)
        assert snapshot(root) == before, k
        assert strays(root) == []


def test_new_folders_are_removed_on_rollback(
    tree: Path, monkeypatch: pytest.MonkeyPatch, plan: dict[str, str]
) -> None:
    extra = {**plan, "docs/zz/deep/book.md": "# new\n"}
    monkeypatch.setattr(build_mod, "plan_outputs", lambda: dict(extra))
    before = snapshot(tree)
    written = build(check=True, root=tree).written
    with monkeypatch.context() as m:
        fail_on_call(m, "replace", len(written))
        with pytest.raises(FileError, match="injected failure"):
            build(root=tree)
    assert snapshot(tree) == before
    assert not (tree / "docs" / "zz").exists()


def test_keyboard_interrupt_during_the_replace_phase_rolls_back(
    stale_tree: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, n = stale_tree
    before = snapshot(root)
    for k in (1, n // 2, n):
        with monkeypatch.context() as m:
            fail_on_call(m, "replace", k, KeyboardInterrupt)
            with pytest.raises(KeyboardInterrupt):
                build(root=root)
        assert snapshot(root) == before, k
        assert strays(root) == []


def test_sigint_is_held_until_a_clean_rollback(
    stale_tree: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real SIGINT in the middle of the renames (twice: the second one during the
    rollback) ends the build with KeyboardInterrupt and the tree as it was."""
    root, n = stale_tree
    before = snapshot(root)
    real = os.replace
    calls = [0]

    def replace_and_interrupt(src: Any, dst: Any) -> None:
        calls[0] += 1
        if calls[0] in (n // 2, n // 2 + 1):
            os.kill(os.getpid(), signal.SIGINT)
        real(src, dst)

    previous = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(os, "replace", replace_and_interrupt)
    with pytest.raises(KeyboardInterrupt):
        build(root=root)
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is previous
    assert snapshot(root) == before
    assert strays(root) == []


def test_a_spec_error_anywhere_writes_nothing(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variants = tmp_path / "variants"
    variants.mkdir()
    shutil.copy(build_mod.VARIANTS_DIR / "australian.yaml", variants / "australian.yaml")
    (variants / "zz-broken.yaml").write_text("extends: australian\ndeal: {kitty: 5}\n")
    monkeypatch.setattr(build_mod, "VARIANTS_DIR", variants)
    for rel in ("rulesets/australian.py", "json/australian.json"):
        (tree / rel).write_text("stale\n")
    before = snapshot(tree)
    with pytest.raises(SpecError) as info:
        build(root=tree)
    assert any("zz-broken.yaml:2:" in str(d) for d in info.value.diagnostics)
    assert snapshot(tree) == before


def test_a_render_error_writes_nothing(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tree / "rulesets" / "australian.py").write_text("stale\n")
    before = snapshot(tree)
    real = build_mod.render_json
    calls = [0]

    def render_json_then_fail(rs: Any) -> str:
        calls[0] += 1
        if calls[0] == 2:
            raise RuntimeError("renderer broke")
        return real(rs)

    monkeypatch.setattr(build_mod, "render_json", render_json_then_fail)
    with pytest.raises(RuntimeError, match="renderer broke"):
        build(root=tree)
    assert snapshot(tree) == before


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(proc.stdout)


def test_strays_of_a_killed_build_are_ignored_by_check_and_swept(
    tree: Path, cached_plan: dict[str, str]
) -> None:
    """Issue 9: the sweep removes only temporaries of ours (prefix, pid, token) whose build is
    dead; a user's files with the same prefix, and a live build's temporaries, stay."""
    build(root=tree)
    pid = dead_pid()
    planted = [
        tree / f"{PREFIX}{pid}-0123456789ab",
        tree / "rulesets" / f"{PREFIX}{pid}-abcdefabcdef",
        tree / "docs" / "en" / f"{PREFIX}{pid}-00000000000f.bak",
    ]
    kept = [
        tree / f"{PREFIX}notes",  # a user's file
        tree / "json" / f"{PREFIX}x1",
        tree / "docs" / "en" / f"{PREFIX}bak-123",
        tree / "rulesets" / f"{PREFIX}1-0123456789ab",  # pid 1 is alive: not a dead build's
    ]
    for path in planted + kept:
        path.write_text("half a file")
    report = build(check=True, root=tree)
    assert not report.changed and report.removed == ()
    assert all(p.exists() for p in planted + kept)
    report = build(root=tree)
    assert not report.changed
    assert strays(tree) == sorted(p.relative_to(tree).as_posix() for p in kept)
    for path in kept:
        assert path.read_text() == "half a file"


KILLED = """\
import os, signal, sys
from pathlib import Path
from fivehundred.runtime.transaction import commit_files as _commit

root = Path(sys.argv[1])
k = int(sys.argv[2])
real = os.replace
calls = [0]

def replace(src, dst):
    calls[0] += 1
    if calls[0] == k:
        os.kill(os.getpid(), signal.SIGKILL)
    real(src, dst)

os.replace = replace
changes = {f"rulesets/f{i}.py": (f"new {i}\\n" * 1000).encode() for i in range(10)}
_commit(root, changes, ["json/gone.json"])
"""


@pytest.mark.parametrize("k", [1, 5, 10])
def test_a_killed_commit_leaves_whole_files_and_strays_that_the_next_one_sweeps(
    tmp_path: Path, k: int
) -> None:
    """SIGKILL cannot be rolled back; still, every file is whole (old or new bytes), never a
    partial one, and the next commit sweeps the leftovers."""
    root = tmp_path / "out"
    (root / "rulesets").mkdir(parents=True)
    (root / "json").mkdir()
    old = {f"rulesets/f{i}.py": f"old {i}\n".encode() for i in range(10)}
    for rel, data in old.items():
        (root / rel).write_bytes(data)
    (root / "json" / "gone.json").write_text("{}\n")
    script = tmp_path / "killed.py"
    script.write_text(textwrap.dedent(KILLED))
    proc = subprocess.run(
        [sys.executable, str(script), str(root), str(k)], timeout=60, capture_output=True
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    for i in range(10):
        data = (root / f"rulesets/f{i}.py").read_bytes()
        assert data in (f"old {i}\n".encode(), (f"new {i}\n" * 1000).encode())
    assert strays(root), "a killed commit leaves its temporaries and backups"
    transaction.commit_files(root, {"rulesets/f0.py": b"again\n"}, [], OWNED)
    assert strays(root) == []
