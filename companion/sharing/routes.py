"""Joining a game from another phone, and replacing the edit key (the QR codes: companion.sharing.links).

- ``/games/<id>/join?key=<edit key>`` stores the key in that phone's cookie and redirects to the
  game page, so the key does not stay in the address bar.
- ``POST /games/<id>/key`` (form, CSRF) replaces the key, as ``POST /api/games/<id>/key``
  (``X-Edit-Key``, companion.api.keys) does: the old key, and every code made with it, stops
  working at once.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.errors import ServiceError, sentence
from companion.keys import can_edit, check_key, load_game, with_key_cookie
from companion.services import store
from companion.sharing.links import JOIN_PARAMETER, share_codes

bp = Blueprint("sharing", __name__)
bp.add_app_template_global(share_codes, "share_codes")


def _no_store(response: BaseResponse) -> BaseResponse:
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/join")
def join(game_id: str) -> Any:
    """Take the edit key from a scanned code into this browser's cookie, then show the game."""
    game = load_game(game_id)
    key = request.args.get(JOIN_PARAMETER, "")
    if not key.strip():
        abort(400, description="This link has no edit key. Scan the code on the scorekeeper's phone again.")
    if len(key) > 200 or not check_key(game, key):
        abort(403, description="This edit key does not work for this game; it may have been replaced. Ask again.")
    response = redirect(url_for("games.game_page", game_id=game.id), 303)
    return _no_store(with_key_cookie(response, game, key))


@bp.post("/games/<game_id>/key")
def new_key(game_id: str) -> Any:
    """Replace the edit key; this browser gets the new one, every other phone loses edit rights."""
    game = load_game(game_id)
    if not can_edit(game):
        abort(403, description="Only a phone with this game's edit key can replace it.")
    try:
        key = store.regenerate_key(game)
    except ServiceError as failure:
        abort(failure.status, description=sentence(failure.message))
    response = redirect(url_for("games.game_page", game_id=game.id, _anchor="share-edit"), 303)
    return _no_store(with_key_cookie(response, game, key))
