"""The deck layout appears only in engine/deck.py (issue 26): the rummy core's code writes no rank
14, no code table of 56, no `* 4` or `range(4)` (comments and docstrings may still say 14 places)."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOLVER = tuple(f"solver/{path.name}" for path in sorted((ENGINE / "solver").glob("*.py")))
CORE = ("cards.py", "melds.py", "meldrules.py", *SOLVER, "layoffs.py", "layoff_quick.py", "tablemeld.py")


def _layout_numbers(path: Path) -> list[str]:
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
    found = []
    for index, token in enumerate(tokens):
        if token.type != tokenize.NUMBER:
            continue
        before = tokens[index - 1].string if index else ""
        after = tokens[index + 1].string if index + 1 < len(tokens) else ""
        if token.string in ("14", "15", "55", "56") or (token.string == "4" and "*" in (before, after)):
            found.append(f"{path.relative_to(ENGINE)}:{token.start[0]}: {token.line.strip()}")
        if token.string == "4" and before == "(" and tokens[index - 2].string == "range":
            found.append(f"{path.relative_to(ENGINE)}:{token.start[0]}: {token.line.strip()}")
    return found


@pytest.mark.parametrize("module", CORE)
def test_the_core_writes_no_deck_layout(module: str) -> None:
    assert (ENGINE / module).is_file()
    assert _layout_numbers(ENGINE / module) == []
