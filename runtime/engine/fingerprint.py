"""The fingerprint of a ruleset's rules: what a stored balance summary was computed for.

Its own module, light to import (the table format aside): a build checks every rule book's
summary against it without loading the simulation (runtime/studies/balance.py, which writes
the summaries, re-exports it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .tableformat import OPTIONS

__all__ = ["rules_fingerprint"]

#: Ruleset keys that are prose, provenance or derivation, not rules: left out of
#: :func:`rules_fingerprint` (so a new version of the tables format keeps the fingerprints).
_PROSE_KEYS = frozenset(
    {"$schema", "format", "name", "summary", "sources", "choices", "terms", "extends", "clauses"}
    | {"derived"}
)  # clauses: the parameters of the rule-book sentences; derived: computed from the rules above


def rules_fingerprint(tables: Mapping[str, Any]) -> str:
    """A short hash of everything in a ruleset that can change play (not its prose), so a
    stored summary can tell whether it was computed for the rules a book describes.

    An option added to the rule language later (``Option.late``) is left out while it has its
    default: the rules a variant plays are then the rules it played before the option existed,
    and its stored summaries stay valid."""
    rules = {k: v for k, v in tables.items() if k not in _PROSE_KEYS}
    for opt in OPTIONS:
        keys = opt.table_keys
        if not opt.late or keys is None:
            continue
        section: Any = rules
        for key in keys[:-1]:
            section = section.get(key) if isinstance(section, Mapping) else None
        if isinstance(section, Mapping) and section.get(keys[-1]) == opt.default:
            # copy the path down to the option, then drop it
            node: dict[str, Any] = rules
            for key in keys[:-1]:
                node[key] = dict(node[key])
                node = node[key]
            del node[keys[-1]]
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
