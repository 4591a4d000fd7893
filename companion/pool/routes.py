"""The pool rummy page (RULES.md 11): the standings, one deal's results, rejoins, the split, undo.

Every write is a CSRF-protected form that posts, calls `companion.services.pool` and redirects (PRG);
static/js/pool.js sends the same writes to the JSON API instead, without a page load.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from companion.errors import Conflict, InvalidInput, ServiceError
from companion.games.forms import ActionForm
from companion.keys import KEY_COOKIE, can_edit, load_for_edit, load_game
from companion.models import Game
from companion.pool import forms, view
from companion.services import pool
from companion.sharing.links import share_url
from companion.viewer_pages import viewer_page

bp = Blueprint("pool", __name__)


@bp.after_request
def _no_store_forms(response: Response) -> Response:
    """The page of the phone holding the key holds forms: never kept by the browser, so Back shows the game
    as it is now (a viewer's page is tagged by the game's state instead: companion.viewer_pages)."""
    if response.mimetype == "text/html" and response.get_etag()[0] is None:
        response.headers["Cache-Control"] = "no-store"
    return response


CHANGED = (
    "Not saved: another phone changed this game meanwhile. The page shows the game as it is now; check and save again."
)
UNDO_CHANGED = "Not undone: another phone changed this game meanwhile. Check the page and undo again."


def _pool_game(game_id: str, edit: bool = False) -> Game:
    game = load_for_edit(game_id) if edit else load_game(game_id)
    if not pool.is_pool(game):
        abort(404, description="This game is not pool rummy; its page is the game page.")
    return game


def _render(game: Game, error: str | None = None, status: int = 200, **typed: Any) -> Any:
    editing = can_edit(game)
    in_full = request.args.get("panels") == "1"

    def render() -> str:
        return render_template(
            "pool/pool.html",
            game=game,
            page=view.build(game, pool.replay(game)),
            can_edit=editing,
            edit_key=request.cookies.get(KEY_COOKIE, "") if editing else "",
            action_form=ActionForm(data={"version": game.version}),
            ranks=forms.CUT_RANKS,
            joker=forms.JOKER,
            results=RESULT_BUTTONS,
            error=error,
            typed_deal=typed.get("deal"),
            typed_split=typed.get("split"),
            share_url=share_url(game.id),
            # The edit link's panel comes when it opens (app.js data-panel), from the page with it in full.
            panels_url=url_for("pool.pool_page", game_id=game.id, panels=1) if editing and not in_full else "",
            played_at=game.updated_at,
        )

    if editing or error or status != 200:
        return render(), status
    return viewer_page(game, render)


RESULT_BUTTONS = (("win", "Won"), ("drop", "Drop"), ("middle", "Middle"), ("full", "Full"), ("wrong", "Wrong"))


@bp.get("/games/<game_id>/pool")
def pool_page(game_id: str) -> Any:
    return _render(_pool_game(game_id))


def said(prefix: str, message: str) -> str:
    """A refusal after its prefix, as the server said it (a player's name keeps its capital), with a full stop."""
    text = message.strip()
    return f"{prefix}: {text}" + ("" if text.endswith((".", "!", "?")) else ".")


def _refused(game: Game, failure: ServiceError, **typed: Any) -> Any:
    if isinstance(failure, Conflict):
        return _render(game, CHANGED, 409, **typed)
    return _render(game, said("Not saved", failure.message), failure.status, **typed)


def _done(game: Game, anchor: str) -> Any:
    return redirect(url_for("pool.pool_page", game_id=game.id, _anchor=anchor), 303)


@bp.post("/games/<game_id>/pool/deals")
def add_deal(game_id: str) -> Any:
    game = _pool_game(game_id, edit=True)
    form = ActionForm()  # its CSRF token was checked by CSRFProtect before the view ran
    state = pool.replay(game).standings
    entry = forms.deal_entry(request.form, len(game.players))
    try:
        body = entry.cut_body()
        results = entry.results(game.players, state.seats_in)
        pool.add_deal(game, results, body.get("cut"), form.expected_version(), wild=body.get("wild"))
    except ServiceError as failure:
        return _refused(game, failure, deal=entry)
    return _done(game, "offers" if pool.replay(game).rejoin_offers() else "deal-entry")


@bp.post("/games/<game_id>/pool/rejoins")
def rejoin(game_id: str) -> Any:
    game = _pool_game(game_id, edit=True)
    form = ActionForm()
    try:
        pool.rejoin(game, request.form.get("player", ""), form.expected_version())
    except ServiceError as failure:
        return _refused(game, failure)
    return _done(game, "standings")


@bp.post("/games/<game_id>/pool/end")
def split(game_id: str) -> Any:
    game = _pool_game(game_id, edit=True)
    form = ActionForm()
    state = pool.replay(game).standings
    method = request.form.get("split", "")
    typed = forms.typed_shares(request.form, game.players, state.seats_in)
    try:
        if method not in pool.SPLITS:
            raise InvalidInput("choose how to split the pot: by drops left, equally, or the amounts typed")
        shares = forms.shares_cents(typed, state.pot) if method == "amounts" else None
        pool.end(game, method, shares, form.expected_version())
    except ServiceError as failure:
        return _refused(game, failure, split={"method": method, "shares": typed})
    return _done(game, "result")


@bp.post("/games/<game_id>/pool/undo")
def undo(game_id: str) -> Any:
    game = _pool_game(game_id, edit=True)
    form = ActionForm()
    try:
        pool.undo_last(game, form.expected_version())
    except Conflict:
        return _render(game, UNDO_CHANGED, 409)
    except ServiceError as failure:
        return _render(game, said("Not undone", failure.message), failure.status)
    return _done(game, "deal-entry")
