"""Writing a set of files all or nothing, and a lock that serialises writers of one folder.

The build (``fivehundred build``), the balance summaries and reports, and the catalogues all
write through :func:`commit_files`: every new file is written and fsynced as a temporary sibling,
every file it replaces is backed up, the temporaries are renamed into place, and any failure
(Ctrl-C included) restores the folder byte for byte. Temporaries are named
``.fivehundred-build-PID-TOKEN`` (backups end in ``.bak``); a later commit removes only such names
whose process is dead, never a user's file. :func:`build_lock` holds
``.fivehundred-build.lock`` in a folder so that two writers of it run one after the other.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from .engine.errors import FileError
from .files import os_error_text

__all__ = ["LOCK_NAME", "TMP_PREFIX", "Transaction", "build_lock", "commit_files"]

#: The name prefix of our temporaries and backups (never a produced file).
TMP_PREFIX = ".fivehundred-build-"
#: A temporary or backup of ours: the prefix, the pid of the process that made it, a random token.
_TMP_NAME = re.compile(r"^\.fivehundred-build-(?P<pid>[0-9]{1,10})-[0-9a-f]{12}(?:\.bak)?$")
#: The lock file that serialises writers of one folder (kept: removing it would race).
LOCK_NAME = ".fivehundred-build.lock"


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@contextlib.contextmanager
def build_lock(
    root: Path, wait: Callable[[str], None] | None = None, required: bool = True
) -> Iterator[None]:
    """Hold the build lock of ``root`` (``root/.fivehundred-build.lock``) for the block.

    If another build holds it, ``wait`` (default: a line on standard error) is told so once and
    the call blocks until that build ends (Ctrl-C still interrupts it). When the lock file
    cannot be created (a read-only folder) a ``required`` lock raises
    :class:`FileError`; otherwise the block runs unlocked (``build
    --check`` only reads). Without ``fcntl`` (not POSIX) builds are not serialised.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = root / LOCK_NAME
    try:
        if required:
            root.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if required:
            raise FileError(
                f"{path}: cannot write: {os_error_text(exc)}; {root} is as it was"
            ) from None
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (pid {holder})" if holder.isascii() and holder.isdigit() else ""
            (wait or _say)(f"waiting for another build{who} of {root} to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def commit_files(
    root: Path, changes: dict[str, bytes], removed: list[str], owned: Iterable[str] = ()
) -> bool:
    """Apply a build to ``root`` all or nothing: ``changes`` (relative path -> bytes) written,
    ``removed`` (relative paths) deleted. Returns True when a SIGINT came after the last step
    (the work is complete; the caller reports it).

    1. Temporaries of an earlier, killed build (:data:`_TMP_NAME` with a dead pid) are swept.
    2. Every new file is written and fsynced as a temporary sibling of its target.
    3. Every file about to be replaced or removed is backed up (a hard link, else a copy).
    4. The temporaries are renamed into place and the removed files unlinked.
    5. On success the backups are dropped. On any exception, ``KeyboardInterrupt`` included,
       every replaced or removed file is restored from its backup, files that did not exist are
       deleted, temporaries and new folders removed, and the exception re-raised: the tree is
       byte for byte what it was.

    In the main thread SIGINT is held back from step 2 on: a Ctrl-C rolls back at the next step
    boundary and then raises ``KeyboardInterrupt``, and a second Ctrl-C cannot cut the rollback
    short. A rollback that cannot restore a file leaves its backup in place and says where (a
    note on the exception).
    """
    _sweep(root, [*changes, *removed], owned)
    with _HeldInterrupts() as interrupts:
        tx = Transaction(root)
        try:
            for rel, data in changes.items():
                tx.stage(rel, data)
                interrupts.check()
            for rel in [*changes, *removed]:
                tx.backup(rel)
            interrupts.check()
            for rel in changes:
                tx.replace(rel)
                interrupts.check()
            for rel in removed:
                tx.remove(rel)
                interrupts.check()
        except BaseException as exc:
            for note in tx.rollback():
                exc.add_note(note)
            raise
        tx.finish()
    return interrupts.late


#: How deep below each owned folder (and in a target's own folder) strays are swept.
_SWEEP_DEPTH = 3


def _sweep(root: Path, rels: list[str], owned: Iterable[str]) -> None:
    """Delete temporaries and backups left by a killed build of ours: names that match
    :data:`_TMP_NAME` whose pid is not a live process (or is this one), in ``root``, in every
    folder this run writes to, and in the ``owned`` folders of ``root`` (at most
    :data:`_SWEEP_DEPTH` levels down). Nothing else is ever removed: a user's file named
    ``.fivehundred-build-notes`` stays."""
    folders = {root, *((root / rel).parent for rel in rels)}
    for folder in sorted(folders):
        _sweep_folder(folder, 0)
    for sub in owned:  # the folders the caller owns (the build's)
        _sweep_folder(root / sub, _SWEEP_DEPTH)


def _ours_and_dead(name: str) -> bool:
    match = _TMP_NAME.match(name)
    if match is None:
        return False
    pid = int(match["pid"])
    if pid == os.getpid():
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):  # alive under another user, or not a pid at all
        return False
    return False


def _sweep_folder(folder: Path, depth: int) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if _ours_and_dead(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
            elif depth > 0 and entry.is_dir(follow_symlinks=False):
                _sweep_folder(Path(entry.path), depth - 1)
        except OSError:
            continue


class _HeldInterrupts:
    """Hold SIGINT back (main thread only): :meth:`check` raises ``KeyboardInterrupt`` if one
    came; one that comes after the last check sets :attr:`late` (the work is done: the caller
    reports it rather than pretending nothing happened)."""

    def __init__(self) -> None:
        self.pending = False
        self.late = False
        self.installed = False
        self.previous: Any = None

    def _hold(self, signum: int, frame: object) -> None:
        self.pending = True

    def __enter__(self) -> _HeldInterrupts:
        if threading.current_thread() is threading.main_thread():
            try:
                self.previous = signal.signal(signal.SIGINT, self._hold)
                self.installed = True
            except (ValueError, OSError):  # pragma: no cover - e.g. embedded interpreters
                self.installed = False
        return self

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if a SIGINT came since the last check."""
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if self.installed:
            previous = self.previous if self.previous is not None else signal.default_int_handler
            signal.signal(signal.SIGINT, previous)
        if self.pending and exc_type is None:
            self.pending = False
            self.late = True


class Transaction:
    """The files one :func:`commit_files` stages, backs up, replaces and removes, and how to undo
    it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.staged: dict[str, Path] = {}  # rel -> temporary holding the new bytes
        self.backups: dict[str, Path] = {}  # rel -> backup of the file as it was
        self.done: list[str] = []  # rels replaced or removed, in order
        self.made_dirs: list[Path] = []  # folders created, outermost first

    def _mkdirs(self, folder: Path) -> None:
        missing: list[Path] = []
        while not folder.exists() and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        for new in reversed(missing):
            new.mkdir()
            self.made_dirs.append(new)

    def stage(self, rel: str, data: bytes) -> None:
        target = self.root / rel
        self._mkdirs(target.parent)
        fd, name = _create_temporary(target.parent)
        self.staged[rel] = name
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:  # a file replaced keeps its mode (a 0600 report stays 0600); a new one is 0644
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = 0o644
        os.chmod(name, mode)

    def backup(self, rel: str) -> None:
        target = self.root / rel
        if not target.is_file():
            return
        for _ in range(100):
            backup = target.with_name(_temporary_name(".bak"))
            try:
                os.link(target, backup)
            except FileExistsError:
                continue
            except OSError:  # no hard links here: copy (bytes and mode)
                try:
                    with backup.open("xb") as handle:
                        handle.write(target.read_bytes())
                except FileExistsError:
                    continue
                shutil.copymode(target, backup)
            self.backups[rel] = backup
            return
        raise FileExistsError(f"no free backup name next to {target}")  # pragma: no cover

    def replace(self, rel: str) -> None:
        os.replace(self.staged[rel], self.root / rel)
        self.done.append(rel)
        del self.staged[rel]

    def remove(self, rel: str) -> None:
        target = self.root / rel
        if target.is_file():
            os.unlink(target)
            self.done.append(rel)

    def rollback(self) -> list[str]:
        """Undo everything; never raises. Returns notes on what could not be restored."""
        notes: list[str] = []
        for rel in reversed(self.done):
            target = self.root / rel
            backup = self.backups.pop(rel, None)
            try:
                if backup is None:
                    target.unlink(missing_ok=True)  # it did not exist before
                else:
                    _restore(backup, target)
            except OSError as err:
                where = f"; the old file is kept as {backup}" if backup is not None else ""
                notes.append(f"build rollback: could not restore {target}: {err}{where}")
        for path in [*self.staged.values(), *self.backups.values()]:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        self.staged.clear()
        self.backups.clear()
        for folder in reversed(self.made_dirs):
            with contextlib.suppress(OSError):
                folder.rmdir()
        return notes

    def finish(self) -> None:
        """Drop the backups (a failure leaves a stray that the next run sweeps)."""
        for backup in self.backups.values():
            with contextlib.suppress(OSError):
                backup.unlink(missing_ok=True)
        self.backups.clear()


def _temporary_name(suffix: str = "") -> str:
    return f"{TMP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}{suffix}"


def _create_temporary(folder: Path) -> tuple[int, Path]:
    """A new, empty temporary of ours in ``folder``, opened for writing (0600 until staged)."""
    for _ in range(100):
        path = folder / _temporary_name()
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")  # pragma: no cover


def _restore(backup: Path, target: Path) -> None:
    """Put ``backup`` back at ``target``: a rename, else a copy of its bytes and mode."""
    try:
        os.replace(backup, target)
        return
    except OSError:
        pass
    target.unlink(missing_ok=True)
    with target.open("xb") as handle:
        handle.write(backup.read_bytes())
    shutil.copymode(backup, target)
    backup.unlink(missing_ok=True)
