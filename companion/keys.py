"""Edit keys: who may change a game.

The browser that starts a game keeps its secret edit key in a cookie (HttpOnly, SameSite=Lax,
sent only for that game's pages); the API takes it in the ``X-Edit-Key`` header. Only a hash is
stored (companion.services.store). The key is compared first, so a right key is never refused.
Wrong keys are counted per game and per client address (in the database, companion.security):
past ``RATELIMIT_WRONG_KEY`` a wrong key sent to the API or a join link gets 429 instead of 403,
which slows a guesser down without locking anyone out (a 192-bit key cannot be guessed; the
limit only spares the server). A wrong key cookie only makes the page view-only, and a browser
whose cookie holds a replaced key loses it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, has_request_context, request
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

from companion import security
from companion.bounds import TOO_MANY_WRONG_KEYS
from companion.errors import NotAllowed, NotFound
from companion.models import Game, Group
from companion.services import groups, store

KEY_COOKIE = "edit_key"
KEY_MAX_AGE = 400 * 24 * 3600
KEY_HEADER = "X-Edit-Key"
GROUP_COOKIE_PREFIX = "group_key_"
NO_EDIT = "Only the phone that started this game can change it. The scores stay visible here."

_R = TypeVar("_R")


def game_path(game_id: str) -> str:
    """The path the key cookie is sent for: the game's pages only."""
    return f"/games/{game_id}"


def with_key_cookie(response: Response, game: Game, key: str) -> Response:
    """Keep a game's edit key in this browser: HttpOnly, SameSite=Lax, only sent for that game."""
    response.set_cookie(
        KEY_COOKIE,
        key,
        max_age=KEY_MAX_AGE,
        path=game_path(game.id),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def forget_key_cookie(response: Response, game_id: str) -> Response:
    response.delete_cookie(KEY_COOKIE, path=game_path(game_id))
    return response


def check_key(game: Game, key: str | None, *, refuse_past_limit: bool = True) -> bool:
    """Whether a presented edit key is the game's. A wrong one is counted for this game and
    client; past the limit it is refused with 429 (TooManyRequests) unless `refuse_past_limit` is off."""
    if not key:
        return False
    if store.key_matches(game, key):
        return True
    if not _count_wrong_key(game.id, key) and refuse_past_limit:
        raise TooManyRequests(TOO_MANY_WRONG_KEYS)
    return False


def check_group_key(group: Group, key: str | None) -> bool:
    """Whether a presented key is the group's; a wrong one is counted like a wrong edit key (429 past the limit)."""
    if not key:
        return False
    if groups.group_key_matches(group, key):
        return True
    if not _count_wrong_key(f"group:{group.id}", key):
        raise TooManyRequests(TOO_MANY_WRONG_KEYS)
    return False


def require_key(game: Game, key: str | None) -> None:
    """NotAllowed (403) unless `key` is the game's edit key."""
    if not key:
        raise NotAllowed("this game can only be changed with its edit key")
    if not check_key(game, key):
        raise NotAllowed("the edit key does not match this game")


def load_game(game_id: str) -> Game:
    """The game at an address, or a 404 page (shared by the page blueprints)."""
    try:
        return store.get_game(game_id)
    except NotFound:
        abort(404, description="There is no game at this address. It may have been deleted.")


def group_cookie(group_id: str) -> str:
    """The cookie holding a group's key (issue 14): sent to every page, so it opens the group's games."""
    return GROUP_COOKIE_PREFIX + group_id


def can_edit(game: Game) -> bool:
    """Whether this browser holds the game's edit key, or the key of the game's group (a wrong cookie never
    costs the page a 429)."""
    if check_key(game, request.cookies.get(KEY_COOKIE), refuse_past_limit=False):
        return True
    group_key = request.cookies.get(group_cookie(game.group_id)) if game.group_id else None
    return bool(group_key) and store.key_matches(game, group_key or "")


def load_for_edit(game_id: str, refusal: str = NO_EDIT) -> Game:
    """The game, or a 403 page saying `refusal` when this browser does not hold the edit key."""
    game = load_game(game_id)
    if not can_edit(game):
        abort(403, description=refusal)
    return game


def edit_required(view: Callable[..., _R]) -> Callable[..., _R]:
    """An API view of a game's writes gets the game instead of its id: the game must exist (404)
    and the X-Edit-Key header must hold its key (403)."""

    @wraps(view)
    def checked(game_id: str, **kwargs: Any) -> _R:
        game = store.get_game(game_id)
        require_key(game, request.headers.get(KEY_HEADER))
        return view(game, **kwargs)

    return checked


def _count_wrong_key(scope: str, key: str) -> bool:
    """Count a key that did not match a game's (or a group's: scope "group:<id>"), and remember it for
    this request (see _forget_stale_cookie); False when it has had too many wrong keys from this client."""
    if not has_request_context():
        return True
    g.setdefault("wrong_keys", set()).add(key)
    if not security.limits_enabled():
        return True
    client = f"{scope}|{security.client_address()}"
    return security.hit_limit("wrong-key", client, current_app.config["RATELIMIT_WRONG_KEY"])


def _private_when_keyed(response: Response) -> Response:
    """A page seen with a key cookie may show the edit key: never in a shared cache."""
    if KEY_COOKIE in request.cookies and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "private"
    return response


def _forget_stale_cookie(response: Response) -> Response:
    """A browser whose key cookie no longer matches (the key was replaced) loses the cookie."""
    cookie = request.cookies.get(KEY_COOKIE)
    game_id = (request.view_args or {}).get("game_id")
    if cookie and game_id and cookie in g.get("wrong_keys", ()) and not _sets_cookie(response):
        response.delete_cookie(KEY_COOKIE, path=game_path(game_id), httponly=True, samesite="Lax")
    return response


def _sets_cookie(response: Response) -> bool:
    return any(value.startswith(KEY_COOKIE + "=") for value in response.headers.getlist("Set-Cookie"))


def install(app: Flask) -> None:
    """The answers' cache and cookie rules for key holders."""
    app.after_request(_private_when_keyed)
    app.after_request(_forget_stale_cookie)
