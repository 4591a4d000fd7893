"""The engine's judgements as JSON (issue 5): ``POST /api/check``, ``/api/best`` and ``/api/layoff``.

Each takes the command line's arguments as fields and answers with exactly what
``python -m engine check|best|layoff`` prints: both call `engine.api` (through
companion.services.disputes). Bad input is a 400 ``{"error": "<one sentence>"}``, the engine's
own sentence where the engine found the problem.
"""

from __future__ import annotations

from flask import Response, jsonify

from companion.api import bodies
from companion.api.http import bp, json_object_body
from companion.services import disputes


@bp.post("/check")
def check() -> Response:
    """Verdicts on melds, as ``python -m engine check`` prints them."""
    body = bodies.check_body("check", json_object_body())
    melds = bodies.melds(body, "melds")
    args = (bodies.variant(body), body["round"], bodies.options(body), melds, bodies.players(body))
    return jsonify(disputes.check_command(*args))


@bp.post("/best")
def best() -> Response:
    """The least-penalty arrangement of a hand, as ``python -m engine best`` prints it."""
    body = bodies.check_body("best", json_object_body())
    hand = bodies.string(body, "hand")
    disputes.verify_hand_size(hand)
    declarer = bodies.melds(body, "declarer")
    args = (bodies.variant(body), body["round"], bodies.options(body), hand, declarer, bodies.players(body))
    return jsonify(disputes.best_command(*args))


@bp.post("/layoff")
def layoff() -> Response:
    """The verdict on one lay-off, as ``python -m engine layoff`` prints it."""
    body = bodies.check_body("layoff", json_object_body())
    declarer = bodies.melds(body, "declarer")
    cards = bodies.string(body, "cards")
    players = bodies.players(body)
    args = (bodies.variant(body), body["round"], bodies.options(body), declarer, body["onto"], cards, players)
    return jsonify(disputes.layoff_command(*args))
