"""Run a build's independent pieces of work on every core: :func:`run_all`.

The rule books are 348 independent renders of a few milliseconds each, so a build splits them
between itself and forked copies of itself (which share its compiled rule files, templates and
catalogues without a copy or a second import). The workers take the next piece from a shared
queue (a pipe holding the pieces' numbers, read four bytes at a time: each read is atomic), so
a worker that the machine slows down takes fewer, and send back what they made, pickled.

It is an optimisation only, never a change of result:

- a piece runs exactly as it would in the calling process, and the results come back in order;
- a piece that fails in a worker (or a worker that dies) is run again by the caller, so an
  error is raised where it always was, as it always was;
- there are no workers without ``os.fork`` (Windows) or on macOS (where forking a process
  that has loaded system frameworks is unsafe), when the process has other threads, when one
  core is all there is, or when ``FIVEHUNDRED_JOBS=1``; then everything runs in the caller.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import signal
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from ..runtime.engine.errors import ArgumentError

__all__ = ["MIN_PIECES", "Background", "jobs", "run_all"]

T = TypeVar("T")

#: Fewer pieces than this run in the caller (a fork costs about as much as a few renders).
MIN_PIECES = 8
_UNIT = struct.Struct("<I")
#: At most this many workers besides the caller.
_MAX_WORKERS = 7


def jobs() -> int:
    """How many processes :func:`run_all` uses: ``FIVEHUNDRED_JOBS`` if set (1 runs everything
    in the calling process), else the cores this process may run on that no other process is
    running on right now. On a machine whose cores are all busy a worker would only take turns
    with this process, and copying it costs time: then there is none."""
    wanted = os.environ.get("FIVEHUNDRED_JOBS", "").strip()
    if wanted:
        digits = wanted.lstrip("0")
        if not (wanted.isascii() and wanted.isdigit() and digits):
            raise ArgumentError(
                f"FIVEHUNDRED_JOBS is a number of processes from 1 (none forked), not {wanted!r}"
            )
        return _MAX_WORKERS + 1 if len(digits) > 6 else min(int(digits), _MAX_WORKERS + 1)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores - _others_running(), _MAX_WORKERS + 1))


def _others_running(loadavg: str = "/proc/loadavg") -> int:
    """How many other processes are running or ready to run (Linux: the fourth field of
    ``/proc/loadavg``, ``running/total``, counts this one too); 0 where that is unknown."""
    try:
        with open(loadavg, encoding="ascii") as handle:
            running = handle.read().split()[3].split("/")[0]
        return max(0, int(running) - 1)
    except (OSError, IndexError, ValueError):
        return 0


def _can_fork() -> bool:
    return (
        hasattr(os, "fork")
        and sys.platform != "darwin"
        and threading.active_count() == 1
        and threading.current_thread() is threading.main_thread()
    )


def run_all(pieces: Sequence[Callable[[], T]], processes: int | None = None) -> list[T]:
    """``[piece() for piece in pieces]``, computed by up to ``processes`` (default
    :func:`jobs`) processes: this one and forked workers. The results must pickle."""
    count = jobs() if processes is None else processes
    if count < 2 or len(pieces) < MIN_PIECES or not _can_fork():
        return [piece() for piece in pieces]
    workers = min(count - 1, len(pieces) // (MIN_PIECES // 2) or 1)
    queue_read, queue_write = os.pipe()
    data = b"".join(_UNIT.pack(i) for i in range(len(pieces)))
    results: dict[int, T] = {}
    started: list[tuple[int, int]] = []  # (pid, read end of its results)
    # objects made so far are the workers' to share: with them out of the collector's reach,
    # a worker's collections do not touch (and so copy) every page it inherited
    gc.freeze()
    try:
        for _ in range(workers):
            result_read, result_write = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - runs in the worker, which never returns
                os.close(result_read)
                _work(pieces, queue_read, queue_write, result_write)
            os.close(result_write)
            started.append((pid, result_read))
        # the queue is filled once every worker holds it; the pipe's buffer (64 KiB on
        # Linux) holds 16,384 numbers, far more than a build has pieces
        _write_all(queue_write, data)
        os.close(queue_write)
        queue_write = -1
        while (index := _take(queue_read)) is not None:
            results[index] = pieces[index]()
        for _, result_read in started:
            with contextlib.suppress(Exception):
                results.update(pickle.loads(_read_all(result_read)))
    finally:
        gc.unfreeze()
        if queue_write >= 0:
            os.close(queue_write)
        os.close(queue_read)
        failed = sys.exc_info()[0] is not None
        for pid, result_read in started:
            if failed:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGTERM)
            os.close(result_read)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    # a piece a worker could not finish runs here, raising here what it raises
    return [results[i] if i in results else pieces[i]() for i in range(len(pieces))]


class Background(Generic[T]):
    """``make()`` computed by a forked worker while the caller goes on with other work;
    :meth:`result` waits for it. Without a worker (see :func:`jobs`), or when the worker
    fails, :meth:`result` computes it in the caller. The result must pickle."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make
        self.pid = 0
        self.fd = -1
        if jobs() < 2 or not _can_fork():
            return
        read, write = os.pipe()
        gc.freeze()
        try:
            pid = os.fork()
        finally:
            gc.unfreeze()
        if pid == 0:  # pragma: no cover - runs in the worker, which never returns
            os.close(read)
            _make_and_send(make, write)
        os.close(write)
        self.pid, self.fd = pid, read

    def ready(self) -> bool:
        """True when :meth:`result` would not wait (the worker is done, or there is none)."""
        if self.pid == 0:
            return True
        readable, _, _ = select.select([self.fd], [], [], 0)
        return bool(readable)

    @property
    def working(self) -> bool:
        """True while a worker is making the result (False: :meth:`result` will make it)."""
        return self.pid != 0

    def result(self) -> T:
        """What ``make()`` returns."""
        if self.pid == 0:
            return self.make()
        data = self._collect()
        try:
            ok, value = pickle.loads(data)
        except Exception:
            ok = False
        return value if ok else self.make()

    def close(self) -> None:
        """Stop the worker, if any (its result is not wanted)."""
        if self.pid != 0:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGTERM)
            self._collect()

    def _collect(self) -> bytes:
        pid, fd = self.pid, self.fd
        self.pid, self.fd = 0, -1
        try:
            return _read_all(fd)
        finally:
            os.close(fd)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _make_and_send(make: Callable[[], object], out: int) -> None:  # pragma: no cover
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            payload = pickle.dumps((True, make()), pickle.HIGHEST_PROTOCOL)
        except BaseException:
            payload = pickle.dumps((False, None))
        _write_all(out, payload)
        code = 0
    finally:
        os._exit(code)


def _take(fd: int) -> int | None:
    unit = os.read(fd, _UNIT.size)
    if len(unit) < _UNIT.size:
        return None
    (index,) = _UNIT.unpack(unit)
    return int(index)


def _work(
    pieces: Sequence[Callable[[], object]], queue_read: int, queue_write: int, out: int
) -> None:  # pragma: no cover - runs in a forked worker
    """A worker's life: take pieces until the queue is empty, then send the results. Never
    returns; exits without running the caller's clean-up (``atexit``, ``finally`` blocks)."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides about a Ctrl-C
        os.close(queue_write)
        done: dict[int, object] = {}
        try:
            while (index := _take(queue_read)) is not None:
                done[index] = pieces[index]()
        except BaseException:
            pass  # what is done is sent; the caller runs the rest (and raises its error)
        _write_all(out, pickle.dumps(done, pickle.HIGHEST_PROTOCOL))
        code = 0
    finally:
        os._exit(code)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)
