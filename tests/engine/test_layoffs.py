"""Lay-offs onto the declarer's melds (RULES.md section 2, D5, D6) and scoring with them (D7)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.cards import parse_cards, parse_meld
from engine.errors import IllegalLayoff, IllegalMeld
from engine.layoffs import (
    TableMeld,
    can_lay_off,
    lay_off,
    layoff_turns,
    score_in_turn,
    score_with_layoffs,
    table_melds,
    verify_layoff,
)
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info


def game(variant: str, number: int, **options: object) -> tuple[RuleSet, RoundInfo]:
    rules = rule_set(variant, options)
    return rules, round_info(rules, number)


def chain(
    variant: str, number: int, declarer: Sequence[str], steps: Sequence[tuple[int, str]], **options: object
) -> tuple[TableMeld, ...]:
    """Lay off one step after another (D6), each onto meld number `onto` (from 1)."""
    rules, info = game(variant, number, **options)
    melds = table_melds(declarer, rules, info)
    for onto, cards in steps:
        melds = lay_off(melds, onto - 1, parse_meld(cards), rules, info)
    return melds


def refused(
    variant: str, number: int, declarer: Sequence[str], steps: Sequence[tuple[int, str]], **options: object
) -> str:
    """The code of the first lay-off that fails."""
    with pytest.raises(IllegalLayoff) as caught:
        chain(variant, number, declarer, steps, **options)
    assert str(caught.value)
    return caught.value.code


def can(variant: str, number: int, meld: str, cards: str, **options: object) -> bool:
    rules, info = game(variant, number, **options)
    return can_lay_off(table_melds([meld], rules, info), 0, parse_meld(cards), rules, info)


def texts(melds: Sequence[TableMeld]) -> list[str]:
    return [str(meld) for meld in melds]


# --- extending runs and sets -------------------------------------------------------------


def test_extend_a_run_at_either_end() -> None:
    assert texts(chain("pay-me-family", 5, ["2H 3H 4H"], [(1, "5H")])) == ["2H 3H 4H 5H"]
    assert texts(chain("pay-me-family", 5, ["2H 3H 4H"], [(1, "AH")])) == ["AH 2H 3H 4H"]
    assert texts(chain("pay-me-family", 5, ["2H 3H 4H"], [(1, "AH 5H 6H")])) == ["AH 2H 3H 4H 5H 6H"]


def test_add_to_a_set() -> None:
    assert texts(chain("pay-me", 5, ["8H 8S 8D"], [(1, "8C")])) == ["8H 8S 8D 8C"]
    assert texts(chain("pay-me", 5, ["8H 8S 8D"], [(1, "8H 8H")])) == ["8H 8S 8D 8H 8H"]


def test_wrong_rank_or_suit() -> None:
    assert refused("pay-me", 5, ["8H 8S 8D"], [(1, "9S")]) == "wrong_rank"
    assert refused("pay-me", 5, ["9H 10H JH"], [(1, "QS")]) == "wrong_suit"


def test_card_that_does_not_reach_the_run() -> None:
    assert refused("pay-me", 5, ["9H 10H JH"], [(1, "KH")]) == "gap"


# --- seed 001 Q&A -----------------------------------------------------------------------


def test_seed_001_only_the_declarers_run_ends_are_playable() -> None:
    # the declarer has 2-3-4 of hearts; a second player's 5-6-7 is not the declarer's meld
    assert can("pay-me-family", 4, "2H 3H 4H", "5H")
    assert can("pay-me-family", 4, "2H 3H 4H", "AH")
    assert refused("pay-me-family", 4, ["2H 3H 4H"], [(1, "8H")]) == "gap"


def test_seed_001_second_four_of_hearts_d5() -> None:
    melds = chain("pay-me-family", 5, ["AH 2H 3H"], [(1, "4H")])
    assert texts(melds) == ["AH 2H 3H 4H"]
    assert refused("pay-me-family", 5, ["AH 2H 3H"], [(1, "4H"), (1, "4H")]) == "position_filled"


def test_seed_001_two_fours_of_hearts_at_once() -> None:
    assert refused("pay-me-family", 5, ["AH 2H 3H"], [(1, "4H 4H")]) == "position_filled"


def test_only_declarers_melds_d6() -> None:
    assert refused("pay-me-family", 5, ["AH 2H 3H"], [(2, "4H")]) == "not_declarers_meld"
    assert refused("pay-me-family", 5, ["AH 2H 3H"], [(0, "4H")]) == "not_declarers_meld"


# --- D5: wilds stay where they were laid ---------------------------------------------


def test_cannot_replace_a_wild() -> None:
    assert refused("pay-me", 5, ["9H JK JH"], [(1, "10H")]) == "replaces_wild"
    assert refused("pay-me", 5, ["9H 10H JK"], [(1, "JH")]) == "replaces_wild"


def test_wild_keeps_its_place_after_a_lay_off() -> None:
    melds = chain("pay-me", 5, ["9H JK JH"], [(1, "QH")])
    assert texts(melds) == ["9H JK=10H JH QH"]


def test_lay_off_keeps_the_wild_limit() -> None:
    assert texts(chain("pay-me", 5, ["8H 8S JK"], [(1, "JK")])) == ["8H 8S JK=8D JK=8C"]
    assert refused("pay-me", 5, ["8H 8S JK"], [(1, "JK"), (1, "2C")]) == "too_many_wilds"
    assert refused("pay-me", 5, ["8H 8S JK"], [(1, "JK 2C")]) == "too_many_wilds"
    # Three Thirteen style limits do not apply where the preset has none
    assert chain("3-13", 5, ["8H 8S JK"], [(1, "JK 2C 2D")])


def test_lay_off_keeps_wilds_apart() -> None:
    assert refused("pay-me", 5, ["9H 10H JK"], [(1, "JK KH")]) == "adjacent_wilds"
    assert refused("pay-me", 5, ["9H 10H JH"], [(1, "JK=8H"), (1, "2C=7H")]) == "adjacent_wilds"


def test_wild_laid_off_away_from_another_wild() -> None:
    melds = chain("pay-me", 5, ["9H 10H JK"], [(1, "JK")])
    assert texts(melds) == ["JK=8H 9H 10H JK=JH"]


def test_explicit_role_on_a_lay_off() -> None:
    assert texts(chain("pay-me", 5, ["9H 10H JH"], [(1, "JK=QH")])) == ["9H 10H JH JK=QH"]
    assert texts(chain("pay-me", 5, ["9H 10H JH"], [(1, "JK=8H")])) == ["JK=8H 9H 10H JH"]


def test_lay_off_with_distinct_suit_sets() -> None:
    assert texts(chain("pay-me", 5, ["10S 10C JK"], [(1, "10S")], distinct_suit_sets=True)) == ["10S 10C JK=10H 10S"]


def test_lay_off_ace_rules() -> None:
    assert texts(chain("3-13", 5, ["JH QH KH"], [(1, "AH")])) == ["JH QH KH AH"]
    assert not can("3-13", 5, "3H 4H 5H", "AH")
    assert refused("pay-me-family", 6, ["2H 3H 4H"], [(1, "AH")], no_aces_in_runs=True) == "aces_not_in_runs"
    assert texts(chain("pay-me-family", 6, ["2H 3H 4H"], [(1, "JK")], no_aces_in_runs=True)) == ["2H 3H 4H JK=5H"]
    assert texts(chain("pay-me-family", 5, ["QH KH AH"], [(1, "JH")], ace="both")) == ["JH QH KH AH"]
    assert not can("pay-me-family", 5, "AH 2H 3H", "KH", ace="both")  # never K-A-2
    assert not can("pay-me-family", 5, "QH KH AH", "2H", ace="both")


# --- D6: lay-offs chain in turn order ------------------------------------------------


def test_chained_lay_offs_d6() -> None:
    melds = chain("pay-me-family", 5, ["2H 3H 4H"], [(1, "5H"), (1, "6H"), (1, "AH")])
    assert texts(melds) == ["AH 2H 3H 4H 5H 6H"]


def test_chain_onto_several_declarer_melds() -> None:
    melds = chain("pay-me", 5, ["9H 10H JH", "5S 5D 5C"], [(2, "5H"), (1, "QH"), (1, "KH")])
    assert texts(melds) == ["9H 10H JH QH KH", "5S 5D 5C 5H"]


def test_three_13_lays_off_onto_the_knocker() -> None:
    assert texts(chain("3-13", 5, ["QH KH AH"], [(1, "2H")])) == ["2H=JH QH KH AH"]


# --- presets without lay-offs ------------------------------------------------------------


def test_no_lay_offs_in_three_thirteen() -> None:
    assert refused("three-thirteen", 5, ["9H 10H JH"], [(1, "QH")]) == "no_layoffs"


def test_lay_offs_option() -> None:
    assert refused("pay-me", 5, ["9H 10H JH"], [(1, "QH")], lay_offs=False) == "no_layoffs"
    assert texts(chain("three-thirteen", 5, ["9H 10H JH"], [(1, "QH")], lay_offs=True)) == ["9H 10H JH QH"]


def test_empty_lay_off() -> None:
    rules, info = game("pay-me", 5)
    melds = table_melds(["9H 10H JH"], rules, info)
    with pytest.raises(IllegalLayoff) as caught:
        verify_layoff(melds, 0, (), rules, info)
    assert caught.value.code == "no_cards"


def test_declarer_melds_must_be_legal() -> None:
    rules, info = game("pay-me", 5)
    with pytest.raises(IllegalMeld) as caught:
        table_melds(["9C JK 2D QC"], rules, info)
    assert caught.value.code == "adjacent_wilds"


def test_table_meld_json_and_order() -> None:
    rules, info = game("pay-me", 5)
    (meld,) = table_melds(["JH JK 9H"], rules, info)
    assert meld.as_json() == ["9H", "JK=10H", "JH"]
    assert meld.positions == (9, 10, 11)


# --- scoring with lay-offs (D7) -------------------------------------------------------------


def score(variant: str, number: int, declarer: Sequence[str], hand: str, **options: object) -> dict[str, object]:
    rules, info = game(variant, number, **options)
    return score_with_layoffs(parse_cards(hand), table_melds(declarer, rules, info), rules, info).as_json()


def test_score_with_a_lay_off() -> None:
    result = score("pay-me-family", 5, ["AH 2H 3H"], "4H KS")
    assert result["penalty"] == 10
    assert result["unmelded"] == ["KS"]
    assert result["layoffs"] == [{"meld": 1, "cards": ["4H"]}]
    assert result["declarer"] == [["AH", "2H", "3H", "4H"]]


def test_score_second_four_of_hearts_stays_in_hand() -> None:
    result = score("pay-me-family", 5, ["AH 2H 3H"], "4H 4H KS")
    assert result["penalty"] == 15
    assert sorted(result["unmelded"]) == ["4H", "KS"]  # type: ignore[arg-type]


def test_score_without_lay_offs_in_three_thirteen() -> None:
    result = score("three-thirteen", 5, ["AH 2H 3H"], "4H KS")
    assert result["penalty"] == 14
    assert result["layoffs"] == []


def test_score_multiplier_with_lay_offs() -> None:
    result = score("3-13", 10, ["JH QH KH"], "AH 9C")
    assert result["penalty"] == 18  # the ace is laid off; 9 doubled
    assert result["layoffs"] == [{"meld": 1, "cards": ["AH"]}]


def test_score_chains_several_cards() -> None:
    result = score("pay-me-family", 5, ["2H 3H 4H"], "5H 6H AH KS")
    assert result["penalty"] == 10
    assert result["declarer"] == [["AH", "2H", "3H", "4H", "5H", "6H"]]


# --- wild_in_place_natural on lay-offs ---------------------------------------------------


@pytest.mark.parametrize(
    ("number", "declarer", "cards"),
    [
        (3, "6C 2D=7C 8C", "5D 5C"),  # 5s wild: 5C stands as itself (natural), 5D as 9C
        (10, "2C=3C 4C 5C", "JK 2C"),  # 2s wild: 2C stands as itself (natural), JK as 6C
        (7, "6C JK=7C 8C", "9C JK 2C"),  # 9s wild: 9C as itself, JK as 10C, 2C as 5C
    ],
)
def test_wild_in_place_natural_lay_off_in_any_order(number: int, declarer: str, cards: str) -> None:
    assert can("pay-me", number, declarer, cards, wild_in_place_natural=True)


@pytest.mark.parametrize(
    ("number", "declarer", "cards", "after"),
    [
        (3, "6C 2D=7C 8C", "5C 5D", "5C 6C 2D=7C 8C 5D=9C"),
        (10, "2C=3C 4C 5C", "2C JK", "2C 2C=3C 4C 5C JK=6C"),
    ],
)
def test_wild_in_place_natural_lay_off(number: int, declarer: str, cards: str, after: str) -> None:
    melds = chain("pay-me", number, [declarer], [(1, cards)], wild_in_place_natural=True)
    assert texts(melds) == [after]
    # without the option the same cards are too many wilds for the run
    assert not can("pay-me", number, declarer, cards)


def assert_accounts_for_the_hand(result: dict[str, object], hand: str) -> None:
    """Every card of the hand is melded, laid off or left over, exactly once (D7)."""
    used = [card for meld in result["melds"] for card in meld]  # type: ignore[attr-defined]
    used += [card for layoff in result["layoffs"] for card in layoff["cards"]]  # type: ignore[attr-defined]
    used += list(result["unmelded"])  # type: ignore[call-overload]
    assert sorted(used) == sorted(str(card) for card in parse_cards(hand))


def test_score_never_lays_off_a_card_twice() -> None:
    # round 2: 2s, 4s and jokers wild. The hand holds one 2H: it can stand as 2H (with AH below it) or
    # as 6H (with 7H above it), not both, so one card of 5 points is left over.
    result = score("pay-me", 2, ["3H 4H 5H"], "7H AH 2H")
    assert_accounts_for_the_hand(result, "7H AH 2H")
    assert result["penalty"] == 5


def test_score_never_lays_off_the_round_rank_twice() -> None:
    # round 9: jacks wild. JD may stand for JD or for QD, not for both; KD cannot reach the run.
    result = score("pay-me-family", 9, ["7D 8D JC=9D 10D"], "KD 9D 9H 9D JD", no_adjacent_wilds=False)
    assert_accounts_for_the_hand(result, "KD 9D 9H 9D JD")
    assert result["penalty"] == 10


def test_score_accounts_for_every_card() -> None:
    for variant, number, declarer, hand in [
        ("pay-me-family", 5, ["AH 2H 3H"], "4H 4H KS"),
        ("pay-me-family", 5, ["2H 3H 4H"], "5H 6H AH KS"),
        ("3-13", 10, ["JH QH KH"], "AH 9C"),
        ("pay-me", 5, ["3H 4H 5H"], "2H 8H"),
    ]:
        assert_accounts_for_the_hand(score(variant, number, declarer, hand), hand)


@pytest.mark.parametrize(
    ("number", "declarer", "hand", "penalty"),
    [
        # round 8: 10s, 2s and jokers wild. Lay JK off on the aces; AS 2S 10D is the player's own run
        # (AS and 2S natural, 10D as 3S); only 8S is left: 10 points.
        (8, "AS AS 2C=AH", "2S 8S AS 10D JK", 10),
        # round 7: 9s wild. 9C as itself, JK as 10C and 2C as 5C all go onto 6C JK=7C 8C.
        (7, "6C JK=7C 8C", "9C JK 2C", 0),
    ],
)
def test_score_picks_which_wild_to_lay_off(number: int, declarer: str, hand: str, penalty: int) -> None:
    # D7: the minimum over every split into own melds, lay-offs and leftovers
    result = score("pay-me", number, [declarer], hand, wild_in_place_natural=True)
    assert_accounts_for_the_hand(result, hand)
    assert result["penalty"] == penalty


# --- D6: lay-offs in turn order ---------------------------------------------------------------


def test_the_players_lay_off_in_turn_from_the_left_of_the_player_who_went_out() -> None:
    assert layoff_turns(0, 3) == (1, 2)
    assert layoff_turns(2, 4) == (3, 0, 1)


def test_a_later_player_extends_the_meld_an_earlier_one_extended_but_cannot_fill_the_same_place() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 2)
    declarer = table_melds(["6S 7S 8S 9S"], rules, info)
    bob, cy = score_in_turn([parse_cards("10S"), parse_cards("JS")], declarer, rules, info)
    assert bob is not None and cy is not None
    assert (bob.arrangement.penalty, cy.arrangement.penalty) == (0, 0)
    assert [str(meld) for meld in cy.melds_after] == ["6S 7S 8S 9S 10S JS"]
    bob, cy = score_in_turn([parse_cards("10S"), parse_cards("10S")], declarer, rules, info)
    assert bob is not None and cy is not None
    assert (bob.arrangement.penalty, cy.arrangement.penalty) == (0, 10)  # D5: 10S's place is taken
    assert cy.layoffs == ()


def test_a_player_whose_cards_are_unknown_passes_the_melds_on_unchanged() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 2)
    declarer = table_melds(["6S 7S 8S 9S"], rules, info)
    unknown, cy = score_in_turn([None, parse_cards("10S")], declarer, rules, info)
    assert unknown is None and cy is not None and cy.arrangement.penalty == 0


def test_no_chain_where_the_preset_has_no_lay_offs() -> None:
    rules = rule_set("three-thirteen")
    info = round_info(rules, 2)
    declarer = table_melds(["6S 7S 8S 9S"], rules, info)
    (bob,) = score_in_turn([parse_cards("10S")], declarer, rules, info)
    assert bob is not None and bob.arrangement.penalty == 10 and bob.melds_after == declarer
