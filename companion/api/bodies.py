"""The checks of API request bodies, before a service sees them: unknown or missing fields, types.

Each refusal is an InvalidInput with one sentence (a 400 ``{"error": ...}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import InvalidInput

GAME_FIELDS = ("variant", "players", "options", "first_dealer")
ROUND_FIELDS = ("went_out", "scores", "version", "hands", "declarer", "second_discards")


def new_game(body: dict[str, Any]) -> dict[str, Any]:
    """A new game's body: variant and players, options and first_dealer optional."""
    unknown = sorted(set(body) - set(GAME_FIELDS))
    if unknown:
        raise InvalidInput(f'unknown field "{unknown[0]}"; a game has variant, players, options, first_dealer')
    if "variant" not in body or "players" not in body:
        raise InvalidInput("a game needs a variant and a list of players")
    return body


def round_entry(body: dict[str, Any]) -> dict[str, Any]:
    """A round's body (new or corrected); the services check the values."""
    unknown = sorted(set(body) - set(ROUND_FIELDS))
    if unknown:
        raise InvalidInput(
            f'unknown field "{unknown[0]}"; a round has went_out, scores, hands, declarer, second_discards and version'
        )
    return body


# ---------------------------------------------------------------- the checks of /api/check, /api/best, /api/layoff

CHECK_FIELDS = {
    "check": ("variant", "round", "melds"),
    "best": ("variant", "round", "hand"),
    "layoff": ("variant", "round", "declarer", "onto", "cards"),
}
CHECK_OPTIONAL = {
    "check": ("options", "players"),
    "best": ("options", "players", "declarer"),
    "layoff": ("options", "players"),
}


def check_body(command: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body of one of the engine's commands: its required and optional fields."""
    required, optional = CHECK_FIELDS[command], CHECK_OPTIONAL[command]
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise InvalidInput(f'unknown field "{unknown[0]}"; {command} takes {", ".join(required + optional)}')
    missing = [field for field in required if field not in body]
    if missing:
        raise InvalidInput(f"{command} needs {', '.join(required)}; {missing[0]} is missing")
    return body


def string(body: Mapping[str, Any], field: str) -> str:
    value = body[field]
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a string of cards")
    return value


def melds(body: Mapping[str, Any], field: str) -> list[str]:
    value = body.get(field, [])
    if not isinstance(value, list) or not all(isinstance(meld, str) for meld in value):
        raise InvalidInput(f'{field} must be a list of melds, each a string such as "4H 5H 6H"')
    return value


def options(body: Mapping[str, Any]) -> Any:
    """House rules as a JSON object, or as the command line's KEY=VALUE strings."""
    options = body.get("options")
    if options is None or isinstance(options, dict):
        return options
    if isinstance(options, list) and all(isinstance(pair, str) for pair in options):
        return options
    raise InvalidInput('options must be an object such as {"full_cycle": true}')


def players(body: Mapping[str, Any]) -> int | None:
    players = body.get("players")
    if players is None:
        return None
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidInput("players must be a whole number")
    return players


def variant(body: Mapping[str, Any]) -> str:
    variant = body["variant"]
    if not isinstance(variant, str):
        raise InvalidInput("variant must be a preset id such as pay-me")
    return variant
