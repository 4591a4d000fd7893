"""Penalty points for cards left in hand (RULES.md section 3, D4)."""

from __future__ import annotations

import pytest

import engine.solver.hand as hand_module
from engine import caches
from engine.cards import Card, parse_cards
from engine.deck import CODES
from engine.meldrules import wild_table
from engine.penalties import base_penalty, card_penalty, hand_penalty, penalty_rows
from engine.rules import PenaltyTable, rule_set
from engine.schedule import round_info
from engine.solver import penalty_values


def points(variant: str, number: int, card: str, **options: object) -> int:
    rules = rule_set(variant, options)
    return card_penalty(Card.parse(card), rules, round_info(rules, number))


def hand_points(variant: str, number: int, cards: str, **options: object) -> int:
    rules = rule_set(variant, options)
    return hand_penalty(parse_cards(cards), rules, round_info(rules, number))


# round 5: 7 cards, 7s wild (pay-me: also jokers and 2s)
@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("AH", 5),
        ("3S", 5),
        ("6D", 5),
        ("8C", 10),
        ("10H", 10),
        ("JS", 10),
        ("QD", 10),
        ("KC", 10),
        ("JK", 15),
        ("2H", 15),
        ("7H", 15),  # the round's rank
    ],
)
def test_pay_me_table(card: str, expected: int) -> None:
    assert points("pay-me", 5, card) == expected


def test_pay_me_round_rank_moves_with_the_round() -> None:
    assert points("pay-me", 1, "3H") == 15
    assert points("pay-me", 5, "3H") == 5
    assert points("pay-me", 11, "KH") == 15
    assert points("pay-me", 10, "KH") == 10
    assert points("pay-me", 12, "AS", full_cycle=True) == 15
    assert points("pay-me", 11, "AS", full_cycle=True) == 5


@pytest.mark.parametrize(
    ("number", "card", "expected"),
    [
        (5, "AH", 5),
        (5, "2H", 5),  # D3: twos are natural, A-7 tier
        (5, "7H", 5),  # D4: the round's rank (7s) scores by its own tier
        (5, "8C", 10),
        (5, "KC", 10),
        (5, "JK", 10),  # D4: jokers score 10
        (1, "3S", 5),  # 3s wild, 5 by tier
        (6, "8S", 10),  # 8s wild, 10 by tier
        (11, "KS", 10),
        (8, "10D", 10),
    ],
)
def test_pay_me_family_table_d4(number: int, card: str, expected: int) -> None:
    assert points("pay-me-family", number, card) == expected


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("AH", 1),
        ("2H", 2),
        ("3H", 3),
        ("6H", 6),
        ("7H", 7),  # a wild scores its face value
        ("9H", 9),
        ("10H", 10),
        ("JH", 10),
        ("QH", 10),
        ("KH", 10),
    ],
)
def test_three_thirteen_table(card: str, expected: int) -> None:
    assert points("three-thirteen", 5, card) == expected


def test_three_thirteen_wild_king_scores_ten() -> None:
    assert points("three-thirteen", 11, "KH") == 10
    assert points("three-thirteen", 1, "3H") == 3


@pytest.mark.parametrize(
    ("card", "expected"),
    [("AH", 15), ("3H", 3), ("9H", 9), ("10H", 10), ("JH", 10), ("QH", 10), ("KH", 10), ("2H", 0), ("JK", 0)],
)
def test_three_13_table(card: str, expected: int) -> None:
    assert points("3-13", 5, card) == expected


@pytest.mark.parametrize(
    ("card", "expected"),
    [("AH", 30), ("3H", 6), ("9H", 18), ("KH", 20), ("2H", 0), ("JK", 0)],
)
@pytest.mark.parametrize("number", [10, 11])
def test_three_13_rounds_ten_and_eleven_score_double(card: str, expected: int, number: int) -> None:
    assert points("3-13", number, card) == expected


def test_three_13_round_nine_is_not_doubled() -> None:
    assert points("3-13", 9, "AH") == 15


def test_a_list_of_cards() -> None:
    assert hand_points("pay-me", 5, "AH 8C JK 7S") == 5 + 10 + 15 + 15
    assert hand_points("pay-me-family", 5, "AH 8C JK 7S 2D") == 5 + 10 + 10 + 5 + 5
    assert hand_points("three-thirteen", 5, "AH 8C 7S KD") == 1 + 8 + 7 + 10
    assert hand_points("3-13", 10, "AH 7C JK") == 44
    assert hand_points("3-13", 3, "AH 7C JK 2S") == 22
    assert hand_points("pay-me", 5, "") == 0


def test_repeated_cards_all_count() -> None:
    assert hand_points("pay-me", 5, "8H 8H 8H") == 30


def test_penalty_table_option() -> None:
    assert points("pay-me", 5, "9H", penalty_table="three-thirteen") == 9
    assert points("pay-me", 5, "AH", penalty_table="3-13") == 15
    assert points("pay-me", 5, "JK", penalty_table="3-13") == 0
    assert points("three-thirteen", 5, "7H", penalty_table="pay-me") == 15
    assert points("pay-me-family", 5, "JK", penalty_table="pay-me") == 15


def test_double_rounds_option_in_any_preset() -> None:
    assert points("pay-me", 10, "8H", double_rounds="10,11") == 20
    assert points("pay-me", 9, "8H", double_rounds="10,11") == 10
    assert points("three-thirteen", 11, "9H", double_rounds="true") == 18
    assert points("3-13", 10, "AH", double_rounds="false") == 15
    assert hand_points("pay-me-family", 3, "AH KH", double_rounds="3") == 30


def test_base_penalty_ignores_the_round() -> None:
    assert base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME, wild=False) == 10
    assert base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME, wild=True) == 15
    assert base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME_FAMILY, wild=True) == 10
    assert base_penalty(Card.parse("8H"), PenaltyTable.THREE_THIRTEEN, wild=True) == 8
    assert base_penalty(Card.parse("8H"), PenaltyTable.THREE_13, wild=True) == 0
    assert base_penalty(Card.parse("AH"), PenaltyTable.THREE_13, wild=False) == 15


def test_penalty_rows_for_the_rules_pages() -> None:
    rules = rule_set("pay-me")
    rows = dict(penalty_rows(rules, round_info(rules, 5)))
    assert rows["A"] == 5
    assert rows["7 (wild)"] == 15
    assert rows["2 (wild)"] == 15
    assert rows["K"] == 10
    assert rows["Joker"] == 15
    three = dict(penalty_rows(rule_set("three-thirteen"), round_info(rule_set("three-thirteen"), 1)))
    assert "Joker" not in three
    assert three["3 (wild)"] == 3


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "3-13"])
def test_a_joker_scores_15_under_face_values(variant: str) -> None:
    # D15: the face-value table gives a joker no value of its own, so it scores 15.
    assert points(variant, 5, "JK", penalty_table="three-thirteen") == 15
    assert hand_points(variant, 5, "JK 9H", penalty_table="three-thirteen") == 15 + 9
    assert points(variant, 10, "JK", penalty_table="three-thirteen", double_rounds="true") == 30
    assert base_penalty(Card.JOKER, PenaltyTable.THREE_THIRTEEN, wild=False) == 15


def test_the_other_tables_keep_their_joker_values() -> None:
    assert base_penalty(Card.JOKER, PenaltyTable.PAY_ME, wild=True) == 15
    assert base_penalty(Card.JOKER, PenaltyTable.PAY_ME_FAMILY, wild=True) == 10
    assert base_penalty(Card.JOKER, PenaltyTable.THREE_13, wild=True) == 0


def test_penalty_values_read_the_rounds_wild_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver scores as wild exactly the cards the round's wild table marks
    (engine.meldrules.wild_table, the one place wild cards are decided), not what it asks the
    round itself: a wild table of another shape (one suit's 2s alone) changes the points too."""

    rules = rule_set("pay-me")
    info = round_info(rules, 1)  # 3 cards: 3s and jokers wild
    two_of_hearts, two_of_spades = Card.parse("2H"), Card.parse("2S")
    table = [False] * CODES
    table[two_of_hearts.code] = True
    caches.clear_caches(["penalty values by round"])
    monkeypatch.setattr(hand_module, "wild_table", lambda round_: tuple(table))
    values = penalty_values(PenaltyTable.PAY_ME, info)
    caches.clear_caches(["penalty values by round"])
    assert values[two_of_hearts.code] == base_penalty(two_of_hearts, PenaltyTable.PAY_ME, wild=True)
    assert values[two_of_spades.code] == base_penalty(two_of_spades, PenaltyTable.PAY_ME, wild=False)
    three = Card.parse("3C")
    assert values[three.code] == base_penalty(three, PenaltyTable.PAY_ME, wild=False)
    monkeypatch.undo()
    wild = wild_table(info)
    assert penalty_values(PenaltyTable.PAY_ME, info)[three.code] == base_penalty(
        three, PenaltyTable.PAY_ME, wild[three.code]
    )
