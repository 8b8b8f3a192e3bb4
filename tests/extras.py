"""Optional extras in tests: skip when one is not installed, fail where it is required.

``.ci/run`` runs the README's test command first (extras not installed: these tests skip), then
installs ``fivehundred[openspiel,pettingzoo]`` and runs them again with
``FIVEHUNDRED_REQUIRE_EXTRAS=1``, which makes a missing extra a failure, so the integration
tests can never be skipped silently in CI.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` of the extra ``extra``; skip the test module (fail under CI) if absent."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        how = f"pip install -e '.[{extra}]'"
        if os.environ.get("FIVEHUNDRED_REQUIRE_EXTRAS"):
            pytest.fail(f"{module} is required but missing ({exc}): {how}", pytrace=False)
        pytest.skip(
            f"{module} is not installed ({how}; FIVEHUNDRED_REQUIRE_EXTRAS=1 makes this fail)",
            allow_module_level=True,
        )


def readme_python(heading: str, index: int = 0) -> str:
    """The ``index``-th fenced ```python block of the README section under ``heading``."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```python\n")[index + 1].split("```", 1)[0]
