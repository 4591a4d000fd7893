"""MeldRules for tests of the solver's parts, from the few flags the search reads."""

from __future__ import annotations

from engine.cards import Rank
from engine.deck import CODES, STANDARD_SUITS
from engine.meldrules import MAX_RUN, MeldRules, rank_positions, run_range
from engine.rules import AceRule, WildLimit


def search_rules(
    *, ace: AceRule, no_aces: bool, limit: bool, no_adjacent: bool, distinct: bool, min_run: int = 3
) -> MeldRules:
    """Meld rules with no wild card (the search's parts see natural cards only)."""
    lowest, highest = run_range(ace, no_aces)
    return MeldRules(
        wild=(False,) * CODES,
        ace=ace,
        no_aces=no_aces,
        lowest=lowest,
        highest=highest,
        ace_places=rank_positions(Rank.ACE, ace, no_aces),
        min_run=min_run,
        max_run=MAX_RUN,
        wild_limit=WildLimit.NOT_MORE_THAN_NATURALS if limit else WildLimit.NONE,
        no_adjacent=no_adjacent,
        distinct_suits=distinct,
        in_place_natural=False,
        suits=STANDARD_SUITS,
    )
