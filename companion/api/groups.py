"""The API of groups (issue 14): start one, read its figures, replace its key.

A group's key goes in the ``X-Group-Key`` header: it starts games in the group
(``POST /api/games`` with ``"group"``) and, as ``X-Edit-Key``, edits every game of the group.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from companion import schemas
from companion.api import bodies
from companion.api.http import bp
from companion.api.once import exactly_once
from companion.errors import NotAllowed
from companion.keys import check_group_key
from companion.services import groups


@bp.post("/groups")
@exactly_once()
def create_group() -> tuple[Response, int]:
    body = bodies.parse(schemas.NewGroup)
    group, key = groups.create_group(body.name, body.players)
    response = jsonify({"id": group.id, "name": group.name, "players": list(group.players), "edit_key": key})
    response.headers["Location"] = f"/api/groups/{group.id}"
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@bp.get("/groups/<group_id>")
def get_group(group_id: str) -> Response:
    return jsonify(groups.group_json(group_id))


@bp.post("/groups/<group_id>/key")
@exactly_once()
def replace_group_key(group_id: str) -> tuple[Response, int]:
    """Replace the group's key (the current one in X-Group-Key); answers {"edit_key": new key}."""
    group = groups.get_group(group_id)
    key = request.headers.get(groups.GROUP_KEY_HEADER)
    if key and not check_group_key(group, key):  # counted against the wrong-key limit
        raise NotAllowed("the group key does not match this group")
    groups.require_group_key(group, key)
    response = jsonify({"edit_key": groups.regenerate_group_key(group)})
    response.headers["Cache-Control"] = "no-store"
    return response, 200
