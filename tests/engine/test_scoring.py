"""Scoring a game (RULES.md section 2, D8, D9): points, totals, standings and winners."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.scoring import (
    ScoreError,
    can_score_round,
    next_first_dealer,
    parse_points,
    round_points,
    standings,
    totals,
    verify_round_scores,
    winners,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0", 0), ("7", 7), (" 7 ", 7), ("10+5+5", 20), ("10 + 5 + 15", 30), ("15+0", 15), ("00", 0)],
)
def test_parse_points_sums(text: str, expected: int) -> None:
    assert parse_points(text) == expected


@pytest.mark.parametrize("text", ["", "-5", "5-2", "ten", "10+", "+10", "1.5", "10++5", "5 5"])
def test_parse_points_rejects(text: str) -> None:
    with pytest.raises(ScoreError) as caught:
        parse_points(text)
    assert isinstance(caught.value, EngineError)


def test_parse_points_too_many() -> None:
    with pytest.raises(ScoreError):
        parse_points("99999")


def test_d8_declarer_scores_zero() -> None:
    players = ["Ann", "Bob", "Cy"]
    assert verify_round_scores(players, "Bob", {"Ann": 5, "Bob": 0, "Cy": "10+5"}) == {"Ann": 5, "Bob": 0, "Cy": 15}
    with pytest.raises(ScoreError, match=r"^Bob went out, so Bob scores 0, not 3$"):  # in words, no decision code
        verify_round_scores(players, "Bob", {"Ann": 5, "Bob": 3, "Cy": 0})
    assert not can_score_round(players, "Bob", {"Ann": 5, "Bob": 3, "Cy": 0})
    assert can_score_round(players, "Bob", {"Ann": 5, "Bob": "0", "Cy": 0})


def test_round_scores_checks() -> None:
    players = ["Ann", "Bob"]
    with pytest.raises(ScoreError, match="Ann has no score"):
        verify_round_scores(players, "Bob", {"Bob": 0})
    with pytest.raises(ScoreError, match="Dee"):
        verify_round_scores(players, "Dee", {"Ann": 1, "Bob": 0})
    with pytest.raises(ScoreError, match="Dee"):
        verify_round_scores(players, "Bob", {"Ann": 1, "Bob": 0, "Dee": 4})
    with pytest.raises(ScoreError, match="negative"):
        verify_round_scores(players, "Bob", {"Ann": -1, "Bob": 0})
    with pytest.raises(ScoreError):
        verify_round_scores(players, "Bob", {"Ann": True, "Bob": 0})
    with pytest.raises(ScoreError):
        verify_round_scores(players, "Bob", {"Ann": 2.5, "Bob": 0})
    assert verify_round_scores(players, "Bob", {"Ann": 4.0, "Bob": 0}) == {"Ann": 4, "Bob": 0}


def test_round_points_multiplier() -> None:
    assert round_points({"Ann": 12, "Bob": 0, "Cy": 30}, multiplier=2) == {"Ann": 24, "Bob": 0, "Cy": 60}
    assert round_points({"Ann": 12}, multiplier=1) == {"Ann": 12}


def test_totals() -> None:
    rounds = [{"Ann": 5, "Bob": 0}, {"Ann": 0, "Bob": 30}, {"Ann": 10, "Bob": 0}]
    assert totals(["Ann", "Bob"], rounds) == {"Ann": 15, "Bob": 30}
    assert totals(["Ann", "Bob"], []) == {"Ann": 0, "Bob": 0}


def test_lowest_total_wins() -> None:
    assert winners({"Ann": 30, "Bob": 12, "Cy": 40}) == ["Bob"]


def test_d9_ties_share_the_win() -> None:
    assert winners({"Ann": 30, "Bob": 12, "Cy": 12}) == ["Bob", "Cy"]
    assert winners({"Ann": 7, "Bob": 7, "Cy": 7}) == ["Ann", "Bob", "Cy"]
    assert winners({}) == []


def test_standings_share_places() -> None:
    rows = standings({"Ann": 30, "Bob": 12, "Cy": 12, "Dee": 50})
    assert [(row.place, row.player, row.total, row.leader) for row in rows] == [
        (1, "Bob", 12, True),
        (1, "Cy", 12, True),
        (3, "Ann", 30, False),
        (4, "Dee", 50, False),
    ]
    assert standings({}) == []


def test_next_first_dealer() -> None:
    assert next_first_dealer(0, 11, 4) == 3
    assert next_first_dealer(2, 23, 5) == 0
