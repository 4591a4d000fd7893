"""Scoring a game: a round's points, totals, standings and winners (RULES.md 2, D8, D9).

>>> points = round_points({"Ann": 12, "Bob": 0, "Cy": 30}, multiplier=2)
>>> points
{'Ann': 24, 'Bob': 0, 'Cy': 60}
>>> winners({"Ann": 30, "Bob": 12, "Cy": 12})
['Bob', 'Cy']
>>> parse_points("10+5+5")
20
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.errors import EngineError
from engine.penalties import largest_hand, max_points
from engine.rules import RuleSet
from engine.schedule import RoundInfo


class ScoreError(EngineError):
    """A round's scores that break the scoring rules, or points that are not a number."""


MAX_POINTS = 10_000
_SUM = re.compile(r"^\s*\d{1,5}(\s*\+\s*\d{1,5})*\s*$")


def parse_points(text: str) -> int:
    """Read card points typed at the table: a whole number or a sum such as ``10+5+5``.

    >>> parse_points(" 7 ")
    7
    >>> parse_points("-5")
    Traceback (most recent call last):
    ...
    engine.scoring.ScoreError: "-5" is not a number of points (use whole numbers, or a sum like 10+5+5)
    """
    if not _SUM.match(text or ""):
        raise ScoreError(f'"{text}" is not a number of points (use whole numbers, or a sum like 10+5+5)')
    total = sum(int(part) for part in text.split("+"))
    if total > MAX_POINTS:
        raise ScoreError(f'"{text}" is more points than a hand can score')
    return total


def verify_round_scores(players: Sequence[str], went_out: str, scores: Mapping[str, object]) -> dict[str, int]:
    """Check a round's entered card points; return them as whole numbers in seat order.

    Every player needs a score, points are whole numbers from 0, and the player who went
    out scores 0 (D8).

    >>> verify_round_scores(["Ann", "Bob"], "Bob", {"Ann": 5, "Bob": 3})
    Traceback (most recent call last):
    ...
    engine.scoring.ScoreError: Bob went out, so Bob scores 0, not 3
    """
    if went_out not in players:
        raise ScoreError(f'"{went_out}" is not a player in this game')
    for name in scores:
        if name not in players:
            raise ScoreError(f'"{name}" is not a player in this game')
    checked = {}
    for name in players:
        if name not in scores or scores[name] is None or scores[name] == "":
            raise ScoreError(f"{name} has no score")
        checked[name] = _whole_points(name, scores[name])
    if checked[went_out] != 0:
        raise ScoreError(f"{went_out} went out, so {went_out} scores 0, not {checked[went_out]}")
    return checked


def _whole_points(name: str, value: object) -> int:
    if isinstance(value, bool):
        raise ScoreError(f"{name}'s score must be a whole number of points, not {value}")
    if isinstance(value, int):
        points = value
    elif isinstance(value, float) and value.is_integer():
        points = int(value)
    elif isinstance(value, str):
        points = parse_points(value)
    else:
        raise ScoreError(f"{name}'s score must be a whole number of points, not {value!r}")
    if points < 0:
        raise ScoreError(f"{name}'s score cannot be negative ({points})")
    if points > MAX_POINTS:
        raise ScoreError(f"{name}'s score of {points} is more than a hand can score")
    return points


def verify_within_hand(scores: Mapping[str, int], rules: RuleSet, info: RoundInfo, players: int) -> None:
    """Raise ScoreError for card points (before the multiplier) above what the largest hand of the
    round can score (``engine.penalties.max_points``), naming the player and the limit.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> verify_within_hand({"Ann": 0, "Bob": 500}, rules, round_info(rules, 1), players=3)
    Traceback (most recent call last):
    ...
    engine.scoring.ScoreError: Bob: 500 is more than 3 cards can score in round 1 (at most 45)
    """
    most = max_points(rules, info, players) // info.multiplier
    for name, points in scores.items():
        if points > most:
            noun = "deal" if rules.preset.has_contracts else "round"
            raise ScoreError(
                f"{name}: {points} is more than {largest_hand(rules, info)} cards can score"
                f" in {noun} {info.number} (at most {most})"
            )


def can_score_round(players: Sequence[str], went_out: str, scores: Mapping[str, object]) -> bool:
    """Whether a round's scores are acceptable."""
    try:
        verify_round_scores(players, went_out, scores)
    except ScoreError:
        return False
    return True


EXACT_CUT_POINTS = -50  # Liverpool's exact cut (RULES.md 9)


def with_exact_cut(points: Mapping[str, int], cutter: str | None, rules: RuleSet) -> dict[str, int]:
    """A deal's points with the exact cut: the player who cut exactly the cards needed for the deal
    has -50 added to what their cards score (RULES.md 9, option ``exact_cut``).

    >>> from engine.rules import rule_set
    >>> with_exact_cut({"Ann": 0, "Bob": 35}, "Bob", rule_set("contract-rummy", {"exact_cut": True}))
    {'Ann': 0, 'Bob': -15}
    >>> with_exact_cut({"Ann": 0, "Bob": 35}, "Bob", rule_set("contract-rummy"))
    Traceback (most recent call last):
    ...
    engine.scoring.ScoreError: this game is played without the exact cut, so Bob cannot score it
    """
    scored = dict(points)
    if cutter is None:
        return scored
    if "exact_cut" not in rules.preset.option_keys or not rules.options.exact_cut:
        raise ScoreError(f"this game is played without the exact cut, so {cutter} cannot score it")
    if cutter not in scored:
        raise ScoreError(f'"{cutter}" is not a player in this game')
    scored[cutter] += EXACT_CUT_POINTS
    return scored


def round_points(scores: Mapping[str, int], multiplier: int) -> dict[str, int]:
    """The points that go on the sheet: card points times the round's multiplier."""
    return {name: points * multiplier for name, points in scores.items()}


def totals(players: Sequence[str], rounds: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """Each player's running total over the rounds' sheet points.

    >>> totals(["Ann", "Bob"], [{"Ann": 5, "Bob": 0}, {"Ann": 0, "Bob": 30}])
    {'Ann': 5, 'Bob': 30}
    """
    return {name: sum(points.get(name, 0) for points in rounds) for name in players}


def winners(totals_by_player: Mapping[str, int]) -> list[str]:
    """The players with the lowest total; equal lowest totals share the win (D9)."""
    if not totals_by_player:
        return []
    lowest = min(totals_by_player.values())
    return [name for name, total in totals_by_player.items() if total == lowest]


@dataclass(frozen=True)
class Standing:
    """A player's place in the standings; tied totals share a place."""

    place: int
    player: str
    total: int
    leader: bool


def standings(totals_by_player: Mapping[str, int]) -> list[Standing]:
    """Players from lowest total to highest, ties sharing a place, seat order within a tie.

    >>> [(s.place, s.player, s.leader) for s in standings({"Ann": 30, "Bob": 12, "Cy": 12})]
    [(1, 'Bob', True), (1, 'Cy', True), (3, 'Ann', False)]
    """
    order = sorted(totals_by_player.items(), key=lambda item: item[1])
    lowest = order[0][1] if order else 0
    rows: list[Standing] = []
    for index, (name, total) in enumerate(order):
        place = rows[-1].place if rows and rows[-1].total == total else index + 1
        rows.append(Standing(place, name, total, total == lowest))
    return rows


def next_first_dealer(first_dealer: int, rounds_played: int, players: int) -> int:
    """The seat that deals first in a rematch: the one after the last round's dealer."""
    return (first_dealer + rounds_played) % players
