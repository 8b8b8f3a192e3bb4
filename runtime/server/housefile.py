"""House files sent to the server, compiled in a child process bounded in time and memory.

The author's text is written to a private temporary folder (never into the repository) and
compiled there by ``python -m fivehundred.runtime.server.housefile`` under an address-space limit
(:data:`MEMORY`) and a wall-clock limit (:data:`SECONDS`): a file built to explode (a
billion-laughs alias, a deep nesting) costs the child, never the server. The child prints the
compiled tables as JSON, or the file's diagnostics; the server builds its :class:`Rules` from
those tables. Results are cached by the text's hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.errors import FiveHundredError
from ..engine.messages import N_, Phrase, Translator, render
from ..engine.rules import Rules

__all__ = [
    "MEMORY",
    "SECONDS",
    "HouseFileError",
    "bench_report",
    "check_house",
    "compile_house",
    "house_book",
    "shown_diagnostics",
]

#: The child's address-space limit, in bytes.
MEMORY = 1024 * 1024 * 1024
#: The child's time limit, in seconds.
SECONDS = 20.0
FILE_NAME = "house.yaml"


class HouseFileError(FiveHundredError):
    """A house file that does not compile: its diagnostics (line, col, message, clause; and
    ``template``/``params`` when translatable: :func:`shown_diagnostics`)."""

    def __init__(self, template: str, diagnostics: list[dict[str, Any]], **params: Any) -> None:
        self.template = template
        self.params = params
        self.diagnostics = diagnostics
        lines = [render(template, params)] + [
            f"{FILE_NAME}:{d['line']}:{d['col']}: {d['message']}" for d in diagnostics
        ]
        super().__init__("\n".join(lines))

    def text(self, translator: Any = None) -> str:
        """The headline and every diagnostic, one per line, in ``translator``'s language."""
        assert self.template is not None
        lines = [render(self.template, self.params, translator)] + [
            f"{FILE_NAME}:{d['line']}:{d['col']}: {d['message']}"
            for d in shown_diagnostics(self.diagnostics, translator)
        ]
        return "\n".join(lines)


def shown_diagnostics(
    diagnostics: list[dict[str, Any]], translator: Translator | None = None
) -> list[dict[str, Any]]:
    """The diagnostics as a page shows them: each ``message`` in ``translator``'s language
    where the child sent its template (the English otherwise), without the template."""
    shown: list[dict[str, Any]] = []
    for d in diagnostics:
        phrase = Phrase.from_json({"template": d.get("template"), "params": d.get("params")})
        out = {k: v for k, v in d.items() if k not in ("template", "params")}
        if phrase is not None and translator is not None:
            out["message"] = phrase.text(translator)
        shown.append(out)
    return shown


def _limit() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def check_house(
    text: str, bench: str | None = None, seconds: float | None = None, book: str | None = None
) -> dict[str, Any]:
    """Compile ``text`` in a bounded child: ``{"tables": …}`` or ``{"diagnostics": […]}``.

    With ``bench`` (a language code) the child also renders what the author's bench shows
    (:func:`bench_report`): the rule book in that language, the differences from the base.
    With ``book`` (a language code) it renders the rule book alone, ``{"book": HTML}``
    (:func:`house_book`). ``seconds``: the time limit (default :data:`SECONDS`).
    """
    limit = SECONDS if seconds is None else seconds
    command = [sys.executable, "-m", "fivehundred.runtime.server.housefile"]
    if bench is not None:
        command += ["--bench", bench]
    elif book is not None:
        command += ["--book", book]
    with tempfile.TemporaryDirectory(prefix="fivehundred-house-") as folder:
        path = Path(folder) / FILE_NAME
        path.write_text(text, encoding="utf-8")
        try:
            done = subprocess.run(
                [*command, str(path)],
                capture_output=True,
                timeout=limit,
                preexec_fn=_limit if os.name == "posix" else None,
                cwd=folder,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise HouseFileError(
                N_("the house file took more than %(seconds)s seconds to compile"),
                [],
                seconds=f"{limit:g}",
            ) from None
    try:
        out: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        raise HouseFileError(
            N_("the house file could not be compiled within %(megabytes)s MB"),
            [],
            megabytes=MEMORY // 2**20,
        ) from None
    return out


@lru_cache(maxsize=64)
def _compiled(digest: str, text: str) -> str:
    return json.dumps(check_house(text))


def compile_house(text: str) -> Rules:
    """The rules of a house file's text; :class:`HouseFileError` with its diagnostics."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    out = json.loads(_compiled(digest, text))
    if "tables" not in out:
        raise HouseFileError(N_("the house file has problems"), out.get("diagnostics", []))
    return Rules(out["tables"])


@lru_cache(maxsize=64)
def _book(digest: str, text: str, lang: str) -> str:
    return json.dumps(check_house(text, book=lang))


def house_book(text: str, lang: str) -> str:
    """The rule book (HTML, in ``lang``) of a house file's text, rendered from its compiled
    rule set by ``fivehundred docs``' renderer in a child bounded as compiling is (the
    author's text in it escaped by the renderer); :class:`HouseFileError` if the file does not
    compile. Cached by the text's hash and the language."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    out = json.loads(_book(digest, text, lang))
    if "book" not in out:
        raise HouseFileError(N_("the house file has problems"), out.get("diagnostics", []))
    return str(out["book"])


def bench_report(path: Path, lang: str) -> dict[str, Any]:
    """What the author's bench shows of the rule file at ``path`` (run in the bounded child):
    its tables, id, name, players and base, its rule book in ``lang`` (HTML), its differences
    from the base (``fivehundred diff``'s rows: clause and sentence) and its warnings. Raises
    what compiling raises."""
    from ...generator.diff import differences
    from ...generator.docs import render_html
    from ...generator.pipeline import builtin_path, check_spec, compile_spec

    checked = check_spec(path)
    rs = checked.ruleset
    rows: list[dict[str, str]] = []
    if checked.base is not None:
        base_path = builtin_path(checked.base)
        if base_path is not None:
            base = compile_spec(base_path, builtin=True)
            rows = [{"clause": d.clause, "text": d.text} for d in differences(base, rs)]
    return {
        "tables": rs.tables,
        "id": rs.id,
        "name": rs.name,
        "players": rs.players,
        "base": checked.base,
        "book": render_html(rs, lang),
        "diff": rows,
        "warnings": [_diagnostic(d) for d in checked.warnings],
    }


def _diagnostic(d: Any) -> dict[str, Any]:
    out = {"line": d.line, "col": d.col, "message": d.message, "clause": d.clause}
    if isinstance(d.message, Phrase):  # rendered in the reader's language by the server
        out.update(d.message.as_json())
    return out


def _main(path: str, bench: str | None = None, book: str | None = None) -> int:
    from ...generator.docs import render_html
    from ...generator.pipeline import compile_spec
    from ..engine.errors import SpecError

    try:
        if bench is not None:
            print(json.dumps(bench_report(Path(path), bench)))
            return 0
        if book is not None:
            print(json.dumps({"book": render_html(compile_spec(Path(path)), book)}))
            return 0
        tables = compile_spec(Path(path)).tables
    except SpecError as exc:
        diagnostics = [_diagnostic(d) for d in exc.diagnostics]
        print(json.dumps({"diagnostics": diagnostics}))
        return 0
    except FiveHundredError as exc:
        print(json.dumps({"diagnostics": [{"line": 1, "col": 1, "message": str(exc)}]}))
        return 0
    except (MemoryError, RecursionError):
        too_large = Phrase(N_("the house file is too large to compile"))
        diagnostic = {"line": 1, "col": 1, "message": too_large, **too_large.as_json()}
        print(json.dumps({"diagnostics": [diagnostic]}))
        return 0
    print(json.dumps({"tables": tables}))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--bench":
        sys.exit(_main(sys.argv[3], sys.argv[2]))
    if sys.argv[1] == "--book":
        sys.exit(_main(sys.argv[3], book=sys.argv[2]))
    sys.exit(_main(sys.argv[1]))
