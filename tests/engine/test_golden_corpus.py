"""The golden corpus replays byte for byte (tests/engine/golden_corpus.py says what it holds):
moving the engine's code changes no answer, tie order and placements included."""

from __future__ import annotations

import difflib

import pytest

from engine.caches import clear_caches
from tests.engine import golden_corpus


@pytest.mark.parametrize("section", sorted(golden_corpus.SECTIONS))
def test_golden_corpus_replays_byte_for_byte(section: str) -> None:
    stored = golden_corpus.stored_text(section)
    clear_caches()  # the answers never depend on what the engine remembers
    replayed = golden_corpus.section_text(section)
    if replayed != stored:
        changed = [
            line
            for line in difflib.unified_diff(stored.splitlines(), replayed.splitlines(), lineterm="", n=0)
            if line.startswith(("+", "-"))
        ]
        pytest.fail(f"{section}: {len(changed)} lines differ, first: " + "\n".join(changed[:4]))
    assert stored.count("\n") >= 50
