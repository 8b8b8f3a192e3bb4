"""mypy --strict over the ``fivehundred`` package, straight from the checkout.

The repository's fixed folders (``runtime/``, ``generator/``, ...) become the package's
sub-packages through ``[tool.setuptools] package-dir`` in pyproject.toml; there is no folder
named ``fivehundred`` for mypy to find. Rather than lay the mapping out again as links, this reads
it from pyproject.toml (the one place it is written) and hands mypy every file together with its
module name, so mypy checks the real files under their real names and reports real paths.

Usage: ``python .ci/typecheck.py [mypy options]`` (``bash .ci/typecheck`` runs it).
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent.parent

# Not checked: fivehundred.generated and fivehundred.specs hold build output and data.
UNCHECKED = ("fivehundred.generated", "fivehundred.specs")


def _folder(package: str, package_dir: dict[str, str]) -> Path:
    """The folder of a package: its own package-dir entry, else its parent's plus its name."""
    if package in package_dir:
        return ROOT / package_dir[package]
    parent, _, name = package.rpartition(".")
    return _folder(parent, package_dir) / name


def package_sources(pyproject: Path) -> list[BuildSource]:
    """Every module of the checked packages as (file, module name), from pyproject's mapping."""
    setuptools = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]
    package_dir: dict[str, str] = setuptools["package-dir"]
    packages: list[str] = setuptools["packages"]
    sources: list[BuildSource] = []
    for package in packages:
        if package.startswith(UNCHECKED):
            continue
        folder = _folder(package, package_dir)
        for path in sorted(folder.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            sources.append(BuildSource(str(path.relative_to(ROOT)), name))
    return sources


def main(argv: list[str]) -> int:
    """Run mypy --strict (plus ``argv``) over the package; the exit code is mypy's."""
    os.chdir(ROOT)  # mypy reads its settings from pyproject.toml in the working directory
    _, options = process_options(["--strict", *argv, "-c", ""])
    sources = package_sources(ROOT / "pyproject.toml")
    try:
        result = build.build(sources, options, stdout=sys.stdout, stderr=sys.stderr)
        messages = result.errors
    except CompileError as error:
        messages = error.messages
    for line in messages:
        print(line)
    if any(": error:" in line for line in messages):
        files = len({m.split(":", 1)[0] for m in messages if ": error:" in m})
        print(f"Found errors in {files} file(s) (checked {len(sources)} source files)")
        return 1
    print(f"Success: no issues found in {len(sources)} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
