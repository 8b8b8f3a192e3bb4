"""Issue 9: nothing a user types gives a traceback, destroys a file or fills the memory.

Every attack the issue lists is reproduced here: files that are not ours (FIFOs, devices, modes,
a user's look-alike temporaries, concurrent builds, Ctrl-C after the commit), system refusals
(folders, missing folders, /proc, read-only and full disks, closed standard streams), inputs past
Python's limits (digits, nesting, name lengths), API misuse, terminal injection, and big inputs
that must stream (``replay`` memory flat, ``/dev/zero`` bounded and interruptible). Memory is
compared between runs (``ru_maxrss``), never timed.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import MEASURE, peak_kib

from fivehundred.generator import build as build_mod
from fivehundred.generator.build import LOCK_NAME, BuildInterrupted, BuildReport, build, build_lock
from fivehundred.generator.i18n import _add
from fivehundred.runtime import transaction
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.errors import ArgumentError, FiveHundredError, IllegalActionError
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.records import MAX_RECORD_BYTES, replay
from fivehundred.runtime.loading import load_rules
from fivehundred.runtime.terminal import json_printable, printable

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "fivehundred.runtime.cli.main"]
RAW = ("\x1b", "\x00", "\x07", "\x9b", "\u202e", "\u2066", "\r")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command fails with exit 2 and exactly one line on stderr; returns that line."""
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def cli(*argv: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [*CLI, *argv], capture_output=True, text=True, timeout=120, cwd=ROOT, **kwargs
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


# -- files that are not ours -----------------------------------------------------------------


def test_docs_into_a_fifo_writes_into_it_and_keeps_the_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "book.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    proc = cli("docs", "australian", "-o", str(fifo))
    reader.join(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode), "the FIFO was replaced"
    assert got and got[0].startswith(b"# ")


def device(tmp_path: Path, name: str, minor: int) -> Path:
    """A character device node of our own (1, minor: 3 null, 7 full), so that a regression can
    never replace the system's /dev/null; skipped where nodes cannot be made (not root)."""
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(path, "wb"):
            pass
    except OSError as exc:
        pytest.skip(f"cannot make a device node: {exc}")
    return path


def test_docs_into_a_device_keeps_the_device(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    null = device(tmp_path, "null", 3)
    code, _, err = run(capsys, "docs", "australian", "-o", str(null))
    assert (code, err) == (0, "")
    assert stat.S_ISCHR(null.stat().st_mode)


def test_docs_into_a_full_device_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    full = device(tmp_path, "full", 7)
    line = refused(capsys, "docs", "australian", "-o", str(full))
    assert line == f"{full}: cannot write: no space left on device"
    assert stat.S_ISCHR(full.stat().st_mode)


def test_docs_keeps_an_existing_files_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    private = tmp_path / "private.md"
    private.write_text("old")
    private.chmod(0o600)
    assert run(capsys, "docs", "australian", "-o", str(private))[0] == 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text(encoding="utf-8").startswith("# ")
    fresh = tmp_path / "fresh.md"
    umask = os.umask(0o027)
    try:
        assert run(capsys, "docs", "australian", "-o", str(fresh))[0] == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.md", "private.md"]


def test_docs_through_a_symlink_replaces_the_target_not_the_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "real.md"
    target.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    assert run(capsys, "docs", "australian", "-o", str(link))[0] == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("# ")


@pytest.mark.parametrize("verb", ["docs", "new", "simulate"])
def test_outputs_onto_a_folder_a_missing_folder_or_proc_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, verb: str
) -> None:
    def argv(out: str) -> list[str]:
        if verb == "docs":
            return ["docs", "australian", "-o", out]
        if verb == "new":
            return ["new", "club", "--extends", "australian", "-o", out]
        return ["simulate", "australian", "--hands", "2", "--seed", "1", "--records", out]

    name = "x.yaml" if verb == "new" else "x.out"
    missing = tmp_path / "no" / "such" / name
    for out in (str(tmp_path) + ("/x.yaml" if verb == "new" else ""), str(missing)):
        if verb == "new" and out.endswith("x.yaml") and "no" not in out:
            (tmp_path / "x.yaml").mkdir()
        line = refused(capsys, *argv(out))
        assert out in line
    assert not (tmp_path / "no").exists(), "a missing folder was created"
    if Path("/proc/self").is_dir():
        line = refused(capsys, *argv(f"/proc/{name}"))
        assert line.startswith(f"/proc/{name}")


def test_a_full_disk_while_writing_docs_leaves_the_old_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "book.md"
    book.write_text("old")
    real = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    line = refused(capsys, "docs", "australian", "-o", str(book))
    monkeypatch.setattr(os, "fsync", real)
    assert line == f"{book}: cannot write: no space left on device"
    assert book.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["book.md"], "a temporary was left"


def test_an_interrupted_simulate_keeps_the_old_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivehundred.runtime.studies import simulate as sim

    out = tmp_path / "hands.jsonl"
    out.write_text("old\n")
    real = sim.simulate

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        kwargs["records"].write("half a record")
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "simulate", interrupted)
    code, _, err = run(capsys, "simulate", "australian", "--hands", "5", "--records", str(out))
    monkeypatch.setattr(sim, "simulate", real)
    assert (code, err) == (130, "interrupted\n")
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["hands.jsonl"]


# -- builds ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plan() -> dict[str, str]:
    return build_mod.plan_outputs()


@pytest.fixture()
def tree(tmp_path: Path, plan: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """An up-to-date build folder; the plan is computed once for the module."""
    monkeypatch.setattr(build_mod, "plan_outputs", lambda: dict(plan))
    root = tmp_path / "generated"
    build(root=root)
    return root


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != LOCK_NAME
    }


def test_a_second_build_waits_for_the_lock_and_says_so(tree: Path) -> None:
    (tree / "json" / "australian.json").write_text("stale")
    heard: list[str] = []
    done = threading.Event()
    with build_lock(tree):
        worker = threading.Thread(target=lambda: (build(root=tree, wait=heard.append), done.set()))
        worker.start()
        for _ in range(600):
            if heard:
                break
            time.sleep(0.05)
        assert heard and heard[0].startswith("waiting for another build")
        assert f"(pid {os.getpid()})" in heard[0]
        assert not done.is_set(), "the second build did not wait"
        assert (tree / "json" / "australian.json").read_text() == "stale"
    worker.join(timeout=120)
    assert done.is_set()
    assert (tree / "json" / "australian.json").read_text() != "stale"


CONCURRENT = """\
import sys
from pathlib import Path
from fivehundred.generator import build as b
plan = {rel: Path(sys.argv[2], rel).read_text(encoding="utf-8") for rel in sys.argv[3:]}
b.plan_outputs = lambda: dict(plan)
report = b.build(root=Path(sys.argv[1]))
print(len(report.written))
"""


def test_concurrent_builds_never_crash(tree: Path, tmp_path: Path) -> None:
    """Issue 9: one of two simultaneous builds crashed in 3 of 9 trials. Four at once on a
    stale folder: all succeed, exactly one writes, and the result is the whole build."""
    expected = files_of(tree)
    reference = tmp_path / "reference"
    reference.mkdir()
    for rel, data in expected.items():
        (reference / rel).parent.mkdir(parents=True, exist_ok=True)
        (reference / rel).write_bytes(data)
    for rel in list(expected)[::7]:
        (tree / rel).write_text("stale")
    script = tmp_path / "concurrent.py"
    script.write_text(CONCURRENT)
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(tree), str(reference), *expected],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, results
    written = sorted(int(out) for out, _ in results)
    assert written[:3] == [0, 0, 0] and written[3] > 0
    assert files_of(tree) == expected


def test_ctrl_c_after_the_commit_reports_what_was_done(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tree / "json" / "australian.json").write_text("stale")
    real_finish = transaction.Transaction.finish

    def finish_then_sigint(self: Any) -> None:
        real_finish(self)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(transaction.Transaction, "finish", finish_then_sigint)
    with pytest.raises(BuildInterrupted) as info:
        build(root=tree)
    assert info.value.report.written == ("json/australian.json",)
    assert (tree / "json" / "australian.json").read_text() != "stale", "the build is whole"


def test_the_cli_reports_a_build_interrupted_after_its_commit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def late(**kwargs: Any) -> BuildReport:
        raise BuildInterrupted(BuildReport(("json/x.json",), (), 5))

    monkeypatch.setattr(build_mod, "build", late)
    code, out, err = run(capsys, "build", "--no-cache")
    assert code == 130
    assert out.splitlines() == ["wrote generated/json/x.json", "1 written, 0 removed, 5 unchanged"]
    assert err == "interrupted after the build had completed: generated/ is up to date\n"


def test_ctrl_c_before_the_commit_says_nothing_changed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def early(**kwargs: Any) -> BuildReport:
        raise KeyboardInterrupt

    monkeypatch.setattr(build_mod, "build", early)
    assert run(capsys, "build", "--no-cache")[1:] == ("", "interrupted: generated/ is as it was\n")


@pytest.mark.parametrize(
    ("what", "error"),
    [("read-only", errno.EROFS), ("full", errno.ENOSPC)],
)
def test_build_on_a_read_only_or_full_folder_is_one_line(
    capsys: pytest.CaptureFixture[str],
    tree: Path,
    monkeypatch: pytest.MonkeyPatch,
    what: str,
    error: int,
) -> None:
    (tree / "json" / "australian.json").write_text("stale")
    before = files_of(tree)
    monkeypatch.setattr(build_mod, "GENERATED_DIR", tree)
    real_open = os.open

    real_fsync = os.fsync

    def refusing_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT:
            raise OSError(error, os.strerror(error), os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    def full_fsync(fd: int) -> None:
        raise OSError(error, os.strerror(error))

    if what == "read-only":
        monkeypatch.setattr(os, "open", refusing_open)
    else:
        monkeypatch.setattr(os, "fsync", full_fsync)
    line = refused(capsys, "build", "--no-cache")
    monkeypatch.setattr(os, "open", real_open)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert line.endswith(f"cannot write: {os.strerror(error).lower()}; {tree} is as it was")
    assert files_of(tree) == before
    if what == "read-only":  # --check only reads: it works on a read-only folder
        monkeypatch.setattr(os, "open", refusing_open)
        code, _, err = run(capsys, "build", "--check", "--no-cache")
        assert code == 1 and "json/australian.json: stale" in err


# -- inputs past Python's limits ---------------------------------------------------------------


def test_a_huge_hex_scalar_in_a_spec_is_a_diagnostic(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "hex.yaml"
    spec.write_text("id: hexy\nextends: australian\nname: x\nend:\n  target: 0x" + "f" * 5000)
    line = refused(capsys, "validate", str(spec))
    assert line.startswith(f"{spec}:5:11: integer '0xfff") and "too large" in line


def test_a_300_character_id_is_refused_by_validate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "long.yaml"
    spec.write_text(f"id: {'a' * 300}\nextends: australian\nname: x\n")
    line = refused(capsys, "validate", str(spec))
    assert line.startswith(f"{spec}:1:5:") and "longer than 64 characters" in line
    assert refused(capsys, "new", "b" * 300, "--extends", "australian").endswith(
        "a variant name is at most 64 characters"
    )


@pytest.mark.parametrize("verb", ["show", "docs", "simulate", "play", "diff"])
def test_a_5000_character_variant_path_is_one_line(
    capsys: pytest.CaptureFixture[str], verb: str
) -> None:
    name = "x" * 5000
    extra = {"simulate": ["--hands", "1"], "diff": ["australian"]}.get(verb, [])
    line = refused(capsys, verb, name, *extra)
    assert "no such rule file" in line and len(line) < 200


@pytest.mark.parametrize(
    "args", [["--hands", "0"], ["--hands", "-1"], ["--rounds", "0"], ["--rounds", "-3"]]
)
def test_bench_refuses_counts_below_one(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert "at least 1" in refused(capsys, "bench", *args)


def record(**change: Any) -> dict[str, Any]:
    base = {
        "variant": "australian",
        "dealer": 0,
        "deal": {
            "hands": [
                ["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"],
                ["AH", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD"],
                ["KD", "AD", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC"],
                ["KC", "AC", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"],
            ],
            "kitty": ["KS", "AS", "JK"],
        },
        "actions": ["pass", "pass", "pass", "pass"],
    }
    base.update(change)
    return base


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"variant": "australian", "dealer": ' + "9" * 5000 + "}", "more than 4300 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("{" * 100_000, "bad JSON"),
    ],
)
def test_records_past_pythons_limits_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    line = refused(capsys, "replay", str(path))
    assert line.startswith(f"{path}:") and words in line


def test_a_record_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b'{"variant": "\xff"}')
    assert refused(capsys, "replay", str(path)).endswith("not UTF-8 text")


# -- closed and full standard streams -----------------------------------------------------------


def test_play_with_stdin_closed() -> None:
    proc = subprocess.run(
        [
            "sh",
            "-c",
            'exec "$0" -m fivehundred.runtime.cli.main play australian --seed 1 <&-',
            sys.executable,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr == "play reads your moves from standard input, which is closed\n"


@pytest.mark.parametrize("verb", [["play", "australian", "--seed", "1"], ["show", "australian"]])
def test_stdout_closed(verb: list[str]) -> None:
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -m fivehundred.runtime.cli.main "$@" >&-', sys.executable, *verb],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr == "cannot write: standard output is closed\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "verb",
    [["play", "australian", "--seed", "1"], ["show", "australian"], ["docs", "australian"]],
)
def test_stdout_on_a_full_disk(verb: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [*CLI, *verb],
            stdout=full,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "cannot write: no space left on device\n"


# -- the Python API used wrongly ---------------------------------------------------------------


@pytest.mark.parametrize("seat", [99, -1, "x", None, 1.0, True])
def test_observation_of_a_seat_that_is_not_one(seat: Any) -> None:
    from random import Random

    state = HandState.new(load_rules("australian"), 0, Random(1))
    with pytest.raises(ArgumentError, match=r"a seat is 0\.\.3, not "):
        state.observation(seat)


@pytest.mark.parametrize("name", [123, None, b"australian", ["australian"]])
def test_load_rules_of_a_non_string(name: Any) -> None:
    with pytest.raises(FiveHundredError, match="variant id or a rule file path"):
        load_rules(name)


def test_load_rules_takes_a_path_object() -> None:
    path = ROOT / "specs" / "variants" / "house" / "sans-kitty.yaml"
    assert load_rules(path).variant == "sans-kitty"


# -- terminal injection ------------------------------------------------------------------------


def test_printable_escapes_controls_and_bidi_overrides() -> None:
    assert printable("a\x1b[2Jb\x00\u202ec\u2066\r\tok\n") == (
        "a\\x1b[2Jb\\x00\\u202ec\\u2066\\x0d\tok\n"
    )
    assert printable("اللاعب \u200f7H") == "اللاعب \u200f7H", "bidi marks of RTL text stay"
    text = json.dumps({"a": "\x1b\x9b\u202e"}, ensure_ascii=False)
    assert json.loads(json_printable(text)) == {"a": "\x1b\x9b\u202e"}
    assert not any(ch in json_printable(text) for ch in RAW)


HOSTILE = "\x1b]0;pwned\x07\x1b[2J\u202eevil\x00\x9b"


def no_raw(text: str) -> None:
    for ch in RAW:
        assert ch not in text, f"raw {ch!r} reached the terminal"


def test_rule_file_text_never_reaches_the_terminal_raw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "evil.yaml"
    spec.write_text(
        f'id: evil\nextends: australian\nname: "{json.dumps(HOSTILE)[1:-1]}"\n', encoding="utf-8"
    )
    for argv in (["validate", str(spec)], ["show", str(spec)], ["diff", "australian", str(spec)]):
        code, out, err = run(capsys, *argv)
        assert code == 0, err
        no_raw(out + err)
    bad = tmp_path / "bad.yaml"
    bad.write_text(f'id: bad\nextends: australian\n"k{json.dumps(HOSTILE)[1:-1]}": 1\n')
    code, out, err = run(capsys, "validate", str(bad))
    assert code == 2 and "\\x1b]0;pwned" in err
    no_raw(out + err)


def test_record_text_never_reaches_the_terminal_raw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "evil.jsonl"
    lines = [record(actions=["pass", HOSTILE]), record(variant=HOSTILE)]
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    no_raw(out + err)
    assert "\\x1b]0;pwned" in err
    code, out, err = run(capsys, "replay", "--json", str(path))
    no_raw(out + err)
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    assert errors[0]["action"] == HOSTILE, "JSON escapes decode to the record's own text"


def test_play_echoes_hostile_input_escaped() -> None:
    proc = cli("play", "australian", "--seed", "1", input=HOSTILE + "\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "\\x1b]0;pwned" in proc.stdout
    no_raw(proc.stdout + proc.stderr)


def test_catalogues_never_hold_raw_controls() -> None:
    from babel.messages.catalog import Catalog

    catalog = Catalog()
    _add(catalog, "name\x1b[31m\u202e", ("evil.yaml", 3), ["comment\x00"])
    (message,) = [m for m in catalog if m.id]
    assert message.id == "name\\x1b[31m\\u202e" and message.auto_comments == ["comment\\x00"]
    for po in sorted((ROOT / "specs" / "locales").rglob("*.po*")):
        no_raw(po.read_text(encoding="utf-8").replace("\r", ""))


# -- big inputs stream -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "hands.jsonl"
    proc = cli("simulate", "australian", "--hands", "3000", "--seed", "9", "--records", str(path))
    assert proc.returncode == 0, proc.stderr
    return path


def test_a_broken_line_is_reported_on_its_line_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str], records_file: Path, tmp_path: Path
) -> None:
    lines = records_file.read_text().splitlines()[:200]
    illegal = json.loads(lines[120])
    illegal["actions"][1] = illegal["actions"][0] if illegal["actions"][0] != "pass" else "4H"
    lines[49] = "{not json"
    lines[99] = json.dumps({"variant": "australian"})
    lines[120] = json.dumps(illegal)
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 2 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 200
    failed = {i: row["error"] for i, row in enumerate(rows) if "error" in row}
    assert sorted(failed) == [49, 99, 120]
    assert failed[49] == {
        "index": None,
        "action": None,
        "clause": None,
        "message": f"{path}:50:2: bad JSON: Expecting property name enclosed in double quotes",
    }
    assert failed[99]["index"] is None and "deal" in failed[99]["message"]
    assert failed[120]["index"] == 1 and failed[120]["clause"].startswith("auction.")
    assert failed[120]["action"] == illegal["actions"][1]
    with pytest.raises(IllegalActionError) as info:
        replay(illegal)
    assert failed[120]["message"] == info.value.reason, "the rule's reason, nothing around it"
    assert all(set(e) == {"index", "action", "clause", "message"} for e in failed.values())
    assert rows[199]["variant"] == "australian", "the run went on after the errors"
    # plain replay: the same errors, one line each on stderr, every good record printed
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    assert [line.split(":")[1] for line in err.splitlines()] == ["50", "100", "121"]
    assert out.count("scores: ") == 197


def test_an_overlong_line_is_an_error_on_its_line(
    capsys: pytest.CaptureFixture[str], records_file: Path, tmp_path: Path
) -> None:
    good = records_file.read_text().splitlines()[0]
    path = tmp_path / "long.jsonl"
    path.write_text(good + "\n" + " " * (MAX_RECORD_BYTES + 10) + "x\n" + good + "\n")
    code, out, _ = run(capsys, "replay", "--json", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(rows) == 3
    assert rows[1]["error"]["message"] == f"{path}:2: line longer than {MAX_RECORD_BYTES} bytes"
    assert rows[0] == rows[2]


def test_replay_memory_is_flat_in_the_number_of_records(records_file: Path, tmp_path: Path) -> None:
    """Issue 9: memory flat whatever the file size. 300 and 3,000 records (ten times the
    bytes) peak within 3 MB of each other; reading all at once would add ~10 MB."""
    small = tmp_path / "small.jsonl"
    small.write_text("".join(records_file.read_text().splitlines(True)[:300]))
    _, few, _ = peak_kib(tmp_path, "replay", "--json", str(small))
    _, many, _ = peak_kib(tmp_path, "replay", "--json", str(records_file))
    assert records_file.stat().st_size > 9 * small.stat().st_size
    assert many - few < 3 * 1024, (few, many)


def test_replay_of_dev_zero_is_bounded(tmp_path: Path) -> None:
    code, kib, _ = peak_kib(tmp_path, "replay", "/dev/zero")
    assert code == 2
    _, baseline, _ = peak_kib(tmp_path, "list")
    assert kib - baseline < 16 * 1024, (baseline, kib)


def test_replay_of_an_endless_jsonl_is_bounded_and_ctrl_c_ends_it(tmp_path: Path) -> None:
    endless = tmp_path / "zero.jsonl"
    endless.symlink_to("/dev/zero")
    script = tmp_path / "measure.py"
    script.write_text(MEASURE)
    proc = subprocess.Popen(
        [sys.executable, str(script), "replay", "--json", str(endless)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        # Ctrl-C as a terminal delivers it: a test run started in the background of a script
        # inherits SIGINT ignored (POSIX shells do that to background jobs), and so would the
        # child, which then rightly goes on reading
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the overlong first line is reported at once
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()  # never left reading /dev/zero, whatever happened
    assert json.loads(first)["error"]["message"].endswith(f"longer than {MAX_RECORD_BYTES} bytes")
    assert "Traceback" not in err
    assert err.splitlines()[0] == "interrupted"
    code, kib = err.split()[-2:]
    assert int(code) == 130
    assert int(kib) < 200 * 1024


# -- more of the same, found while probing -----------------------------------------------------


def test_new_on_a_read_only_or_full_disk_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    target = tmp_path / "club.yaml"
    for error in (errno.EROFS, errno.ENOSPC):

        def refuse(*args: Any, error: int = error, **kwargs: Any) -> Any:
            raise OSError(error, os.strerror(error))

        with monkeypatch.context() as m:
            m.setattr(tempfile, "mkstemp", refuse)
            line = refused(capsys, "new", "club", "--extends", "australian", "-o", str(target))
        assert line == f"{target}:1:1: cannot write: {os.strerror(error).lower()}"
        assert not target.exists() and list(tmp_path.iterdir()) == []


def test_simulate_records_onto_a_full_device(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    full = device(tmp_path, "full", 7)
    line = refused(capsys, "simulate", "australian", "--hands", "50", "--records", str(full))
    assert line == f"{full}: cannot write: no space left on device"


def test_replay_of_a_folder_and_of_a_record_naming_a_broken_rule_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert refused(capsys, "replay", str(tmp_path)).startswith(f"{tmp_path}: cannot read:")
    spec = tmp_path / "broken.yaml"
    spec.write_text("id: broken\nextends: australian\nname: x\nplayers: 9\nteams: 7\n")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record(variant=str(spec))))
    line = refused(capsys, "replay", str(path))  # a record opens no path (issue 18)
    assert line.startswith(f"{path}: ") and "nor a rule file given with --rules" in line
    code, out, err = run(capsys, "replay", "--rules", str(spec), str(path))
    assert code == 2 and out == "" and len(err.splitlines()) > 1
    assert all(line.startswith(f"{spec}:") for line in err.splitlines()), "file:line:col each"


@pytest.mark.parametrize("seat", ["\u00b2", "\u0663", "\uff11"])
def test_a_partner_seat_in_other_digits_is_an_invalid_action(seat: str) -> None:
    """Found by the engine fuzz: ``'²'.isdigit()`` is true but ``int('²')`` fails."""
    from fivehundred.runtime.engine.errors import InvalidActionError

    rules = load_rules("five-handed")
    with pytest.raises(InvalidActionError, match="a partner is a seat"):
        rules.parse_action(f"partner {seat}")
