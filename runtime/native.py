"""The compiled build (optional): the bots' hot modules compiled to C by mypyc.

A balance study with heuristic bots spends its time in two modules: the heuristic bot
(``runtime/bots/heuristic.py``) and the seat's view it decides from
(``runtime/engine/seatview.py``). ``fivehundred compile`` compiles both with mypyc (the
compiler that builds mypy itself from its typed Python; it needs the ``native`` extra and a C
compiler) into extension modules beside their source; Python then imports the compiled module
in place of the ``.py`` file. The source stays the program: the compiled modules are made from
it unchanged and decide exactly as it does (``tests/test_native.py`` plays the same games both
ways and compares every decision and its reason).

A compiled module is used only while it matches its source: the build records the SHA-256 of
each source file it compiled (:data:`RECORD`), and :class:`_Guard`, installed when
``fivehundred.runtime`` is imported, loads the ``.py`` files instead when a source has changed
since (saying so once on standard error), when the build is for another Python, and always for
an extension an earlier build left of a module this build does not hold. ``FIVEHUNDRED_PURE=1``
loads the pure Python modules whatever is built. ``fivehundred compile --remove`` deletes the
build.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = [
    "MODULES",
    "RECORD",
    "NativeError",
    "NativeStatus",
    "build",
    "install_guard",
    "remove",
    "status",
]

#: The modules the compiled build holds, by import name.
MODULES = (
    "fivehundred.runtime.bots.heuristic",
    "fivehundred.runtime.engine.seatview",
)
#: The shared library of the group, by import name (mypyc's ``group_name``).
_GROUP = "fivehundred.runtime._native"
#: The record of the build beside this file: the Python it was built for and each module's
#: source hash.
RECORD = Path(__file__).with_name("native.json")
#: Set (to anything but "" or "0") to load the pure Python modules whatever is built.
PURE_ENV = "FIVEHUNDRED_PURE"

_RUNTIME = Path(__file__).parent
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


class NativeError(Exception):
    """The compiled build cannot be made (no mypyc, no C compiler, a compiler error)."""


def _source(module: str) -> Path:
    """The ``.py`` file of ``module`` (a module of ``fivehundred.runtime``) here."""
    parts = module.split(".")
    assert parts[:2] == ["fivehundred", "runtime"], module
    return _RUNTIME.joinpath(*parts[2:-1], parts[-1] + ".py")


def _extension(module: str) -> Path:
    """Where the compiled ``module`` (of ``fivehundred.runtime``) lives: beside its source."""
    return _source(module).with_suffix(_SUFFIX)


def _extensions() -> list[Path]:
    """Every extension module under ``runtime/`` that sits beside a ``.py`` file of the same
    name: this build's, or one an earlier version compiled (a module its build no longer
    holds)."""
    return sorted(
        p for p in _RUNTIME.rglob("*" + _SUFFIX) if p.with_name(_stem(p) + ".py").exists()
    )


def _stem(path: Path) -> str:
    return path.name[: -len(_SUFFIX)]


_PRESENT: set[Path] | None = None


def _present() -> set[Path]:
    """:func:`_extensions`, looked for once a process (the guard asks at every import)."""
    global _PRESENT
    if _PRESENT is None:
        _PRESENT = set(_extensions())
    return _PRESENT


def _group_library() -> Path:
    parts = _GROUP.split(".")
    return _RUNTIME.joinpath(*parts[2:-1], parts[-1] + "__mypyc" + _SUFFIX)


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _record() -> dict[str, str]:
    """The source hashes of the build, by module ({} without a build, or one for another
    Python)."""
    import json

    try:
        data = json.loads(RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("python") != sys.implementation.cache_tag:
        return {}
    modules = data.get("modules")
    if not isinstance(modules, dict):
        return {}
    return {str(k): str(v) for k, v in modules.items()}


def _pure_wanted() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


@dataclass(frozen=True, slots=True)
class NativeStatus:
    """One module of the build: whether it is compiled, and whether that matches its source."""

    module: str
    #: "compiled" (built and current: it is the one imported), "stale" (built, but this module
    #: or another of the build has changed since: the ``.py`` files are imported), "pure" (not
    #: built), "stray" (an extension an earlier build made of a module this build does not
    #: hold: never imported).
    state: str
    path: Path

    def line(self) -> str:
        """One line for ``fivehundred compile --status``."""
        words = {
            "compiled": "compiled (current)",
            "stale": "compiled, but the build is older than the source: the .py files are "
            "used until `fivehundred compile` runs again",
            "pure": "pure Python (not compiled)",
            "stray": "compiled by an earlier build that no longer holds it: never used "
            "(`fivehundred compile --remove` deletes it)",
        }
        return f"{self.module}: {words[self.state]}"


def status() -> list[NativeStatus]:
    """The state of every module of :data:`MODULES`, then of any stray extension module (see
    :class:`NativeStatus`)."""
    current = _all_current()
    grouped = _group_library().exists()
    out = []
    for module in MODULES:
        ext = _extension(module)
        if not ext.exists() or not grouped:
            out.append(NativeStatus(module, "pure", _source(module)))
        elif not current:
            out.append(NativeStatus(module, "stale", ext))
        else:
            out.append(NativeStatus(module, "compiled", ext))
    for ext in _extensions():
        rel = ext.relative_to(_RUNTIME).with_name(_stem(ext))
        module = ".".join(("fivehundred", "runtime", *rel.parts))
        if module not in MODULES:
            out.append(NativeStatus(module, "stray", ext))
    return out


def _all_current() -> bool:
    """Whether every module of the build matches its source (the compiled modules call each
    other's classes directly, so they are used all together or not at all)."""
    record = _record()
    return (
        all(_extension(m).exists() and record.get(m) == _digest(_source(m)) for m in MODULES)
        and _group_library().exists()
    )


class _Guard(importlib.abc.MetaPathFinder):
    """Loads the ``.py`` file of a module of ``fivehundred.runtime`` that has an extension
    module beside it, unless that extension is one of :data:`MODULES`, the whole build is
    current and the pure modules are not asked for (:data:`PURE_ENV`); otherwise (no
    extension, or a current build) leaves the import to Python, which prefers an extension
    module to a source file. An extension an earlier version compiled, of a module this
    version's build does not hold, is never used."""

    warned = False

    def __init__(self) -> None:
        #: :func:`_all_current`, worked out at the first compiled module's import (it reads
        #: the record and hashes the sources: once, not at each module's import)
        self.current: bool | None = None

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("fivehundred.runtime."):
            return None
        source = _source(fullname)
        if source.with_suffix(_SUFFIX) not in _present() or not source.exists():
            return None  # nothing compiled: the usual import finds the .py file
        if not _pure_wanted():
            if fullname in MODULES:
                if self.current is None:
                    self.current = _all_current()
                if self.current:
                    return None  # built from this source: the usual import takes the extension
            if not _Guard.warned:
                _Guard.warned = True
                print(
                    "fivehundred: the compiled modules do not match their source; using the "
                    "pure Python ones (run `fivehundred compile` again, or "
                    "`fivehundred compile --remove`)",
                    file=sys.stderr,
                )
        loader = importlib.machinery.SourceFileLoader(fullname, str(source))
        return importlib.util.spec_from_file_location(fullname, source, loader=loader)


def install_guard() -> None:
    """Put :class:`_Guard` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Guard) for f in sys.meta_path):
        sys.meta_path.insert(0, _Guard())


_SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(
    name="fivehundred-native",
    ext_modules=mypycify({paths!r}, opt_level="3", group_name={group!r}),
    script_args=["build_ext", "--inplace"],
)
"""


def _stage(into: Path) -> dict[str, str]:
    """Copy the package's Python files under ``into/fivehundred`` (mypyc reads the imported
    modules for their types) and return the hashes of the modules to compile."""
    import shutil

    pkg = into / "fivehundred"
    root = _RUNTIME.parent  # the folder of runtime/, generator/, generated/

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {
            n
            for n in names
            if (not n.endswith(".py") and not (Path(folder) / n).is_dir()) or n == "__pycache__"
        }

    init = Path(sys.modules["fivehundred"].__file__ or "")
    pkg.mkdir(parents=True)
    shutil.copyfile(init, pkg / "__init__.py")
    for sub in ("runtime", "generator", "generated", "specs"):
        if (root / sub).is_dir():
            shutil.copytree(root / sub, pkg / sub, ignore=ignore)
    # the hashes of the files compiled, as they were copied
    return {m: _digest(pkg.joinpath(_source(m).relative_to(root))) for m in MODULES}


def build(verbose: bool = False) -> list[Path]:
    """Compile :data:`MODULES` with mypyc and put the extension modules beside their source
    (each written to a temporary name and renamed, the record last). Returns the files made."""
    global _PRESENT
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise NativeError(
            "mypyc is not installed: pip install 'fivehundred[native]' (it also needs a C "
            "compiler and Python's headers)"
        ) from None
    import json
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="fivehundred-native-") as tmp:
        stage = Path(tmp)
        hashes = _stage(stage)
        rel = [str(_source(m).relative_to(_RUNTIME.parent).as_posix()) for m in MODULES]
        # The stubs of PyYAML and jsonschema are the dev extra's: the modules that use them are
        # read for their types only, never compiled.
        rel = ["--ignore-missing-imports", *("fivehundred/" + r for r in rel)]
        (stage / "setup_native.py").write_text(
            _SETUP.format(paths=rel, group=_GROUP), encoding="utf-8"
        )
        done = subprocess.run(
            [sys.executable, "setup_native.py"],
            cwd=stage,
            capture_output=True,
            text=True,
            env={**os.environ, PURE_ENV: "1"},
        )
        if verbose or done.returncode:
            sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        if done.returncode:
            raise NativeError(f"mypyc failed (exit {done.returncode}): its output is above")
        made: list[tuple[Path, Path]] = []
        for module in MODULES:
            parts = module.split(".")
            made.append((stage.joinpath(*parts[:-1], parts[-1] + _SUFFIX), _extension(module)))
        g = _GROUP.split(".")
        made.append((stage.joinpath(*g[:-1], g[-1] + "__mypyc" + _SUFFIX), _group_library()))
        for src, _ in made:
            if not src.exists():
                raise NativeError(f"mypyc made no {src.name}")
        RECORD.unlink(missing_ok=True)  # no build is current while its files change
        for stray in set(_extensions()) - {dst for _, dst in made}:
            stray.unlink()  # an earlier build's module that this one does not hold
        for src, dst in made:
            tmp_dst = dst.with_name(dst.name + ".tmp")
            shutil.copyfile(src, tmp_dst)
            os.replace(tmp_dst, dst)
    record = {"python": sys.implementation.cache_tag, "modules": hashes}
    tmp_record = RECORD.with_name(RECORD.name + ".tmp")
    tmp_record.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp_record, RECORD)
    _PRESENT = None
    return [dst for _, dst in made] + [RECORD]


def remove() -> list[Path]:
    """Delete the compiled build (the extension modules beside their source, an earlier
    build's too, the group's library, the record); the files deleted."""
    global _PRESENT
    _PRESENT = None
    gone = []
    for path in [*_extensions(), _group_library(), RECORD]:
        if path.exists():
            path.unlink()
            gone.append(path)
    return gone
