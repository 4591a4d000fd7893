"""One deal's scoring from the results a table enters (RULES.md 11.3, D-PR10, D-PR11, D-PR18).

>>> from engine.rules import rule_set
>>> scored = score_deal(rule_set("pool-101"), [parse_result(text) for text in "win drop middle 37 wrong".split()])
>>> scored.points, scored.winner
((0, 20, 40, 37, 80), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.pool.errors import ResultError
from engine.rules import RuleSet

__all__ = ["Outcome", "Result", "ScoredDeal", "parse_result", "result_points", "score_deal", "verify_results"]


class Outcome(Enum):
    """What a player did in a deal; a count is entered as a number."""

    WIN = "win"
    DROP = "drop"
    MIDDLE = "middle"
    FULL = "full"
    WRONG = "wrong"
    COUNT = "count"


@dataclass(frozen=True)
class Result:
    """One player's result in a deal: an outcome, and the count when it is one (as entered, D-PR18)."""

    outcome: Outcome
    count: int = 0

    @property
    def is_drop(self) -> bool:
        return self.outcome in (Outcome.DROP, Outcome.MIDDLE)

    def to_json(self) -> str | int:
        return self.count if self.outcome is Outcome.COUNT else self.outcome.value


_WORDS = {outcome.value: outcome for outcome in Outcome if outcome is not Outcome.COUNT}


def parse_result(value: object) -> Result:
    """A result as typed (``win``, ``drop``, ``middle``, ``full``, ``wrong``) or a count from 0."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ResultError(f'a count is a whole number from 0, not "{value}"')
        return Result(Outcome.COUNT, value)
    text = str(value).strip().lower()
    if text in _WORDS:
        return Result(_WORDS[text])
    if text.isdecimal():
        return Result(Outcome.COUNT, int(text))
    raise ResultError(f'"{value}" is not a result: win, drop, middle, full, wrong or a count from 0')


def result_points(rules: RuleSet, result: Result) -> int:
    """The points a result scores: drops, the full count and a wrong show by the options; a count
    at most the full count."""
    options = rules.options
    table = {
        Outcome.WIN: 0,
        Outcome.DROP: options.first_drop,
        Outcome.MIDDLE: options.middle_drop,
        Outcome.FULL: options.full_count,
        Outcome.WRONG: options.wrong_show,
    }
    return min(result.count, options.full_count) if result.outcome is Outcome.COUNT else table[result.outcome]


@dataclass(frozen=True)
class ScoredDeal:
    """A deal's points, seat by seat, and the winner's seat (from 0)."""

    points: tuple[int, ...]
    winner: int


def verify_results(results: Sequence[Result]) -> None:
    """Raise ResultError unless exactly one result is a win (D-PR11)."""
    wins = sum(1 for result in results if result.outcome is Outcome.WIN)
    if wins != 1:
        raise ResultError(f"a deal has exactly one win, not {wins}")


def score_deal(rules: RuleSet, results: Sequence[Result]) -> ScoredDeal:
    """Score one deal's results, or raise ResultError when it has not exactly one win."""
    verify_results(results)
    winner = next(seat for seat, result in enumerate(results) if result.outcome is Outcome.WIN)
    return ScoredDeal(tuple(result_points(rules, result) for result in results), winner)
