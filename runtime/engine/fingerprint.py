"""The fingerprint of a ruleset's rules: what a stored balance summary was computed for.

Its own module, light to import: a build checks every rule book's summary against it without
loading the simulation (runtime/studies/balance.py, which writes the summaries, re-exports it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["rules_fingerprint"]

#: Ruleset keys that are prose, provenance or derivation, not rules: left out of
#: :func:`rules_fingerprint` (so a new version of the tables format keeps the fingerprints).
_PROSE_KEYS = frozenset(
    {"$schema", "format", "name", "summary", "sources", "choices", "terms", "extends", "clauses"}
    | {"derived"}
)  # clauses: the parameters of the rule-book sentences; derived: computed from the rules above


def rules_fingerprint(tables: Mapping[str, Any]) -> str:
    """A short hash of everything in a ruleset that can change play (not its prose), so a
    stored summary can tell whether it was computed for the rules a book describes."""
    rules = {k: v for k, v in tables.items() if k not in _PROSE_KEYS}
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
