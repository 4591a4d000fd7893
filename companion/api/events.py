"""The JSON API of Play or Pay events (RULES.md section 7); the pot rides on the round endpoints.

``POST /api/games/<id>/events`` records one play, payment or quick-mode hand;
``DELETE /api/games/<id>/events/last`` takes the last one back. Both need ``X-Edit-Key``.
"""

from __future__ import annotations

from flask import Response, jsonify

from companion.api import bodies
from companion.api.http import bp, json_object_body, state
from companion.errors import InvalidInput
from companion.keys import edit_required
from companion.models import Game
from companion.services import kinds, play_or_pay


@bp.post("/games/<game_id>/events")
@edit_required
def add_event(game: Game) -> tuple[Response, int]:
    body = json_object_body()
    if kinds.of(game).in_rounds:
        raise InvalidInput(play_or_pay.EVENTS_REFUSED)
    bodies.event()  # the structure; the services check the players and cards
    kind, data = play_or_pay.parse_event(game, body)
    after = play_or_pay.add_event(game, kind, data, body.get("version"))
    answer = after.as_json()
    answer["version"] = game.version
    answer["group"] = game.group_id  # as in every game state (kinds.state_json)
    return jsonify(answer), 201


@bp.delete("/games/<game_id>/events/last")
@edit_required
def undo_event(game: Game) -> tuple[Response, int]:
    play_or_pay.undo_last_event(game)
    return state(game)
