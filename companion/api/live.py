"""Live standings: every phone showing a game learns of a new or corrected round within seconds.

``GET /api/games/<id>/version`` answers ``{"id": ..., "version": n}`` with the ETag ``"<n>"``,
taken from the game's version column (raised by every write, and read alone: no rounds), so any
server worker answers the same without shared memory. ``GET /api/games/<id>`` carries the same
ETag and serves the state from a cache keyed by game and version (companion.services.kinds).
A request whose ``If-None-Match`` holds the current ETag gets an empty 304. ``static/js/live.js``
polls it every few seconds while the page is visible and, when the version changes, swaps in the
fresh game page.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, jsonify, request
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response as BaseResponse

from companion.api.http import bp
from companion.services import store

POLL_SECONDS = 2.5
"""How often live.js asks (the page carries it as data-live-interval, in milliseconds)."""


@bp.record_once
def _template_globals(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals["live_poll_ms"] = int(POLL_SECONDS * 1000)


def version_etag(version: int) -> str:
    """The entity tag of a game version (unquoted; Werkzeug adds the quotes).

    >>> version_etag(7)
    'v7'
    """
    return f"v{version}"


def versioned(version: int, body: Callable[[], BaseResponse]) -> BaseResponse:
    """An answer tagged with the game's version: an empty 304 when If-None-Match holds that tag
    (without building the body), else the body with the ETag."""
    etag = version_etag(version)
    response = Response(status=304) if request.if_none_match.contains(etag) else body()
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/version")
def game_version(game_id: str) -> BaseResponse:
    """The game's version, with an ETag; 304 when the client's If-None-Match is current."""
    version = store.current_version(game_id)
    return versioned(version, lambda: jsonify({"id": game_id, "version": version}))
