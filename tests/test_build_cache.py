"""The build cache (generator/buildcache.py): an unchanged build renders nothing, a changed one
renders only the files whose inputs changed, and the output is always byte for byte what a
build without the cache writes.

Every test builds into a temporary copy of generated/ with ``cache=True``; its cache folder is
the copy's sibling ``.fivehundred-cache``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from fivehundred.generator import build as build_mod
from fivehundred.generator import parallel
from fivehundred.generator.build import GENERATED_DIR, build, compile_builtins, plan_outputs
from fivehundred.generator.buildcache import (
    CACHE_DIR_NAME,
    BuildCache,
    code_digest,
    digest,
    fresh,
    produced_files,
    up_to_date,
)
from fivehundred.generator.docs import book_messages
from fivehundred.generator.parallel import run_all
from fivehundred.runtime.engine.errors import ArgumentError

RENDERERS = (
    "render_module",
    "render_engine",
    "render_json",
    "_conformance",
    "render_markdown",
    "render_html",
    "render_index",
    "render_language_index",
)


@pytest.fixture(scope="module")
def full_plan() -> dict[str, str]:
    """Every file as a build without the cache renders it."""
    return dict(plan_outputs())


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "generated"
    shutil.copytree(GENERATED_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture()
def variants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of specs/ that the build reads; returns its variants folder."""
    specs = tmp_path / "specs"
    shutil.copytree(build_mod.SPECS_DIR, specs, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(build_mod, "SPECS_DIR", specs)
    monkeypatch.setattr(build_mod, "VARIANTS_DIR", specs / "variants")
    return specs / "variants"


@pytest.fixture()
def renders(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each renderer of generator/build.py runs (by renderer name). The build runs
    in this process only (FIVEHUNDRED_JOBS=1): a forked worker's counts would not come back."""
    monkeypatch.setenv("FIVEHUNDRED_JOBS", "1")
    counts: Counter[str] = Counter()
    for name in RENDERERS:
        original = getattr(build_mod, name)

        def counted(
            *args: Any, _f: Callable[..., str] = original, _n: str = name, **kw: Any
        ) -> str:
            counts[_n] += 1
            return _f(*args, **kw)

        monkeypatch.setattr(build_mod, name, counted)
    return counts


def cached(root: Path) -> Any:
    """What the cache alone says of a build of ``root`` (None: a build must look)."""
    return fresh(root, *build_mod.input_folders())


def files_of(root: Path) -> dict[str, bytes]:
    """The files the build owns under ``root`` (generated/rulesets, json, docs)."""
    return {rel: (root / rel).read_bytes() for rel in produced_files(root)}


def test_an_unchanged_build_renders_nothing(
    tree: Path, renders: Counter[str], full_plan: dict[str, str]
) -> None:
    first = build(root=tree, cache=True)
    assert not first.changed
    assert sum(renders.values()) == len(full_plan) - 3  # all but the three written as text
    assert (tree.parent / CACHE_DIR_NAME / "build.json").is_file()
    renders.clear()
    again = build(root=tree, cache=True)
    assert not again.changed and again.unchanged == first.unchanged
    assert sum(renders.values()) == 0
    fresh = cached(tree)
    assert fresh is not None and fresh.unchanged == first.unchanged and not fresh.changed
    assert build(check=True, root=tree, cache=True).unchanged == first.unchanged
    assert sum(renders.values()) == 0


def test_a_changed_rule_file_renders_only_its_files(
    tree: Path, variants: Path, renders: Counter[str]
) -> None:
    build(root=tree, cache=True)
    renders.clear()
    house = variants / "house" / "sans-kitty.yaml"
    text = house.read_text(encoding="utf-8")
    house.write_text(text.replace("\nname: ", "\nname: Our ", 1), encoding="utf-8")
    report = build(root=tree, cache=True)
    langs = len(list((tree / "docs").glob("*/sans-kitty.md")))
    # its module and JSON, its books in every language and format, and the two indexes
    assert set(report.written) == {
        "rulesets/sans_kitty.py",
        "json/sans-kitty.json",
        *(["conformance/sans-kitty.jsonl"] if (tree / "conformance").is_dir() else []),
        *(
            f"docs/{p.parent.name}/sans-kitty.{fmt}"
            for p in (tree / "docs").glob("*/sans-kitty.md")
            for fmt in ("md", "html")
        ),
        "docs/index.md",
        "docs/index.html",
        # each language's index: a new name in English, the book left out of the others
        *(
            f"docs/{p.name}/index.{fmt}"
            for p in (tree / "docs").glob("*/")
            for fmt in ("md", "html")
        ),
    }
    # the English books are rendered first, to learn their messages, linking to every
    # language; the new name is in no catalogue, so no other language translates the whole book
    # and the English books are rendered again without the links: one more of each
    assert all("sans-kitty" in variants for variants in report.incomplete.values())
    assert renders == Counter(
        render_module=1,
        render_engine=1,  # rendered again, the same (a name is no rule): not written
        render_json=1,
        _conformance=1,
        render_markdown=langs + 1,
        render_html=langs + 1,
        render_index=2,
        render_language_index=2 * len(list((tree / "docs").glob("*/index.md"))),
    )
    assert files_of(tree) == {
        rel: text.encode("utf-8") for rel, text in dict(plan_outputs()).items()
    }


def test_a_changed_rule_file_translated_whole_renders_each_book_once(
    tree: Path, variants: Path, renders: Counter[str]
) -> None:
    """A change that every catalogue still translates (a number): the English books rendered
    to learn their messages are the ones written."""
    build(root=tree, cache=True)
    renders.clear()
    house = variants / "house" / "misere-230.yaml"
    text = house.read_text(encoding="utf-8")
    assert "value: 230" in text
    house.write_text(text.replace("value: 230", "value: 240"), encoding="utf-8")
    report = build(root=tree, cache=True)
    assert not any("misere-230" in variants for variants in report.incomplete.values())
    langs = len(list((tree / "docs").glob("*/misere-230.md")))
    assert renders["render_markdown"] == renders["render_html"] == langs
    assert {rel for rel in report.written if rel.startswith("docs/en/")} == {
        "docs/en/misere-230.md",
        "docs/en/misere-230.html",
    }
    assert files_of(tree) == {
        rel: text.encode("utf-8") for rel, text in dict(plan_outputs()).items()
    }


def test_a_comment_in_a_rule_file_renders_nothing(
    tree: Path, variants: Path, renders: Counter[str]
) -> None:
    build(root=tree, cache=True)
    renders.clear()
    with (variants / "australian.yaml").open("a", encoding="utf-8") as handle:
        handle.write("# a comment changes no rule\n")
    assert not build(root=tree, cache=True).changed
    assert sum(renders.values()) == 0


def test_a_hand_edited_file_is_rendered_again(
    tree: Path, renders: Counter[str], full_plan: dict[str, str]
) -> None:
    build(root=tree, cache=True)
    book = tree / "docs" / "nl" / "australian.md"
    book.write_text("edited by hand\n", encoding="utf-8")
    assert cached(tree) is None
    renders.clear()
    check = build(check=True, root=tree, cache=True)
    assert check.written == ("docs/nl/australian.md",)
    assert renders == Counter(render_markdown=1)
    assert build(root=tree, cache=True).written == ("docs/nl/australian.md",)
    assert book.read_text(encoding="utf-8") == full_plan["docs/nl/australian.md"]


def test_a_stray_file_is_not_up_to_date(tree: Path) -> None:
    build(root=tree, cache=True)
    (tree / "docs" / "nl" / "old-variant.md").write_text("gone\n", encoding="utf-8")
    assert cached(tree) is None
    assert build(check=True, root=tree, cache=True).removed == ("docs/nl/old-variant.md",)


def test_a_deleted_file_is_written_again(tree: Path, full_plan: dict[str, str]) -> None:
    build(root=tree, cache=True)
    (tree / "json" / "american.json").unlink()
    assert cached(tree) is None
    assert build(root=tree, cache=True).written == ("json/american.json",)
    assert (tree / "json" / "american.json").read_text(encoding="utf-8") == full_plan[
        "json/american.json"
    ]


@pytest.mark.parametrize(
    "manifest",
    [
        "",
        "not json",
        "[]",
        '{"format": 1}',
        '{"format": 1, "root": 3, "files": []}',
        '{"format": 99}',
    ],
)
def test_a_damaged_cache_is_ignored(
    tree: Path, manifest: str, renders: Counter[str], full_plan: dict[str, str]
) -> None:
    build(root=tree, cache=True)
    (tree.parent / CACHE_DIR_NAME / "build.json").write_text(manifest, encoding="utf-8")
    assert cached(tree) is None
    renders.clear()
    assert not build(root=tree, cache=True).changed
    assert sum(renders.values()) == len(full_plan) - 3
    assert BuildCache(tree).entries  # written afresh


def test_a_cache_entry_with_wrong_fingerprints_is_not_trusted(
    tree: Path, full_plan: dict[str, str]
) -> None:
    """A manifest that claims a stale file is fresh under other inputs changes nothing: the
    file's inputs key differs, so it is rendered and compared."""
    build(root=tree, cache=True)
    path = tree.parent / CACHE_DIR_NAME / "build.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["inputs"] = "0" * 64
    book = tree / "docs" / "da" / "american.html"
    book.write_text("stale\n", encoding="utf-8")
    from fivehundred.generator.buildcache import file_digest

    data["files"]["docs/da/american.html"] = ["0" * 64, file_digest(b"stale\n")]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert build(check=True, root=tree, cache=True).written == ("docs/da/american.html",)


def test_an_unwritable_cache_only_costs_time(tree: Path, full_plan: dict[str, str]) -> None:
    (tree.parent / CACHE_DIR_NAME).write_text("a file where the cache folder would be\n")
    assert not build(root=tree, cache=True).changed
    assert cached(tree) is None
    (tree / "json" / "american.json").write_text("{}\n", encoding="utf-8")
    assert build(root=tree, cache=True).written == ("json/american.json",)


def test_without_the_cache_nothing_is_read_or_written(
    tree: Path, renders: Counter[str], full_plan: dict[str, str]
) -> None:
    assert not build(root=tree).changed  # a root other than generated/: no cache by default
    assert not (tree.parent / CACHE_DIR_NAME).exists()
    assert sum(renders.values()) == len(full_plan) - 3


def test_a_new_balance_summary_renders_only_that_variants_books(
    tree: Path, tmp_path: Path, renders: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The books show generated/balance/<variant>.json: a summary is one of their inputs."""
    from fivehundred.generator import balancebook

    summaries = tmp_path / "balance"
    summaries.mkdir()
    monkeypatch.setattr(balancebook, "SUMMARY_DIR", summaries)
    build(root=tree, cache=True)
    renders.clear()
    summary = {"format": balancebook.SUMMARY_FORMAT, "variant": "american", "rules": "other"}
    (summaries / "american.json").write_text(json.dumps(summary), encoding="utf-8")
    report = build(root=tree, cache=True)
    books = {rel for rel in report.written}
    assert books and all(rel.startswith("docs/") and "/american." in rel for rel in books)
    assert renders["render_module"] == renders["render_json"] == renders["_conformance"] == 0
    assert renders["render_engine"] == 0
    assert renders["render_markdown"] + renders["render_html"] == len(
        list((tree / "docs").glob("*/american.*"))
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_templates_compiled_by_an_earlier_build_render_the_same(
    tree: Path, full_plan: dict[str, str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """The second process loads the compiled templates the first one kept (one folder per
    format: Markdown and HTML compile the same template differently) and writes the same
    bytes as a build without the cache; whether the first compiled them itself or had a
    worker compile them."""
    monkeypatch.setenv("FIVEHUNDRED_JOBS", jobs)
    script = (
        "import sys; from pathlib import Path; from fivehundred.generator.build import build; "
        "print(len(build(root=Path(sys.argv[1]), cache=True).written))"
    )
    run = [sys.executable, "-c", script, str(tree)]
    assert subprocess.run(run, capture_output=True, text=True, check=True).stdout == "0\n"
    (kept,) = (tree.parent / CACHE_DIR_NAME / "templates").iterdir()
    assert sorted(p.name for p in kept.iterdir()) == ["html", "md"]
    assert all(any((kept / fmt).iterdir()) for fmt in ("html", "md"))
    gone = ["docs/nl/australian.md", "docs/nl/australian.html", "docs/en/american.md"]
    for rel in gone:
        (tree / rel).unlink()
    assert subprocess.run(run, capture_output=True, text=True, check=True).stdout == "3\n"
    for rel in gone:
        assert (tree / rel).read_text(encoding="utf-8") == full_plan[rel]


def test_the_command_line_shortcut_leaves_an_imported_generator_to_the_build() -> None:
    """Once the generator is imported (its folders may be moved, its functions replaced), the
    command line does not answer from the cache on its own: the build does."""
    assert "fivehundred.generator.build" in sys.modules
    assert up_to_date() is None


# -- the build on every core (generator/parallel.py) ---------------------------------------------


def _pid_after(delay: float) -> int:
    time.sleep(delay)
    return os.getpid()


def test_pieces_run_in_workers_and_come_back_in_order() -> None:
    pieces = [partial(_pid_after, 0.01) for _ in range(24)]
    pids = run_all(pieces, processes=2)
    assert len(pids) == 24
    if parallel._can_fork():
        assert os.getpid() in pids and len(set(pids)) == 2  # the caller and one worker
    squares = run_all([partial(pow, n, 2) for n in range(50)], processes=3)
    assert squares == [n * n for n in range(50)]


def _fails_at(n: int, bad: int) -> int:
    time.sleep(0.002)
    if n == bad:
        raise ValueError(f"piece {n} is broken")
    return n


@pytest.mark.parametrize("bad", [0, 7, 19])
def test_a_failing_piece_raises_in_the_caller_as_it_would_alone(bad: int) -> None:
    """Whichever process took it, the error is the piece's own, raised by the caller."""
    with pytest.raises(ValueError, match=f"^piece {bad} is broken$"):
        run_all([partial(_fails_at, n, bad) for n in range(20)], processes=2)


def _dies_in_a_worker(parent: int, n: int) -> int:
    if os.getpid() != parent:
        os._exit(3)  # a worker killed mid-build
    return n


def test_a_dead_worker_costs_time_only() -> None:
    parent = os.getpid()
    assert run_all([partial(_dies_in_a_worker, parent, n) for n in range(20)], processes=2) == list(
        range(20)
    )


def test_one_job_runs_everything_in_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVEHUNDRED_JOBS", "1")
    assert parallel.jobs() == 1
    assert set(run_all([partial(_pid_after, 0) for _ in range(20)])) == {os.getpid()}
    monkeypatch.setenv("FIVEHUNDRED_JOBS", "3")
    assert parallel.jobs() == 3


def test_the_books_rendered_to_learn_their_messages_use_those_of_book_messages() -> None:
    """The build learns a book's messages from its English render with links to the other
    languages; :func:`~fivehundred.generator.docs.book_messages` renders it without: the same
    messages, in the same order, for every built-in variant."""
    plan = plan_outputs()
    code = code_digest()
    for variant, (_, rs) in compile_builtins().items():
        assert plan.messages[digest(code, repr(rs))] == book_messages(rs), variant


def test_a_parallel_build_writes_what_a_serial_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_plan: dict[str, str]
) -> None:
    monkeypatch.setenv("FIVEHUNDRED_JOBS", "2")
    root = tmp_path / "generated"
    report = build(root=root)
    assert len(report.written) == len(full_plan)
    assert files_of(root) == {rel: text.encode("utf-8") for rel, text in full_plan.items()}


def test_library_versions_are_those_importlib_metadata_reports() -> None:
    """The fingerprint reads the libraries' versions from their dist-info folders, as
    importlib.metadata does (without its cost)."""
    from importlib import metadata

    from fivehundred.generator import buildcache

    found = buildcache._installed_versions()
    for name in buildcache._LIBRARIES:
        assert found[buildcache._normal(name)] == metadata.version(name), name


def test_catalogues_compile_as_babel_does_without_the_untranslated_messages() -> None:
    """A catalogue is parsed once for its checks and its translations: the messages it does
    not translate are left out as it is written (not deleted from the shared copy), and the
    compiled catalogue is byte for byte the one written from a copy with them deleted."""
    import io

    from babel.messages.mofile import write_mo

    from fivehundred.generator import i18n

    for lang in i18n.languages():
        if lang == "en":
            continue
        path = i18n.po_path(lang)
        catalog = i18n.read_catalog(path, lang)
        for message in list(catalog):
            if message.id and not i18n.is_translated(message, catalog.num_plurals):
                catalog.delete(message.id, message.context)
        deleted, filtered = io.BytesIO(), io.BytesIO()
        write_mo(deleted, catalog)
        shared = i18n.read_catalog(path, lang)
        before = len(shared)
        write_mo(filtered, i18n._Translated(shared))  # type: ignore[arg-type]
        assert filtered.getvalue() == deleted.getvalue(), lang
        assert len(shared) == before


def _pid_and(value: int) -> tuple[int, int]:
    return os.getpid(), value


def _fails_in_a_worker(parent: int) -> int:
    if os.getpid() != parent:
        raise ValueError("only in the worker")
    return 7


def test_background_work_comes_back_or_is_done_by_the_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FIVEHUNDRED_JOBS", "2")
    pid, value = parallel.Background(partial(_pid_and, 5)).result()
    assert value == 5
    if parallel._can_fork():
        assert pid != os.getpid()  # made by the worker
    assert parallel.Background(partial(_fails_in_a_worker, os.getpid())).result() == 7
    parallel.Background(partial(_pid_and, 1)).close()  # waited for, result dropped
    monkeypatch.setenv("FIVEHUNDRED_JOBS", "1")
    assert parallel.Background(partial(_pid_and, 2)).result() == (os.getpid(), 2)


def test_templates_compiled_by_a_worker_render_what_compiled_ones_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_plan: dict[str, str]
) -> None:
    """A build without the cache has a worker compile the rule-book templates (their bytecode
    comes back) while it reads the rule files; the books are the same."""
    script = (
        "import sys; from pathlib import Path; from fivehundred.generator.build import build; "
        "print(len(build(root=Path(sys.argv[1])).written))"
    )
    root = tmp_path / "generated"
    env = {**os.environ, "FIVEHUNDRED_JOBS": "2"}
    run = [sys.executable, "-c", script, str(root)]
    out = subprocess.run(run, capture_output=True, text=True, check=True, env=env)
    assert out.stdout == f"{len(full_plan)}\n"
    assert files_of(root) == {rel: text.encode("utf-8") for rel, text in full_plan.items()}


def test_the_command_ends_at_once_after_a_build_with_its_output_and_code() -> None:
    """After a build the ``fivehundred`` process skips the interpreter's tear-down: what it
    printed still arrives (through a pipe) and its exit code is the build's."""
    run = [sys.executable, "-m", "fivehundred.runtime.cli.main", "build", "--check"]
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("generated/ is up to date (") and done.stdout.endswith(
        " files)\n"
    )
    bad = subprocess.run([*run, "--no-such-option"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--no-such-option" in bad.stderr


def _random_literal(rng: Any, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 5)
    if kind == 0:
        return rng.choice([None, True, False, 0, -7, 10**20, 1.5, -0.0, float("1e300")])
    if kind == 1:
        return "".join(rng.choice("ab c\n'\"\t\u00e9\u2066x-") for _ in range(rng.randrange(3)))
    if kind == 2:
        words = [rng.choice(["spade", "trick", "misère", "\n", "a" * rng.randrange(1, 120)])]
        return " ".join(words * rng.randrange(1, 40))  # long: pprint splits it
    if kind in (3, 4):
        return rng.randrange(-1000, 1000)
    if kind in (5, 6):
        n = rng.randrange(0, 12)
        return [_random_literal(rng, depth + 1) for _ in range(n)]
    if kind == 7:
        return tuple(_random_literal(rng, depth + 1) for _ in range(rng.randrange(0, 3)))
    return {
        f"k{i}" + rng.choice(["", "_long_name" * rng.randrange(4)]): _random_literal(rng, depth + 1)
        for i in range(rng.randrange(0, 8))
    }


def test_ruleset_literals_are_written_as_pprint_writes_them() -> None:
    """The ruleset modules' literals (render.pyliteral) make each part's one-line repr once;
    the text is pprint's, for every built-in variant and for a thousand random literals."""
    import pprint
    import random

    from fivehundred.generator.render import pyliteral

    def reference(value: Any) -> str:
        return pprint.pformat(value, width=100, sort_dicts=False, compact=True)

    for variant, (_, rs) in compile_builtins().items():
        assert pyliteral(rs.tables) == reference(rs.tables), variant
    rng = random.Random(500)
    for _ in range(1000):
        value = _random_literal(rng)
        shared = [value, {"again": value}, (value,)]  # the same part twice
        assert pyliteral(value) == reference(value)
        assert pyliteral(shared) == reference(shared)


@pytest.mark.parametrize(
    ("value", "processes"),
    [("1", 1), (" 2 ", 2), ("007", min(7, parallel._MAX_WORKERS + 1)), ("9" * 5000, None)],
)
def test_jobs_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str, processes: int | None
) -> None:
    """FIVEHUNDRED_JOBS sets the number of processes; a huge one means as many as allowed."""
    monkeypatch.setenv("FIVEHUNDRED_JOBS", value)
    assert parallel.jobs() == (processes or parallel._MAX_WORKERS + 1)


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1e3", "\u0663", "2.5"])
def test_a_bad_jobs_value_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    """A careless FIVEHUNDRED_JOBS is named in one line (exit 2), not ignored or a traceback."""
    from fivehundred.runtime.cli.main import main

    monkeypatch.setenv("FIVEHUNDRED_JOBS", value)
    with pytest.raises(ArgumentError, match="FIVEHUNDRED_JOBS"):
        parallel.jobs()
    assert main(["build", "--check", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "FIVEHUNDRED_JOBS" in err and "Traceback" not in err and err.count("\n") == 1
