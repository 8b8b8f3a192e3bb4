"""The build's memory: which inputs each file of generated/ was made from.

``fivehundred build`` renders 368 files; most builds change few of them. The build keeps, next
to the folder it writes (``.fivehundred-cache/build.json``, ignored by git), a fingerprint of
everything it read and, for every file it wrote, the fingerprint of that file's own inputs and
the SHA-256 of its bytes. Then:

- when no input changed and every file on disk still has the bytes recorded for it, the build
  is done without compiling a rule file or importing a template engine;
- otherwise each file whose own inputs and bytes on disk are unchanged is not rendered again.

A fingerprint covers every byte of the generator's and the engine's code, the templates, the
rule files, schemas and catalogues, and the versions of Python and of the libraries that shape
the output, so a stale entry is never trusted; the files' own hashes catch hand edits. A cache
that cannot be read is ignored, one that cannot be written is skipped: the cache only ever saves
time. A build without it (a fresh clone, ``--no-cache``) renders everything.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..runtime.transaction import TMP_PREFIX

__all__ = [
    "CACHE_DIR_NAME",
    "OWNED",
    "BuildCache",
    "CachedReport",
    "code_digest",
    "digest",
    "file_digest",
    "fresh",
    "inputs_digest",
    "produced_files",
    "tree_digest",
    "up_to_date",
]

#: The cache folder, a sibling of the folder the build writes.
CACHE_DIR_NAME = ".fivehundred-cache"
_MANIFEST = "build.json"
_FORMAT = 1
#: Sub-folders of generated/ that the build owns; files there that it does not produce are stale.
OWNED = ("rulesets", "engines", "json", "docs", "conformance")
#: The folder that holds generator/, runtime/, specs/ and generated/: the checkout, or the
#: installed package.
_HOME = Path(__file__).resolve().parent.parent
#: Libraries whose versions can change the generated text.
_LIBRARIES = ("Jinja2", "MarkupSafe", "Babel", "PyYAML", "jsonschema")


def digest(*parts: str) -> str:
    """SHA-256 of some strings (each length-prefixed, so that no two lists collide)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def file_digest(data: bytes) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(data).hexdigest()


def tree_digest(folders: Iterable[Path], suffixes: tuple[str, ...] = ()) -> str:
    """One fingerprint of every file under ``folders`` (names and bytes; ``__pycache__`` and
    dot-files left out); with ``suffixes``, only files ending so."""
    h = hashlib.sha256()
    for folder in folders:
        if not folder.is_dir():
            h.update(f"missing {folder}\n".encode())
            continue
        for path in sorted(folder.rglob("*")):
            if (
                "__pycache__" in path.parts
                or path.name.startswith(".")
                or not path.is_file()
                or (suffixes and not path.name.endswith(suffixes))
            ):
                continue
            data = path.read_bytes()
            h.update(f"{path.relative_to(folder).as_posix()}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


@lru_cache(maxsize=1)
def environment_digest() -> str:
    """Python's version and the versions of the libraries that shape the output."""
    found = _installed_versions()
    versions = []
    for name in _LIBRARIES:
        version = found.get(_normal(name)) or _metadata_version(name)
        versions.append(f"{name}={version}")
    return digest(sys.version, *versions)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _installed_versions() -> dict[str, str]:
    """Distribution name -> version, read from the ``NAME-VERSION.dist-info`` folders on
    ``sys.path`` (the first one of a name wins, as for imports): what
    ``importlib.metadata.version`` answers, without the tenth of the build's start-up its
    import and search cost."""
    out: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            stem = folder.removesuffix(".dist-info")
            if stem != folder and stem.count("-") == 1:
                name, version = stem.split("-")
                out.setdefault(_normal(name), version)
    return out


def _metadata_version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def code_digest() -> str:
    """Fingerprint of the code that writes generated/: the generator (templates and styles
    included), the engine it imports, the Python and library versions."""
    return digest(tree_digest([_HOME / "generator", _HOME / "runtime"]), environment_digest())


def inputs_digest(*folders: Path) -> str:
    """Fingerprint of everything a build reads: :func:`code_digest` and every file under
    ``folders`` (the rule files, schemas and catalogues, the balance summaries the books show)
    and where they are."""
    return digest(code_digest(), *(str(f) for f in folders), tree_digest(folders))


def produced_files(root: Path) -> list[str]:
    """The files under the owned folders of ``root``, as relative paths (build temporaries and
    ``__pycache__`` left out)."""
    out = []
    for sub in OWNED:
        base = root / sub
        if base.is_dir():
            for path in base.rglob("*"):
                if (
                    path.is_file()
                    and "__pycache__" not in path.parts
                    and not path.name.startswith(TMP_PREFIX)
                ):
                    out.append(path.relative_to(root).as_posix())
    return sorted(out)


@dataclass(frozen=True)
class CachedReport:
    """What a build that finds nothing to do reports (the fields of ``BuildReport``)."""

    unchanged: int
    incomplete: dict[str, tuple[str, ...]]
    written: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    changed: bool = False


def up_to_date(root: Path | None = None) -> CachedReport | None:
    """The report of a build of ``root`` (default: generated/) when the cache alone shows it
    is up to date (no input changed, no file touched, none extra); None when a build must
    look. This is the shortcut of a command that has not imported the generator: once it is
    imported (its folders may have been moved, its functions replaced), None, and the build
    itself looks at its cache."""
    if "fivehundred.generator.build" in sys.modules:
        return None
    home = _HOME
    return fresh(
        root or home / "generated",
        home / "specs",
        home / "specs" / "variants",
        home / "generated" / "balance",
        home / "specs" / "locales",
    )


def fresh(root: Path, *inputs: Path) -> CachedReport | None:
    """:func:`up_to_date` for a build of ``root`` that reads the folders ``inputs``."""
    cache = BuildCache(root)
    if not cache.entries or not cache.all_fresh(inputs_digest(*inputs), produced_files(root)):
        return None
    return CachedReport(len(cache.entries), dict(cache.incomplete))


class BuildCache:
    """The fingerprints of the last build into ``root`` (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root.parent / CACHE_DIR_NAME
        self.inputs = ""
        self.entries: dict[str, tuple[str, str]] = {}  # rel -> (inputs key, sha256 of bytes)
        #: Rule books translated in part at the last build (language -> variant ids).
        self.incomplete: dict[str, tuple[str, ...]] = {}
        #: The messages of each variant's rule books (``(context, msgid)`` pairs), by the
        #: fingerprint of the variant's rules and the code: a build that finds them here need
        #: not render a book to learn which languages translate it whole.
        self.messages: dict[str, tuple[tuple[str | None, str], ...]] = {}
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads((self.folder / _MANIFEST).read_text(encoding="utf-8"))
            if data.get("format") != _FORMAT or data.get("root") != str(self.root.resolve()):
                return
            self.inputs = str(data["inputs"])
            self.entries = {str(k): (str(v[0]), str(v[1])) for k, v in data["files"].items()}
            self.incomplete = {
                str(k): tuple(str(x) for x in v) for k, v in data.get("incomplete", {}).items()
            }
            self.messages = {
                str(k): tuple((None if c is None else str(c), str(m)) for c, m in v)
                for k, v in data.get("messages", {}).items()
            }
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            self.inputs, self.entries, self.incomplete, self.messages = "", {}, {}, {}

    def on_disk(self, rel: str) -> bool:
        """True when the file ``rel`` has the bytes recorded for it."""
        entry = self.entries.get(rel)
        if entry is None:
            return False
        try:
            return file_digest((self.root / rel).read_bytes()) == entry[1]
        except OSError:
            return False

    def fresh(self, rel: str, key: str) -> bool:
        """True when ``rel`` was made from inputs with fingerprint ``key`` and is unchanged."""
        entry = self.entries.get(rel)
        return entry is not None and entry[0] == key and self.on_disk(rel)

    def all_fresh(self, inputs: str, expected: Iterable[str] | None = None) -> bool:
        """True when the whole build's inputs are ``inputs`` as last time and every recorded
        file is on disk unchanged (and, given ``expected``, exactly those files are recorded)."""
        if not self.entries or inputs != self.inputs:
            return False
        if expected is not None and set(expected) != set(self.entries):
            return False
        return all(self.on_disk(rel) for rel in self.entries)

    def save(
        self,
        inputs: str,
        entries: Mapping[str, tuple[str, str]],
        incomplete: Mapping[str, tuple[str, ...]] | None = None,
        messages: Mapping[str, tuple[tuple[str | None, str], ...]] | None = None,
    ) -> None:
        """Record a build; silently skipped when the cache folder cannot be written."""
        incomplete = dict(incomplete or {})
        messages = dict(messages or {})
        data = {
            "format": _FORMAT,
            "root": str(self.root.resolve()),
            "inputs": inputs,
            "files": {rel: list(entries[rel]) for rel in sorted(entries)},
            "incomplete": {lang: list(incomplete[lang]) for lang in sorted(incomplete)},
            "messages": {key: [list(m) for m in messages[key]] for key in sorted(messages)},
        }
        text = json.dumps(data, indent=0, sort_keys=True) + "\n"
        try:
            self.folder.mkdir(exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=".build-", dir=self.folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                os.replace(name, self.folder / _MANIFEST)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(name)
                raise
        except OSError:
            return
        self.inputs = inputs
        self.entries = dict(entries)
        self.incomplete = incomplete
        self.messages = messages
