"""The JSON API: the same games as the pages, for scripts and other apps.

Writes need the game's edit key in the ``X-Edit-Key`` header. Every error is
``{"error": "<one sentence>"}`` with a 4xx status; user input never causes a 500.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion import money, services
from companion.extensions import db
from companion.http import json_object_body
from companion.openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api")

KEY_HEADER = "X-Edit-Key"


def json_error(status: int, message: str) -> tuple[Response, int]:
    return jsonify({"error": message}), status


@bp.errorhandler(services.ServiceError)
def service_error(error: services.ServiceError) -> tuple[Response, int]:
    if isinstance(error, services.Conflict):
        current = _current_state((request.view_args or {}).get("game_id"))
        if current is not None:
            return jsonify({"error": error.message, "current": current}), error.status
    return json_error(error.status, error.message)


def _current_state(game_id: object) -> dict[str, Any] | None:
    """A conflict answers with the game as stored now, so the phone can show the current values."""
    if not isinstance(game_id, str):
        return None
    db.session.rollback()  # forget what this request read; load what the winning write stored
    try:
        return _state(services.get_game(game_id))[0].get_json()  # type: ignore[no-any-return]
    except services.ServiceError:
        return None


def _game_for_edit(game_id: str) -> Any:
    game = services.get_game(game_id)
    services.require_key(game, request.headers.get(KEY_HEADER))
    return game


def _state(game: Any, status: int = 200) -> tuple[Response, int]:
    return jsonify(money.state_json(game)), status


def _round_body() -> tuple[Any, Any, Any]:
    body = json_object_body()
    unknown = sorted(set(body) - {"went_out", "scores", "version", "hands", "declarer", "second_discards"})
    if unknown:
        raise services.InvalidInput(
            f'unknown field "{unknown[0]}"; a round has went_out, scores, hands, declarer, second_discards and version'
        )
    return body.get("went_out"), body.get("scores"), body.get("version")


def _round_cards() -> dict[str, Any]:
    """The optional cards of a round body (issue 5): "hands" by player and the "declarer" melds."""
    body = json_object_body()
    return {"hands": body.get("hands"), "declarer": body.get("declarer")}


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())


@bp.get("/games")
def list_games() -> Response:
    return jsonify({"games": [summary.as_json() for summary in services.list_games()]})


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    body = json_object_body()
    unknown = sorted(set(body) - {"variant", "players", "options", "first_dealer"})
    if unknown:
        raise services.InvalidInput(f'unknown field "{unknown[0]}"; a game has variant, players, options, first_dealer')
    if "variant" not in body or "players" not in body:
        raise services.InvalidInput("a game needs a variant and a list of players")
    game, key = services.create_game(body["variant"], body["players"], body.get("options"), body.get("first_dealer"))
    state = money.state_json(game)
    state["edit_key"] = key
    response = jsonify(state)
    response.headers["Location"] = f"/api/games/{game.id}"
    return response, 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> tuple[Response, int]:
    return _state(services.get_game(game_id))


@bp.delete("/games/<game_id>")
def delete_game(game_id: str) -> tuple[Response, int]:
    game = _game_for_edit(game_id)
    services.delete_game(game)
    return jsonify({"deleted": game_id}), 200


@bp.post("/games/<game_id>/rounds")
def add_round(game_id: str) -> tuple[Response, int]:
    game = _game_for_edit(game_id)
    went_out, scores, version = _round_body()
    pickups = json_object_body().get("second_discards")  # the 3-13 pot (companion.money)
    services.add_round(game, went_out, scores, version, **_round_cards(), second_discards=pickups)
    return _state(game, 201)


@bp.put("/games/<game_id>/rounds/<int:number>")
def correct_round(game_id: str, number: int) -> tuple[Response, int]:
    game = _game_for_edit(game_id)
    went_out, scores, version = _round_body()
    pickups = json_object_body().get("second_discards")  # the 3-13 pot (companion.money)
    services.correct_round(game, number, went_out, scores, version, **_round_cards(), second_discards=pickups)
    return _state(game)


@bp.delete("/games/<game_id>/rounds/last")
def undo_round(game_id: str) -> tuple[Response, int]:
    game = _game_for_edit(game_id)
    services.undo_last_round(game)
    return _state(game)
