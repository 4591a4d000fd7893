"""Contract Rummy never reaches the solver (issue 15): where every card held counts in full, asking
for the declarer's melds (checked as going out, split from a hand, or laid off onto) is an OptionError
in words, from the engine's own guard, verify_hands_arranged."""

from __future__ import annotations

import pytest

from engine.api import best_json, layoff_json, turn_scores_json, verify_hands_arranged
from engine.errors import OptionError
from engine.rules import rule_set
from tests.engine.test_cli import fails, ok

CR = "contract-rummy"
REFUSAL = "in Contract Rummy every card held counts in full and the player who went out holds no cards"


def test_the_guard_refuses_contract_rummy_only() -> None:
    for variant in ("pay-me", "three-thirteen", "3-13"):
        verify_hands_arranged(rule_set(variant))
    with pytest.raises(OptionError, match=REFUSAL):
        verify_hands_arranged(rule_set(CR))


def test_best_with_the_declarers_melds_or_cards_is_refused() -> None:
    assert best_json(CR, 1, None, "7H 7S KC")["penalty"] == 7 + 7 + 10
    with pytest.raises(OptionError, match=REFUSAL):
        best_json(CR, 1, None, "7H 7S KC", ["5H 5S 5D", "9C 9D 9S"])
    with pytest.raises(OptionError, match=REFUSAL):
        best_json(CR, 1, None, "7H 7S KC", declarer_hand="5H 5S 5D 9C 9D 9S")
    # Other presets still lay off onto the declarer's melds.
    assert best_json("pay-me", 3, None, "7H 8S", ["7C 7D 7S"])["layoffs"] == [{"meld": 1, "cards": ["7H"]}]


def test_turn_scores_with_the_declarers_melds_are_refused() -> None:
    held = {"penalty": 14, "melds": [], "unmelded": ["7H", "7S"]}
    assert turn_scores_json(CR, 1, None, [], ["7H 7S", None]) == [held, None]
    with pytest.raises(OptionError, match=REFUSAL):
        turn_scores_json(CR, 1, None, ["5H 5S 5D"], ["7H 7S"])
    with pytest.raises(OptionError, match=REFUSAL):
        turn_scores_json(CR, 1, None, [], ["7H 7S"], declarer_hand="5H 5S 5D 9C 9D 9S")


def test_a_lay_off_is_judged_onto_the_melds_on_the_table_never_a_split_hand() -> None:
    answer = layoff_json(CR, 2, None, (), 1, "5H", table=["5S 5D 5C", "9H 10H JH QH"])
    assert answer["valid"] is True and answer["table"][0] == ["5S", "5D", "5C", "5H"]
    with pytest.raises(OptionError, match="give each meld on the table, not a player's cards"):
        layoff_json(CR, 2, None, (), 1, "5H", declarer_hand="5S 5D 5C 9H 10H JH QH")


def test_the_cli_best_scores_held_cards_and_refuses_a_declarer() -> None:
    assert ok("best", "--variant", CR, "--round", "1", "7H 7S KC")["penalty"] == 24
    refused = fails("best", "--variant", CR, "--round", "1", "--declarer", "5H 5S 5D", "7H 7S KC")
    assert refused.startswith(f"error: {REFUSAL}")
    loose = fails("best", "--variant", CR, "--round", "1", "--declarer-hand", "5H 5S 5D 9C 9D 9S", "7H")
    assert loose.startswith(f"error: {REFUSAL}")
