"""Presets are data (issue 15): the deals, meld limits, lay-off scope and options each preset holds
give exactly the schedules the four original rummy presets always had (RULES.md 3, D2)."""

from __future__ import annotations

import pytest

from engine.cards import Rank
from engine.rules import PRESETS, RUMMY_PRESETS, Deal, rule_set
from engine.schedule import schedule

ORIGINAL = ["pay-me", "pay-me-family", "three-thirteen", "3-13"]


def original_cards(full_cycle: bool) -> list[int]:
    """The schedule as the code had it before presets held their deals: 3 to 13, or up to 14 and back."""
    rising = list(range(3, 14))
    return [*rising, 14, *rising[::-1]] if full_cycle else rising


@pytest.mark.parametrize("variant", ORIGINAL)
@pytest.mark.parametrize("full_cycle", [False, True])
def test_the_original_schedules_are_unchanged(variant: str, full_cycle: bool) -> None:
    rules = rule_set(variant, {"full_cycle": full_cycle})
    rounds = schedule(rules)
    assert [info.cards for info in rounds] == original_cards(full_cycle)
    round_rank = PRESETS[variant].wild_round_rank
    for info in rounds:
        expected = (Rank.ACE if info.cards == 14 else Rank(info.cards)) if round_rank else None
        assert info.round_rank is expected
        assert info.contract == () and not info.no_final_discard
        assert info.multiplier == (2 if info.number in rules.options.double_rounds else 1)
    assert rules.rounds == len(rounds) == (23 if full_cycle else 11)


@pytest.mark.parametrize("variant", RUMMY_PRESETS)
def test_the_wild_round_rank_flag_agrees_with_the_deals(variant: str) -> None:
    preset = PRESETS[variant]
    for deals in (preset.deals, preset.full_cycle_deals):
        assert all(isinstance(deal, Deal) for deal in deals)
        assert all((deal.wild_rank is not None) is preset.wild_round_rank for deal in deals)


def test_a_preset_is_data_a_new_one_needs_no_code() -> None:
    preset = PRESETS["contract-rummy"]
    assert not preset.full_cycle_deals
    assert preset.has_contracts and not any(PRESETS[variant].has_contracts for variant in ORIGINAL)
    assert [deal.cards for deal in preset.deals] == [10, 10, 10, 10, 12, 12, 12]
    assert [deal.no_final_discard for deal in preset.deals] == [False] * 6 + [True]
