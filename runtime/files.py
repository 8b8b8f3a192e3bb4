"""Writing a user's output file (``docs -o``, ``simulate --records``) without harming what is there.

- A regular file (or a new one) is written atomically: the bytes go to a temporary sibling
  (``.NAME.fivehundred-PID-TOKEN.tmp``), are flushed to disk, and only then renamed over the
  target; an error or Ctrl-C midway removes the temporary and leaves the old file as it was. The
  file keeps its permission bits (a ``0600`` file stays ``0600``); a new file gets the usual
  ``0666`` less the umask. A symbolic link is followed: its target is replaced, the link stays.
- Anything else that already exists at the path and is not a folder (a FIFO, a terminal,
  ``/dev/null``, ``/dev/full``) is written into as it is, never replaced by a regular file. A
  FIFO that no process reads is a :class:`FileError` at once, not a wait without end.
- A folder, a missing parent folder (it is never created), a read-only or full disk, or any
  other system refusal is a :class:`FileError` naming the path and
  the reason, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .engine.errors import FileError

__all__ = ["open_output", "os_error_text", "write_output"]


def os_error_text(exc: OSError) -> str:
    """The reason of an :class:`OSError` as a lower-case phrase: "no space left on device"."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return reason[:1].lower() + reason[1:]


def _cannot(name: str, exc: OSError) -> FileError:
    return FileError(f"{name}: cannot write: {os_error_text(exc)}")


@contextlib.contextmanager
def open_output(name: str, *, text: bool = False) -> Iterator[IO[str] | IO[bytes]]:
    """A handle to write ``name`` through (see the module's rules); committed on a clean exit.

    ``text`` gives a UTF-8 text handle with ``\\n`` line ends, else a binary one.
    """
    if not name:  # Path("") is the current folder
        raise FileError("the name of the file to write is empty")
    path = Path(name)
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:  # a name too long, a loop of links, a file used as a folder...
        raise _cannot(name, exc) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FileError(f"{name}: is a folder; give the name of a file to write")
    mode = "w" if text else "wb"
    encoding = "utf-8" if text else None
    newline = "\n" if text else None
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a FIFO or a device: write into what is there
        try:
            handle = _open_special(path, st, mode, encoding, newline)
        except OSError as exc:
            if exc.errno == errno.ENXIO and stat.S_ISFIFO(st.st_mode):
                raise FileError(
                    f"{name}: cannot write: no process is reading this FIFO (start the reader "
                    "first)"
                ) from None
            raise _cannot(name, exc) from None
        try:
            with handle:
                yield handle
        except OSError as exc:
            raise _cannot(name, exc) from None
        return
    target = Path(os.path.realpath(path))
    folder = target.parent
    if not folder.is_dir():
        raise FileError(f"{name}: cannot write: there is no folder {str(folder)!r}")
    temporary = (
        folder / f".{target.name[:100]}.fivehundred-{os.getpid()}-{secrets.token_hex(6)}.tmp"
    )
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise _cannot(name, exc) from None
    try:
        with os.fdopen(fd, mode, encoding=encoding, newline=newline) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if st is not None:
            os.chmod(temporary, stat.S_IMODE(st.st_mode))
            with contextlib.suppress(OSError):  # keep the owner where we may (root)
                if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
                    os.chown(temporary, st.st_uid, st.st_gid)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise _cannot(name, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _open_special(
    path: Path, st: os.stat_result, mode: str, encoding: str | None, newline: str | None
) -> IO[Any]:
    """Open a FIFO or a device to write into. A FIFO is opened without waiting (``ENXIO`` when
    nothing reads it, rather than blocking for ever), then written in blocking mode."""
    if not stat.S_ISFIFO(st.st_mode):
        return open(path, mode, encoding=encoding, newline=newline)
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, mode, encoding=encoding, newline=newline)
    except BaseException:
        os.close(fd)
        raise


def write_output(name: str, data: bytes) -> None:
    """Write ``data`` to ``name`` by the rules of :func:`open_output`."""
    with open_output(name) as handle:
        handle.write(data)  # type: ignore[arg-type]
