"""A variant's rules by built-in id or by rule file: the runtime's one way into the generator.

The engine (:mod:`fivehundred.runtime.engine`) imports nothing of the generator and plays only
tables; a rule file is compiled here, in memory, into exactly the tables a generated module would
hold, and its engine module (``generated/engines/``) is rendered and compiled in memory for the
engine's fast path (:mod:`fivehundred.runtime.engine.fast`). The adapters, the studies and the
command line load variants through :func:`load_rules`.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from .engine.errors import ArgumentError, RecordError
from .engine.fast import register
from .engine.game import load_builtin
from .engine.messages import N_
from .engine.rules import Rules

__all__ = ["load_rules", "record_loader"]


def load_rules(name: str | os.PathLike[str]) -> Rules:
    """Rules for a built-in variant id, or for a rule file path (compiled in memory).

    Raises :class:`SpecError` for an unknown variant or a broken rule file, and
    :class:`ArgumentError` for a name that is neither a string nor a path.
    """
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise ArgumentError(f"load_rules takes a variant id or a rule file path, not {name!r}")
    try:
        is_file = Path(name).is_file()
    except (OSError, ValueError):  # too long a name, a NUL: find_spec says so
        is_file = False
    looks_like_path = name.endswith((".yaml", ".yml")) or "/" in name or is_file
    if not looks_like_path:
        try:
            return load_builtin(name)
        except KeyError:
            pass
    # A rule file is compiled; the engine then reads the tables, exactly those a generated
    # module would hold.
    from ..generator.pipeline import compile_spec, find_spec

    rules = Rules(compile_spec(find_spec(name)).tables)
    _compile_engine(rules)
    return rules


def _compile_engine(rules: Rules) -> None:
    """Render and compile a rule file's engine module in memory and make it the fast path of
    its rules (:mod:`fivehundred.runtime.engine.fast`). A rule file with an option the engine
    generator does not know yet keeps the checked path, which plays every option."""
    from ..generator.engine import EngineOptionError, render_engine

    try:
        source = render_engine(rules.tables)
    except EngineOptionError:
        return
    module = ModuleType(f"fivehundred.generated.engines.{rules.variant.replace('-', '_')}")
    exec(compile(source, f"<engine of {rules.variant!r}>", "exec"), module.__dict__)
    register(module)


def builtin_variants() -> list[str]:
    """The ids of the built-in variants (those with a committed generated module), sorted."""
    import importlib
    import pkgutil

    rulesets = importlib.import_module("fivehundred.generated.rulesets")
    return sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(rulesets.__path__))


def record_loader(rule_files: Sequence[str] = ()) -> Callable[[str], Rules]:
    """How ``replay`` finds a record's ``variant``: a built-in id, or one of ``rule_files``.

    Each rule file the user named (``replay --rules FILE``) is compiled now, once (a broken one
    is a :class:`SpecError` before any record is read); a record may then name it by its id or
    by the path exactly as given. A record's ``variant`` is never opened as a path: anything
    else is a :class:`RecordError` that quotes only the name (a hostile record cannot make the
    tool read, or quote, a file the user did not give).
    """
    from ..generator.pipeline import compile_spec, find_spec

    allowed: dict[str, Rules] = {}
    for name in rule_files:
        rules = Rules(compile_spec(find_spec(name)).tables)
        allowed.setdefault(rules.variant, rules)
        allowed.setdefault(name, rules)

    def load(variant: str) -> Rules:
        try:
            return load_builtin(variant)
        except KeyError:
            pass
        found = allowed.get(variant)
        if found is None:
            close = difflib.get_close_matches(variant[:200], [*builtin_variants(), *allowed], n=1)
            if close:
                raise RecordError.of(
                    N_(
                        "the record's variant %(variant)s is neither a built-in variant nor a "
                        "rule file given with --rules; did you mean %(close)s?"
                    ),
                    variant=repr(variant[:200]),
                    close=repr(close[0]),
                )
            raise RecordError.of(
                N_(
                    "the record's variant %(variant)s is neither a built-in variant nor a rule "
                    "file given with --rules"
                ),
                variant=repr(variant[:200]),
            )
        return found

    return load
