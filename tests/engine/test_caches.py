"""One cache helper: every cache the engine keeps between calls is made by engine.caches, and
`clear_caches()` forgets them all (the thread model is in its docstring; test_threads.py holds it)."""

from __future__ import annotations

import pytest

from engine.caches import cache, cache_sizes, clear_caches
from engine.cards import parse_cards
from engine.layoffs import declarer_melds, score_with_layoffs
from engine.rules import rule_set
from engine.schedule import round_info


def test_clear_caches_forgets_everything_scoring_remembered() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 5)
    melds = declarer_melds("5H 6H 8H JK QC QD QS", rules, info)
    score_with_layoffs(parse_cards("4H 8H 9D 9S KC"), melds, rules, info)
    assert sum(cache_sizes().values()) >= 6
    clear_caches()
    assert set(cache_sizes().values()) == {0}


def test_a_cache_name_is_taken_once() -> None:
    with pytest.raises(ValueError, match="solved components"):
        cache("solved components")
