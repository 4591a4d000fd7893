"""The JSON API of Play or Pay events (RULES.md section 7); the pot rides on the round endpoints.

``POST /api/games/<id>/events`` records one play, payment, quick-mode hand or chip purchase;
``DELETE /api/games/<id>/events/last?version=N`` (or ``If-Match``) takes the last one back (on an ended
game, the ending): 428 without the version, 409 when it is stale; ``POST /api/games/<id>/end`` ends the
game (D17), or with ``{"split": ...}`` splits a pool game's pot (companion.api.pool). All need ``X-Edit-Key``.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from companion import schemas
from companion.api import bodies
from companion.api.http import bp, expected_version, json_object_body, state
from companion.api.once import exactly_once
from companion.errors import InvalidInput
from companion.keys import edit_required
from companion.models import Game
from companion.services import kinds, play_or_pay, pool


@bp.post("/games/<game_id>/events")
@exactly_once()
@edit_required
def add_event(game: Game) -> tuple[Response, int]:
    body = json_object_body()
    if not play_or_pay.is_play_or_pay(game):
        raise InvalidInput(play_or_pay.events_refused(game))
    bodies.event()  # the structure; the services check the players and cards
    after = play_or_pay.record_event(game, body, body.get("version"))
    answer = after.as_json()
    answer["version"] = game.version
    answer["group"] = game.group_id  # as in every game state (kinds.state_json)
    return jsonify(answer), 201


@bp.delete("/games/<game_id>/events/last")
@exactly_once()
@edit_required
def undo_event(game: Game) -> tuple[Response, int]:
    play_or_pay.undo_last_event(game, expected_version())
    return state(game)


@bp.post("/games/<game_id>/end")
@exactly_once()
@edit_required
def end_game(game: Game) -> tuple[Response, int]:
    body = bodies.parse(schemas.EndGame) if request.get_data() else schemas.EndGame()
    if kinds.of(game).in_rounds:
        raise InvalidInput(
            "only a Play or Pay game is ended, or a pool rummy game's pot split, by the table; "
            "a game in rounds ends with its last round"
        )
    if pool.is_pool(game):
        pool.end(game, body.split, body.shares, body.version)
    elif body.split is not None or body.shares is not None:
        raise InvalidInput("split and shares go only with a pool rummy game; Play or Pay ends with its chips")
    else:
        play_or_pay.end_game(game, body.version)
    return state(game)
