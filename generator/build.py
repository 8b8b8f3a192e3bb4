"""``fivehundred build``: compile every built-in variant and write ``generated/``.

The build is deterministic, collects the problems of every rule file before failing, writes
nothing when anything fails, writes only the files whose bytes change, and replaces each file
atomically (a temporary file in the same folder, then ``os.replace``), so no reader ever sees a
partial file.

Builds of one folder are serialised by a lock file (``.fivehundred-build.lock`` in the folder; a
second build says it is waiting and then runs). Temporaries are named
``.fivehundred-build-PID-TOKEN`` (backups end in ``.bak``); a later build removes only such
names whose process is dead, and only inside the folder it builds, never a user's file.
"""

from __future__ import annotations

import contextlib
import gc
import json
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from ..generator import balancebook, i18n
from ..runtime.engine.errors import Diagnostic, FileError, SpecError
from ..runtime.files import os_error_text, write_output
from ..runtime.transaction import LOCK_NAME, build_lock, commit_files
from . import options
from .buildcache import (
    OWNED,
    BuildCache,
    code_digest,
    digest,
    file_digest,
    inputs_digest,
    produced_files,
)
from .docs import (
    Recording,
    compile_templates,
    compiled_templates,
    render_html,
    render_index,
    render_language_index,
    render_markdown,
    use_bytecode_cache,
    use_compiled,
)
from .engine import render_engine
from .i18n import Gap, gaps, languages, load_translations, po_path
from .model import Ruleset
from .parallel import Background, jobs, run_all
from .pipeline import SCHEMA_FILE, SPECS_DIR, VARIANTS_DIR, compile_spec
from .render import module_name, render_json, render_module
from .tableschema import render_ruleset_schema

__all__ = [
    "GENERATED_DIR",
    "LOCK_NAME",
    "BuildInterrupted",
    "BuildReport",
    "Plan",
    "build",
    "build_lock",
    "compile_builtins",
    "incomplete_books",
    "plan_outputs",
]

#: The committed output folder (the checkout's generated/; installed: fivehundred.generated).
GENERATED_DIR = Path(__file__).resolve().parent.parent / "generated"


@dataclass(frozen=True)
class BuildReport:
    """What a build did (or, with ``check``, would do)."""

    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: int
    #: Rule books their catalogue translates in part (language -> variant ids): built with an
    #: "incomplete translation" banner and linked from nowhere.
    incomplete: dict[str, tuple[str, ...]] = field(default_factory=dict)

    #: Files outside generated/ the build derives (the rule-file schema, from the option
    #: registry), as paths from the checkout: written, or with ``check`` stale.
    sources: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """True when any file was (or would be) written or removed."""
        return bool(self.written or self.removed or self.sources)


def _spec_files() -> list[Path]:
    return sorted(VARIANTS_DIR.rglob("*.yaml"))


def compile_builtins() -> dict[str, tuple[Path, Ruleset]]:
    """Every built-in variant compiled, by id; one :class:`SpecError` with all problems."""
    out: dict[str, tuple[Path, Ruleset]] = {}
    problems: list[Diagnostic] = []
    for path in _spec_files():
        try:
            rs = compile_spec(path, builtin=True)
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


class Plan(Mapping[str, str]):
    """The files a build produces (relative path -> text), each rendered only when read, each
    with the fingerprint of its inputs (:mod:`~fivehundred.generator.buildcache`)."""

    def __init__(self) -> None:
        self._makers: dict[str, tuple[str, Callable[[], str]]] = {}
        self._texts: dict[str, str] = {}
        #: Rule books their catalogue translates in part (language -> variant ids).
        self.incomplete: dict[str, tuple[str, ...]] = {}
        #: The messages of each variant's rule books, by the fingerprint of the variant (its
        #: rules and the code): what the build cache keeps so that a later build need not
        #: render a book to know which messages it uses.
        self.messages: dict[str, tuple[tuple[str | None, str], ...]] = {}
        #: Files made by :meth:`make_all` with a ``root``: the SHA-256 of their bytes and
        #: whether the file there has those bytes.
        self.compared: dict[str, tuple[str, bool]] = {}

    def add(self, rel: str, key: str, make: Callable[[], str]) -> None:
        """Plan ``rel``: ``make()`` renders it; ``key`` fingerprints everything it is made of."""
        self._makers[rel] = (key, make)

    def add_made(self, rel: str, key: str, text: str, make: Callable[[], str]) -> None:
        """Plan ``rel``, already rendered (``text``, which ``make()`` renders again)."""
        self._makers[rel] = (key, make)
        self._texts[rel] = text

    def add_text(self, rel: str, text: str) -> None:
        """Plan ``rel`` with its text (cheap to make): the text is its own fingerprint."""
        self._makers[rel] = (digest("text", text), lambda: text)
        self._texts[rel] = text

    def key(self, rel: str) -> str:
        """The fingerprint of the inputs of ``rel``."""
        return self._makers[rel][0]

    def make_all(self, rels: Iterable[str], root: Path | None = None) -> None:
        """Render every file of ``rels`` not rendered yet, on every core
        (:func:`~fivehundred.generator.parallel.run_all`); the most costly first, so that no
        process is left with a long one at the end. With ``root``, each process also compares
        what it made with the file under ``root`` (:attr:`compared`)."""
        todo = sorted((rel for rel in rels if rel not in self._texts), key=_cost)
        makers = [self._makers[rel][1] for rel in todo]
        if root is None:
            self._texts.update(zip(todo, run_all(makers), strict=True))
            return
        pieces = [
            partial(_made_and_compared, m, root / rel) for m, rel in zip(makers, todo, strict=True)
        ]
        for rel, (text, sha, same) in zip(todo, run_all(pieces), strict=True):
            self._texts[rel] = text
            self.compared[rel] = (sha, same)

    def __getitem__(self, rel: str) -> str:
        if rel not in self._texts:
            self._texts[rel] = self._makers[rel][1]()
        return self._texts[rel]

    def __contains__(self, rel: object) -> bool:
        return rel in self._makers

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


def _made_and_compared(make: Callable[[], str], path: Path) -> tuple[str, str, bool]:
    """``make()``'s text, the SHA-256 of its bytes, and whether ``path`` holds those bytes."""
    text = make()
    data = text.encode("utf-8")
    return text, file_digest(data), path.is_file() and path.read_bytes() == data


def _cost(rel: str) -> tuple[int, str]:
    """Files in the order :meth:`Plan.make_all` makes them: HTML books, Markdown books, the
    rest (each a few times cheaper than the one before)."""
    return (0 if rel.endswith(".html") else 1 if rel.endswith(".md") else 2, rel)


#: A book's messages: ``(context, msgid)`` pairs in the order first used.
Messages = tuple[tuple[str | None, str], ...]


#: Files made without the rule-book templates (what the build makes while they compile).
_NO_TEMPLATES = ("json/", "conformance/", "rulesets/", "engines/")
#: The templates a worker is compiling for the build under way (see build()).
_COMPILING: list[Background[dict[str, dict[str, bytes]]]] = []


def _recorded(render: Callable[..., str], rs: Ruleset, links: list[tuple[str, str]]) -> Any:
    """The English book of ``rs`` (``render``: :func:`render_markdown` or
    :func:`render_html`) with the links ``links``, and the messages it used."""
    recording = Recording()
    return render(rs, "en", recording, languages=links, missing=[]), tuple(recording.seen)


def plan_outputs(
    messages: Mapping[str, Messages] | None = None,
) -> Plan:
    """Every file of generated/ the build produces: relative path -> text (rendered on read).

    The conformance vectors are replayed again only when their fingerprint (the variant's tables
    and the engine) differs from the one in the committed file under generated/.

    Which languages translate a variant's whole rule book depends on the messages the book
    uses, which only a render tells: ``messages`` (by the variant's fingerprint, from the build
    cache) saves that render. For every other variant the English books are rendered first,
    noting their messages, with links to every language; when some language turns out not to
    translate the whole book, the English books are rendered again, linking only the others.
    """
    known = messages or {}
    rulesets = compile_builtins()
    files = Plan()
    ids = sorted(rulesets)
    files.add_text(
        "rulesets/__init__.py",
        '"""Generated ruleset modules, one per built-in variant. Do not edit."""\n\n'
        f"VARIANTS = {tuple(ids)!r}\n",
    )
    files.add_text(
        "engines/__init__.py",
        '"""Generated engine modules: each built-in variant\'s random playout as code '
        '(generator/templates/engine.py.j2). Do not edit."""\n',
    )
    files.add_text("json/ruleset.schema.json", render_ruleset_schema())
    code = code_digest()
    key_of = {variant: digest(code, repr(rulesets[variant][1])) for variant in ids}
    for variant in ids:
        path, rs = rulesets[variant]
        source = path.relative_to(SPECS_DIR.parent).as_posix()
        files.add(
            f"rulesets/{module_name(variant)}.py",
            digest(key_of[variant], "module", source),
            partial(render_module, rs, source),
        )
        files.add(
            f"engines/{module_name(variant)}.py",
            digest(key_of[variant], "engine"),
            partial(render_engine, rs.tables),
        )
        files.add(f"json/{variant}.json", digest(key_of[variant], "json"), partial(render_json, rs))
        files.add(
            f"conformance/{variant}.jsonl",
            digest(key_of[variant], "conformance"),
            partial(_conformance, rs, GENERATED_DIR),
        )
    # the rule books: every variant in every language with a catalogue, Markdown and HTML. A
    # book its catalogue does not translate whole carries an "incomplete translation" banner
    # and is linked from nowhere (neither from the other books nor from the index).
    langs = languages()
    for lang in langs:
        load_translations(lang)  # a broken catalogue stops the build before anything renders
    formats = (("md", render_markdown), ("html", render_html))

    def links(variant: str, codes: Iterable[str], lang: str) -> list[tuple[str, str]]:
        return [(code, f"../{code}/{variant}") for code in codes if code != lang]

    unknown = [v for v in ids if key_of[v] not in known]
    if _COMPILING and _COMPILING[0].working:
        # until the worker's templates are back, make files that need none
        spare = [rel for rel in files if rel.startswith(_NO_TEMPLATES)][::-1]
        while spare and not _COMPILING[0].ready():
            files[spare.pop()]
        use_compiled(_COMPILING.pop().result())
    elif unknown and jobs() > 1:
        compile_templates()  # once, here, rather than in every process that renders
    english: dict[tuple[str, str], str] = {}
    pieces = [
        partial(_recorded, render, rulesets[v][1], links(v, langs, "en"))
        for v in unknown
        for _, render in formats
    ]
    recorded = iter(run_all(pieces))
    for variant in ids:
        if variant in unknown:
            used: dict[tuple[str | None, str], None] = {}
            for fmt, _ in formats:
                text, seen = next(recorded)
                english[variant, fmt] = text
                used.update(dict.fromkeys(seen))
            files.messages[key_of[variant]] = tuple(used)
        else:
            files.messages[key_of[variant]] = tuple(known[key_of[variant]])
    missing: dict[tuple[str, str], list[Gap]] = {}
    complete: dict[str, list[str]] = {}
    for variant in ids:
        keys = files.messages[key_of[variant]]
        for lang in langs:
            missing[lang, variant] = gaps(lang, keys)
        complete[variant] = [lang for lang in langs if not missing[lang, variant]]
    summaries = {variant: _summary_digest(variant) for variant in ids}
    for lang in langs:
        catalogue = po_path(lang)
        words = file_digest(catalogue.read_bytes()) if catalogue.is_file() else "-"
        for variant in ids:
            rs = rulesets[variant][1]
            others = links(variant, complete[variant], lang)
            gap = missing[lang, variant]
            key = digest(key_of[variant], lang, words, repr(others), repr(gap), summaries[variant])
            for fmt, render in formats:
                rel = f"docs/{lang}/{variant}.{fmt}"
                make = partial(render, rs, lang, languages=others, missing=gap)
                text = english.get((variant, fmt)) if lang == "en" else None
                if text is not None and others == links(variant, langs, "en") and not gap:
                    files.add_made(rel, digest(key, fmt), text, make)
                else:
                    files.add(rel, digest(key, fmt), make)
        if any(missing[lang, variant] for variant in ids):
            files.incomplete[lang] = tuple(v for v in ids if missing[lang, v])
    # each language's index links the indexes of the languages with a whole book only: a
    # language whose catalogue translates no book whole is linked from nowhere
    switch = [code for code in langs if any(code in complete[v] for v in ids)]
    for lang in langs:
        listed = [v for v in ids if lang in complete[v]]
        shown = [rulesets[v][1] for v in listed]
        catalogue = po_path(lang)
        words = file_digest(catalogue.read_bytes()) if catalogue.is_file() else "-"
        # what the index shows of each book: its name, summary, players and base
        about = [(rs.id, rs.name, rs.summary, rs.players, rs.extends) for rs in shown]
        key = digest(code, "language index", lang, words, repr(about), repr(switch))
        for fmt in ("html", "md"):
            files.add(
                f"docs/{lang}/index.{fmt}",
                digest(key, fmt),
                partial(render_language_index, shown, lang, fmt, switch),
            )
    books = [(variant, rulesets[variant][1].name) for variant in ids]
    index_key = digest(code, repr(books), repr(langs), repr(complete))
    for fmt in ("html", "md"):
        files.add(
            f"docs/index.{fmt}",
            digest(index_key, fmt),
            partial(render_index, books, langs, fmt, complete),
        )
    return files


def _summary_digest(variant: str) -> str:
    """Fingerprint of the balance summary a variant's books show (none: ``-``)."""
    try:
        return file_digest(balancebook.summary_path(variant).read_bytes())
    except OSError:
        return "-"


#: The mark of a rule book that its catalogue translates in part (rulebook.html.j2).
_BANNER = '<p class="incomplete" role="note">'


def incomplete_books(files: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The rule books among ``files`` (:func:`plan_outputs`) that carry the "incomplete
    translation" banner: language -> variant ids."""
    out: dict[str, list[str]] = {}
    for rel, text in sorted(files.items()):
        parts = rel.split("/")
        if len(parts) == 3 and parts[0] == "docs" and rel.endswith(".html") and _BANNER in text:
            out.setdefault(parts[1], []).append(parts[2].removesuffix(".html"))
    return {lang: tuple(sorted(variants)) for lang, variants in out.items()}


def _conformance(rs: Ruleset, root: Path) -> str:
    from ..runtime.adapters.conformance import conformance_file
    from ..runtime.engine.rules import Rules

    tables = rs.tables
    old = root / "conformance" / f"{rs.id}.jsonl"
    previous = old.read_text(encoding="utf-8") if old.is_file() else None
    ids = [c["id"] for c in rs.clauses]
    return conformance_file(Rules(tables), ids, json.dumps(tables, sort_keys=True), previous)


class BuildInterrupted(KeyboardInterrupt):
    """Ctrl-C came while the build was committing and after its last step: the build is
    complete. ``report`` says what it did."""

    def __init__(self, report: BuildReport) -> None:
        super().__init__()
        self.report = report


def _template_cache(cache: Path) -> Path:
    """The folder of the compiled templates for this code: compiled templates depend on the
    filters too (Jinja passes a context to some), so each version of the code has its own, and
    the folders of other versions are removed."""
    templates = cache / "templates"
    current = code_digest()[:16]
    with contextlib.suppress(OSError):
        for old in templates.iterdir():
            if old.name != current and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
    return templates / current


def input_folders() -> tuple[Path, ...]:
    """The folders a build reads besides the code (their files are its inputs)."""
    return (SPECS_DIR, VARIANTS_DIR, balancebook.SUMMARY_DIR, i18n.LOCALES_DIR)


def build(
    check: bool = False,
    root: Path | None = None,
    wait: Callable[[str], None] | None = None,
    *,
    cache: bool | None = None,
) -> BuildReport:
    """Bring ``root`` (default generated/) up to date, or with ``check`` only report the drift.

    Builds of one folder run one at a time (:func:`build_lock`; ``wait`` hears of a wait). A
    folder that cannot be written (read-only, full) raises
    :class:`FileError` with the folder as it was. A Ctrl-C after the
    commit is complete raises :class:`BuildInterrupted`, which carries the report.

    ``cache`` (default: on for generated/, off for another ``root``) keeps fingerprints of the
    inputs of every file (:mod:`~fivehundred.generator.buildcache`), so that an unchanged build
    renders nothing and a changed one renders only the files whose inputs changed.
    """
    with _collector_paused():
        return _build(check, root, wait, cache)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a build runs: it makes hundreds of thousands of
    short-lived objects (templates, books) and almost no cycles, and the collector's passes
    over them cost a whole build about 3% of its time for some 6% more memory (measured with
    hyperfine and /usr/bin/time on `build --no-cache`, 87 -> 92 MB)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _build(
    check: bool,
    root: Path | None,
    wait: Callable[[str], None] | None,
    cache: bool | None,
) -> BuildReport:
    use_cache = root is None if cache is None else cache
    sources = _derived_sources(check) if root is None else ()
    report = _build_generated(check, root, wait, cache=use_cache)
    return replace(report, sources=sources) if sources else report


def _derived_sources(check: bool) -> tuple[str, ...]:
    """Bring the rule-file schema up to date with the option registry (or, with ``check``,
    say it is stale); the paths from the checkout that were (or would be) written."""
    text = options.variant_schema_text().encode("utf-8")
    try:
        same = SCHEMA_FILE.read_bytes() == text
    except OSError:
        same = False
    if same:
        return ()
    if not check:
        write_output(str(SCHEMA_FILE), text)
    return (SCHEMA_FILE.relative_to(SPECS_DIR.parent).as_posix(),)


def _build_generated(
    check: bool, root: Path | None, wait: Callable[[str], None] | None, *, cache: bool
) -> BuildReport:
    use_cache = cache
    root = root or GENERATED_DIR
    store = BuildCache(root) if use_cache else None
    inputs = inputs_digest(*input_folders()) if store is not None else ""
    if store is not None and store.all_fresh(inputs, produced_files(root)):
        return BuildReport((), (), len(store.entries), dict(store.incomplete))
    compiled = _template_cache(store.folder) if store is not None else None
    use_bytecode_cache(compiled)
    if compiled is None or not any(compiled.glob("*/*")):
        # no compiled templates kept (no cache, or a new one): a worker compiles them while
        # this process reads the rule files and catalogues (with no core to spare, this
        # process will); the cache, if any, keeps what the worker compiled
        _COMPILING[:] = [Background(compiled_templates)]
    try:
        files = plan_outputs(store.messages) if store is not None else plan_outputs()
    finally:
        for unused in _COMPILING:
            unused.close()
        _COMPILING.clear()
    with build_lock(root, wait, required=not check):
        written = []
        unchanged = 0
        known: dict[str, tuple[str, str]] = {}  # rel -> (inputs key, sha256) of files on disk
        fresh: set[str] = set()
        if isinstance(files, Plan):
            if store is not None:
                fresh = {rel for rel in files if store.fresh(rel, files.key(rel))}
            files.make_all((rel for rel in files if rel not in fresh), root)  # on every core
        compared = files.compared if isinstance(files, Plan) else {}
        for rel in sorted(files):
            key = files.key(rel) if isinstance(files, Plan) else None
            if store is not None and rel in fresh:
                unchanged += 1
                known[rel] = store.entries[rel]
                continue
            if rel in compared:  # made and compared with the file on disk by make_all
                sha, same = compared[rel]
                if not same:
                    written.append(rel)
                    continue
                unchanged += 1
                if key is not None:
                    known[rel] = (key, sha)
                continue
            target = root / rel
            data = files[rel].encode("utf-8")
            if target.is_file() and target.read_bytes() == data:
                unchanged += 1
                if key is not None:
                    known[rel] = (key, file_digest(data))
                continue
            written.append(rel)
        removed = [rel for rel in produced_files(root) if rel not in files]
        incomplete = files.incomplete if isinstance(files, Plan) else incomplete_books(files)
        report = BuildReport(tuple(written), tuple(removed), unchanged, incomplete)
        if check:
            if store is not None:
                complete = not (written or removed) and len(known) == len(files)
                store.save(inputs if complete else "", known, incomplete, _messages(files))
            return report
        try:
            late = commit_files(
                root, {rel: files[rel].encode("utf-8") for rel in written}, removed, OWNED
            )
        except OSError as exc:
            where = exc.filename if exc.filename is not None else root
            error = FileError(f"{where}: cannot write: {os_error_text(exc)}; {root} is as it was")
            for note in getattr(exc, "__notes__", ()):
                error.add_note(note)
            raise error from None
        if store is not None:
            for rel in written:
                key = files.key(rel) if isinstance(files, Plan) else None
                if key is not None:
                    made = compared.get(rel)
                    sha = made[0] if made else file_digest(files[rel].encode("utf-8"))
                    known[rel] = (key, sha)
            store.save(
                inputs if len(known) == len(files) else "", known, incomplete, _messages(files)
            )
    if late:
        raise BuildInterrupted(report)
    return report


def _messages(files: Mapping[str, str]) -> dict[str, Messages]:
    return dict(files.messages) if isinstance(files, Plan) else {}
