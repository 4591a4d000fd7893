"""Joining a game from another phone: QR codes, the join link, and replacing the edit key.

- Every phone showing a game sees a QR code of its plain address (view only).
- A browser holding the game's edit key also sees a QR code of the join link
  ``/games/<id>/join?key=<edit key>``: opening it stores the key in that phone's cookie and
  redirects to the game page, so the key does not stay in the address bar. Only a hash of the key
  is stored on the server, so this code is made from the key in the current browser's cookie.
- ``POST /games/<id>/key`` (form, CSRF) and ``POST /api/games/<id>/key`` (``X-Edit-Key``) replace
  the key: the old key, and every code made with it, stops working at once.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import segno
from flask import Blueprint, Flask, Response, abort, jsonify, redirect, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from companion import services
from companion.api import KEY_HEADER, json_error
from companion.forms import ActionForm
from companion.views import KEY_COOKIE, _sentence, _with_key_cookie, can_edit, load_game, submitted

bp = Blueprint("sharing", __name__)
api_bp = Blueprint("sharing_api", __name__, url_prefix="/api")

JOIN_PARAMETER = "key"


def qr_svg(data: str, title: str) -> Markup:
    """A QR code as inline SVG: black on white (scannable in dark mode too), sized by CSS."""
    code = segno.make(data, error="m")
    svg = code.svg_inline(dark="#000", light="#fff", omitsize=True, svgclass="qr-code", lineclass=None, title=title)
    return Markup(svg)  # made by segno from a URL; the title is ours


def join_url(share_url: str, key: str) -> str:
    """The address that hands the edit key to another phone.

    >>> join_url("http://192.168.1.23:5000/games/abc", "k-1_x")
    'http://192.168.1.23:5000/games/abc/join?key=k-1_x'
    """
    return share_url.rstrip("/") + "/join?" + urlencode({JOIN_PARAMETER: key})


def share_codes(share_url: str, can_edit: bool) -> dict[str, Any]:
    """The QR codes of the game page: view only for everyone, the edit link for a key holder."""
    codes: dict[str, Any] = {
        "view_url": share_url,
        "view_svg": qr_svg(share_url, "QR code of the view-only address"),
        "edit_url": None,
        "edit_svg": None,
    }
    key = request.cookies.get(KEY_COOKIE)
    if can_edit and key:
        codes["edit_url"] = join_url(share_url, key)
        codes["edit_svg"] = qr_svg(codes["edit_url"], "QR code of the edit link")
    return codes


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
    if len(key) > 200 or not services.key_matches(game, key):
        abort(403, description="This edit key does not work for this game; it may have been replaced. Ask again.")
    response = redirect(url_for("pages.game_page", game_id=game.id), 303)
    return _no_store(_with_key_cookie(response, game, key))


@bp.post("/games/<game_id>/key")
def new_key(game_id: str) -> Any:
    """Replace the edit key; this browser gets the new one, every other phone loses edit rights."""
    game = load_game(game_id)
    if not can_edit(game):
        abort(403, description="Only a phone with this game's edit key can replace it.")
    submitted(ActionForm())
    try:
        key = services.regenerate_key(game)
    except services.ServiceError as failure:
        abort(failure.status, description=_sentence(failure.message))
    response = redirect(url_for("pages.game_page", game_id=game.id, _anchor="share-edit"), 303)
    return _no_store(_with_key_cookie(response, game, key))


@api_bp.errorhandler(services.ServiceError)
def service_error(error: services.ServiceError) -> tuple[Response, int]:
    return json_error(error.status, error.message)


@api_bp.post("/games/<game_id>/key")
def api_new_key(game_id: str) -> tuple[Response, int]:
    """Replace the edit key (the current one in X-Edit-Key); answers {"edit_key": new key}."""
    game = services.get_game(game_id)
    services.require_key(game, request.headers.get(KEY_HEADER))
    key = services.regenerate_key(game)
    response = jsonify({"edit_key": key})
    response.headers["Cache-Control"] = "no-store"
    return response, 200


def init_app(app: Flask) -> None:
    """Register the join and key routes (the API one without CSRF: it needs X-Edit-Key) and share_codes."""
    from companion.extensions import csrf

    app.register_blueprint(bp)
    app.register_blueprint(api_bp)
    csrf.exempt(api_bp)
    app.jinja_env.globals["share_codes"] = share_codes
