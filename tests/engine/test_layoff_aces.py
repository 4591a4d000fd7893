"""Aces laid off at the end of a run (issue 11, section 1): through the command line and engine.api.

Where an ace may stand depends on every card laid off with it, not only on the run's present ends,
and under ``ace=both`` both ends are tried.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from engine.api import best_json, layoff_json
from engine.cli import main

LEGAL_LAYOFFS = [
    # Bug A: AD 2D extend 3D..KD downwards to A-K (aces low).
    (
        "pay-me-family",
        9,
        {},
        "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
        "AD 2D",
        ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
    ),
    # Bug A: KS AS make the run 2-A (aces high).
    (
        "3-13",
        9,
        {},
        "JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
        "KS AS",
        ["JK=2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"],
    ),
    # Bug B: with ace=both the far end is tried too.
    (
        "pay-me-family",
        8,
        {"ace": "both"},
        "3S 4S 5S 6S 7S 8S 9S 10S JS QS",
        "KS AS",
        ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"],
    ),
    (
        "pay-me-family",
        8,
        {"ace": "both"},
        "4S 5S 6S 7S 8S 9S 10S JS QS",
        "AS 2S 3S",
        ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"],
    ),
    (
        "pay-me-family",
        8,
        {"ace": "both"},
        "3S 4S 5S 6S 7S 8S 9S 10S",
        "JS QS KS AS",
        ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"],
    ),
]


def cli(*args: str) -> Any:
    out = io.StringIO()
    assert main(list(args), out) == 0
    return json.loads(out.getvalue())


def set_args(options: dict[str, str]) -> list[str]:
    return [arg for key, value in options.items() for arg in ("--set", f"{key}={value}")]


@pytest.mark.parametrize(("variant", "number", "options", "declarer", "cards", "after"), LEGAL_LAYOFFS)
def test_ace_lay_offs_are_legal(
    variant: str, number: int, options: dict[str, str], declarer: str, cards: str, after: list[str]
) -> None:
    answer = layoff_json(variant, number, options, [declarer], 1, cards)
    assert (answer["valid"], answer["reason"], answer["declarer"]) == (True, None, [after])
    printed = cli(
        "layoff",
        "--variant",
        variant,
        "--round",
        str(number),
        *set_args(options),
        "--declarer",
        declarer,
        "--onto",
        "1",
        cards,
    )
    assert printed == answer


@pytest.mark.parametrize(("variant", "number", "options", "declarer", "cards", "after"), LEGAL_LAYOFFS)
def test_best_lays_the_aces_off(
    variant: str, number: int, options: dict[str, str], declarer: str, cards: str, after: list[str]
) -> None:
    answer = best_json(variant, number, options, cards + " 9H", [declarer])
    assert answer["unmelded"] == ["9H"]
    # AS 2S 3S may also stay the player's own meld: equally good, and fewer cards laid off
    assert answer["declarer"] == [after] or answer["melds"] == [cards.split()]


def test_best_with_ace_and_two_below_a_long_run() -> None:
    declarer = "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    answer = cli("best", "--variant", "pay-me-family", "--round", "9", "--declarer", declarer, "AD 2D 9S")
    assert (answer["penalty"], answer["unmelded"]) == (10, ["9S"])
    assert answer == best_json("pay-me-family", 9, None, "AD 2D 9S", [declarer])


@pytest.mark.parametrize(
    ("variant", "options", "declarer", "cards", "reason"),
    [
        ("pay-me-family", {}, "JD QD KD", "AD", "aces are low in this game, so an ace cannot follow a King."),
        ("3-13", {}, "3S 4S 5S", "2S=2S AS", "aces are high in this game, so an ace cannot go below a 2."),
        ("pay-me-family", {"ace": "both"}, "AS 2S 3S", "KS", None),  # never K-A-2
        ("pay-me-family", {"ace": "both"}, "QS KS AS", "2S", None),
    ],
)
def test_aces_still_refused_where_no_end_takes_them(
    variant: str, options: dict[str, str], declarer: str, cards: str, reason: str | None
) -> None:
    answer = layoff_json(variant, 5, options, [declarer], 1, cards)
    assert answer["valid"] is False
    assert answer["reason"].endswith(reason or "")


def test_a_run_never_holds_two_aces() -> None:
    answer = layoff_json("pay-me-family", 8, {"ace": "both"}, ["2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"], 1, "AS AS")
    assert answer["valid"] is False
