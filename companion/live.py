"""Live standings: every phone showing a game learns of a new or corrected round within seconds.

``GET /api/games/<id>/version`` answers ``{"id": ..., "version": n}`` with the ETag ``"<n>"``,
taken from the game's version column (raised by every write), so any server worker answers
the same without shared memory. A request whose ``If-None-Match`` holds the current ETag gets
an empty 304. ``static/js/live.js`` polls it every few seconds while the page is visible and,
when the version changes, swaps in the fresh game page.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify, request
from werkzeug.wrappers import Response as BaseResponse

from companion import services
from companion.api import json_error

bp = Blueprint("live", __name__, url_prefix="/api")

POLL_SECONDS = 2.5
"""How often live.js asks (the page carries it as data-live-interval, in milliseconds)."""


def version_etag(version: int) -> str:
    """The entity tag of a game version (unquoted; Werkzeug adds the quotes).

    >>> version_etag(7)
    'v7'
    """
    return f"v{version}"


@bp.errorhandler(services.ServiceError)
def service_error(error: services.ServiceError) -> tuple[Response, int]:
    return json_error(error.status, error.message)


@bp.get("/games/<game_id>/version")
def game_version(game_id: str) -> BaseResponse:
    """The game's version, with an ETag; 304 when the client's If-None-Match is current."""
    game = services.get_game(game_id)
    response = jsonify({"id": game.id, "version": game.version})
    response.set_etag(version_etag(game.version))
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["live_poll_ms"] = int(POLL_SECONDS * 1000)
