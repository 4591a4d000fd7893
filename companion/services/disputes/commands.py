"""The command line's answers for the JSON API (``POST /api/check``, ``/api/best``, ``/api/layoff``,
``/api/contract``): exactly what ``python -m engine check|best|layoff|contract`` prints, from
`engine.api`, so the API and the command line say the same. The pages use the typed checks
(companion.services.disputes.checks) instead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.services.store import engine_call
from engine.api import best_json, check_json, contract_json, layoff_json


def check_command(variant: str, round_number: object, options: Any, melds: list[str], players: int | None) -> Any:
    """Verdicts on melds, as ``python -m engine check`` prints them."""
    return engine_call(check_json, variant, round_number, options, melds, players)


def best_command(
    variant: str,
    round_number: object,
    options: Any,
    hand: str,
    declarer: list[str],
    players: int | None,
    declarer_hand: str | None = None,
) -> Any:
    """The least-penalty arrangement of a hand, as ``python -m engine best`` prints it."""
    return engine_call(best_json, variant, round_number, options, hand, declarer, players, declarer_hand)


def layoff_command(
    variant: str,
    round_number: object,
    options: Any,
    declarer: list[str],
    onto: object,
    cards: str,
    players: int | None,
    declarer_hand: str | None = None,
    table: Sequence[str] = (),
) -> Any:
    """The verdict on one lay-off, as ``python -m engine layoff`` prints it; `table` lists every meld on
    the table where the preset lays off onto any of them (Contract Rummy)."""
    return engine_call(
        layoff_json, variant, round_number, options, declarer, onto, cards, players, declarer_hand, list(table)
    )


def contract_command(
    variant: str, round_number: object, options: Any, melds: list[str], players: int | None, left: int | None = None
) -> Any:
    """Whether melds are exactly the deal's contract, as ``python -m engine contract`` prints it
    (`left`: the cards left in hand after going down, as ``--left``)."""
    return engine_call(contract_json, variant, options, round_number, melds, players, left)
