"""Joining a game from another phone, and replacing the edit key (the QR codes: companion.sharing.links).

- ``/games/<id>/join#key=<edit key>`` is the join link of the QR code: the key is in the
  fragment, which the browser never sends, so it stays out of access logs. The page's script
  (static/js/join.js) posts it with the join form (CSRF-protected) to ``POST /games/<id>/join``,
  which checks it, stores it in the phone's cookie and redirects to the game page. Without
  script, the page asks to paste the key (the part after ``#key=``) into the same form.
- An old ``/games/<id>/join?key=...`` link is redirected to its ``#key=`` form without looking at
  the key: the key leaves the query (and the next logs), and a GET never counts a key or sets a
  cookie, so another site's ``<img src=.../join?key=wrong>`` does nothing.
- ``/games/<id>/qr.svg`` is the QR code of the view-only address; ``/games/<id>/edit-qr.svg`` the
  join link's, for a browser holding the key in its cookie only (never stored, never cached).
- ``POST /games/<id>/key`` (form, CSRF) replaces the key, as ``POST /api/games/<id>/key``
  (``X-Edit-Key``, companion.api.keys) does: the old key, and every code made with it, stops
  working at once.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.errors import ServiceError, sentence
from companion.keys import KEY_COOKIE, can_edit, check_key, load_game, with_key_cookie
from companion.services import store
from companion.sharing.forms import MAX_KEY_LENGTH, JoinForm
from companion.sharing.links import JOIN_PARAMETER, join_url, qr_file, share_codes, share_url, view_qr_file

bp = Blueprint("sharing", __name__)
bp.add_app_template_global(share_codes, "share_codes")


def _no_store(response: BaseResponse) -> BaseResponse:
    response.headers["Cache-Control"] = "no-store"
    return response


def _svg(body: bytes) -> BaseResponse:
    return make_response(body, 200, {"Content-Type": "image/svg+xml"})


@bp.get("/games/<game_id>/qr.svg")
def view_code(game_id: str) -> Any:
    """The QR code of the game's view-only address (asked again each time: the address may change)."""
    game = load_game(game_id)
    response = _svg(view_qr_file(share_url(game.id)))
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/games/<game_id>/edit-qr.svg")
def edit_code(game_id: str) -> Any:
    """The QR code of the join link, made from the key in this browser's cookie; for a key holder only."""
    game = load_game(game_id)
    key = request.cookies.get(KEY_COOKIE)
    if not key or not can_edit(game):
        abort(403, description="Only a phone with this game's edit key can show its edit link.")
    return _no_store(_svg(qr_file(join_url(share_url(game.id), key), "QR code of the edit link")))


@bp.get("/games/<game_id>/join")
def join(game_id: str) -> Any:
    """The join page: its script posts the key from the address's fragment (#key=...)."""
    game = load_game(game_id)
    old_key = request.args.get(JOIN_PARAMETER)
    if old_key is not None:  # a link made before the key moved to the fragment
        fragment = urlencode({JOIN_PARAMETER: old_key[:MAX_KEY_LENGTH]})
        return _no_store(redirect(url_for("sharing.join", game_id=game.id, _anchor=fragment), 303))
    return _no_store(make_response(render_template("sharing/join.html", game=game, form=JoinForm())))


@bp.post("/games/<game_id>/join")
def join_with_key(game_id: str) -> Any:
    """Take the edit key into this browser's cookie (a right key always works), then show the game."""
    game = load_game(game_id)
    form = JoinForm()  # its CSRF token was checked by CSRFProtect before the view ran
    if not form.validate():
        error = next(iter(form.key.errors), "Paste the edit key from the scorekeeper's phone.")
        page = render_template("sharing/join.html", game=game, form=form, error=error)
        return _no_store(make_response(page, 400))
    key = form.key.data.strip()
    if not check_key(game, key):
        error = "This edit key does not work for this game; it may have been replaced. Ask again."
        page = render_template("sharing/join.html", game=game, form=JoinForm(formdata=None), error=error)
        return _no_store(make_response(page, 403))
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
