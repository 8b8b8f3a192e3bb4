"""``fivehundred build``: compile every built-in variant and write ``generated/``.

The build is deterministic, collects the problems of every rule file before failing, writes
nothing when anything fails, writes only the files whose bytes change, and replaces each file
atomically (a temporary file in the same folder, then ``os.replace``), so no reader ever sees a
partial file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..runtime.errors import Diagnostic, SpecError
from .docs import render_markdown
from .model import Ruleset
from .pipeline import SPECS_DIR, VARIANTS_DIR, compile_spec
from .render import module_name, render_json, render_module

__all__ = ["GENERATED_DIR", "BuildReport", "build", "compile_builtins", "plan_outputs"]

#: The committed output folder (the checkout's generated/; installed: fivehundred.generated).
GENERATED_DIR = Path(__file__).resolve().parent.parent / "generated"
#: Sub-folders the build owns; files there that the build does not produce are stale.
_OWNED = ("rulesets", "json", "docs")
_TMP_PREFIX = ".fivehundred-build-"


@dataclass(frozen=True)
class BuildReport:
    """What a build did (or, with ``check``, would do)."""

    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: int

    @property
    def changed(self) -> bool:
        """True when any file was (or would be) written or removed."""
        return bool(self.written or self.removed)


def _spec_files() -> list[Path]:
    return sorted(VARIANTS_DIR.rglob("*.yaml"))


def compile_builtins() -> dict[str, tuple[Path, Ruleset]]:
    """Every built-in variant compiled, by id; one :class:`SpecError` with all problems."""
    out: dict[str, tuple[Path, Ruleset]] = {}
    problems: list[Diagnostic] = []
    for path in _spec_files():
        try:
            rs = compile_spec(path)
        except SpecError as exc:
            problems.extend(exc.diagnostics)
            continue
        if rs.id in out:
            problems.append(
                Diagnostic(str(path), 1, 1, f"variant id {rs.id!r} is also used by {out[rs.id][0]}")
            )
            continue
        out[rs.id] = (path, rs)
    if problems:
        raise SpecError(problems)
    return out


def plan_outputs() -> dict[str, str]:
    """Every file of generated/ the build produces: relative path -> text."""
    rulesets = compile_builtins()
    files: dict[str, str] = {}
    ids = sorted(rulesets)
    files["rulesets/__init__.py"] = (
        '"""Generated ruleset modules, one per built-in variant. Do not edit."""\n\n'
        f"VARIANTS = {tuple(ids)!r}\n"
    )
    schema = (SPECS_DIR / "schema" / "ruleset.schema.json").read_text(encoding="utf-8")
    files["json/ruleset.schema.json"] = schema
    for variant in ids:
        path, rs = rulesets[variant]
        source = path.relative_to(SPECS_DIR.parent).as_posix()
        files[f"rulesets/{module_name(variant)}.py"] = render_module(rs, source)
        files[f"json/{variant}.json"] = render_json(rs)
        files[f"docs/en/{variant}.md"] = render_markdown(rs, "en")
    return files


def _existing(root: Path) -> Iterator[Path]:
    for sub in _OWNED:
        base = root / sub
        if base.is_dir():
            for path in base.rglob("*"):
                if path.is_file() and "__pycache__" not in path.parts:
                    yield path


def build(check: bool = False, root: Path | None = None) -> BuildReport:
    """Bring ``root`` (default generated/) up to date, or with ``check`` only report the drift."""
    root = root or GENERATED_DIR
    files = plan_outputs()
    written = []
    unchanged = 0
    for rel, text in sorted(files.items()):
        target = root / rel
        data = text.encode("utf-8")
        if target.is_file() and target.read_bytes() == data:
            unchanged += 1
            continue
        written.append(rel)
    removed = sorted(
        p.relative_to(root).as_posix()
        for p in _existing(root)
        if p.relative_to(root).as_posix() not in files and not p.name.startswith(_TMP_PREFIX)
    )
    if not check:
        _commit(root, {rel: files[rel].encode("utf-8") for rel in written}, removed)
    return BuildReport(tuple(written), tuple(removed), unchanged)


def _commit(root: Path, changes: dict[str, bytes], removed: list[str]) -> None:
    """Write every changed file to a temporary sibling first, then rename them all into place."""
    for stray in root.rglob(_TMP_PREFIX + "*"):
        stray.unlink(missing_ok=True)
    staged: list[tuple[str, Path]] = []
    try:
        for rel, data in changes.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=_TMP_PREFIX, dir=target.parent)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
            staged.append((rel, Path(tmp)))
    except BaseException:
        for _, tmp in staged:
            tmp.unlink(missing_ok=True)
        raise
    for rel, tmp in staged:
        os.replace(tmp, root / rel)
    for rel in removed:
        (root / rel).unlink(missing_ok=True)
