"""The /api blueprint, and reading API requests.

Writes need the game's edit key in the ``X-Edit-Key`` header (companion.keys.edit_required).
Every error is ``{"error": "<one sentence>"}`` with a 4xx status (companion.errors); user input
never causes a 500; an unavailable database is a 503 with Retry-After. Every write takes an
``Idempotency-Key`` (companion.api.once). The routes are in the modules beside this one.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import UnsupportedMediaType

from companion.errors import InvalidInput
from companion.models import Game
from companion.services import kinds

bp = Blueprint("api", __name__, url_prefix="/api")

JSON_ONLY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@bp.before_request
def refuse_bodies_other_than_json() -> None:
    """A body sent to the API must be JSON (415 otherwise): a page of another site can post
    text/plain or a form without asking the browser's permission, but never application/json."""
    if request.method not in JSON_ONLY_METHODS or not _has_body():
        return
    if request.mimetype != "application/json":
        raise UnsupportedMediaType()


def _has_body() -> bool:
    return (
        bool(request.content_length)
        or "chunked" in request.headers.get("Transfer-Encoding", "").lower()
        or ("Content-Type" in request.headers)
    )


def json_object_body() -> dict[str, Any]:
    """The request body as a JSON object, or InvalidInput."""
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:
        body = None
    if not isinstance(body, dict):
        raise InvalidInput("the request body must be a JSON object")
    return body


def expected_version() -> int | None:
    """The version the client saw, from ``?version=N`` or ``If-Match`` (the ETag ``"vN"`` of
    /api/games/<id>/version, or ``"N"``); None when neither is sent (``If-Match: *`` names none)."""
    text = request.args.get("version")
    if text is None:
        tags = sorted(tag or "" for tag in request.if_match.as_set(include_weak=True))  # "" parses as None
        if not tags:
            return None
        if len(tags) > 1:
            raise InvalidInput("If-Match must hold one version")
        text = tags[0].removeprefix("v")
    if not text.isdecimal() or len(text) > 12:
        raise InvalidInput(f'version must be a whole number, not "{text[:40]}"')
    return int(text)


def state(game: Game, status: int = 200) -> tuple[Response, int]:
    """A game's state as the answer."""
    return jsonify(kinds.state_json(game)), status


def created(game: Game, key: str) -> tuple[Response, int]:
    """A new game's state with its edit key: 201, with its address in Location."""
    body = kinds.state_json(game)
    body["edit_key"] = key
    response = jsonify(body)
    response.headers["Location"] = f"/api/games/{game.id}"
    return response, 201
