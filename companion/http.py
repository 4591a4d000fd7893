"""Reading API requests, shared by the API blueprints."""

from __future__ import annotations

from typing import Any

from flask import request

from companion import services


def json_object_body() -> dict[str, Any]:
    """The request body as a JSON object, or InvalidInput (shared by the API blueprints)."""
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:
        body = None
    if not isinstance(body, dict):
        raise services.InvalidInput("the request body must be a JSON object")
    return body
