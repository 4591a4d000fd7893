"""The game page's Players panel (issue 27): rename a player, seat a late player, take one out, and
undo the last of these changes. Each form posts here and the page comes back (post-redirect-get);
a refused change shows the game page again with its sentence and what was typed."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, url_for

from companion.errors import Conflict, InvalidInput, ServiceError, sentence
from companion.games.forms import ActionForm, PlayersForm
from companion.games.routes import bp, render_game
from companion.keys import load_for_edit, load_game
from companion.models import Game
from companion.play_or_pay.routes import hand_page_with
from companion.services import kinds, players, pool

CONFLICT = "Not changed: another phone changed this game meanwhile. Check the players and try again."


@bp.get("/games/<game_id>/players")
def players_page(game_id: str) -> Any:
    """The game page with its Players panel open and its panels in full (the edit link's too): the game
    page itself comes without them (app.js fetches them from here when they open), and without script
    their links lead here."""
    game = load_game(game_id)
    if pool.is_pool(game):
        return redirect(url_for("pool.pool_page", game_id=game.id), 303)
    if not kinds.of(game).in_rounds:
        return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="change-players"), 303)
    return render_game(game, players_open=True)


@bp.post("/games/<game_id>/players")
def change_players(game_id: str) -> Any:
    game = load_for_edit(game_id)
    refuse_pool(game)
    form = PlayersForm()  # its CSRF token was checked by CSRFProtect before the view ran
    try:
        _change(game, form)
    except Conflict:
        return _page(load_game(game_id), 409, players_error=CONFLICT, players_typed=form.typed())
    except ServiceError as failure:
        message = f"Not changed: {sentence(failure.message)}"
        return _page(load_game(game_id), failure.status, players_error=message, players_typed=form.typed())
    return _back(game)


POOL_PLAYERS = (
    "Not changed: a pool rummy game keeps its players from the first deal to the last; a player put out may rejoin."
)


def refuse_pool(game: Game) -> None:
    """Pool rummy has no late players or leavers (RULES.md 11): its page offers no change of players."""
    if pool.is_pool(game):
        abort(400, description=POOL_PLAYERS)


def _page(game: Game, status: int, **extra: Any) -> Any:
    """The game's page again (the hand screen for Play or Pay), with the refused change."""
    if kinds.of(game).in_rounds:
        return render_game(game, status, **extra)
    return hand_page_with(game, status, **extra)


def _back(game: Game) -> Any:
    """After a change: the game's page, at its Players panel."""
    if kinds.of(game).in_rounds:
        return redirect(url_for("games.game_page", game_id=game.id, _anchor="players"), 303)
    return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="change-players"), 303)


def _change(game: Any, form: PlayersForm) -> None:
    version = form.expected_version()
    change = form.change.data
    if change == "rename":
        players.change_players(game, rename={"from": form.old.data, "to": form.new.data}, expected_version=version)
    elif change == "add":
        start = form.start_value() if form.start.raw_data else None  # Play or Pay's form sends no start
        players.change_players(game, add=form.name.data, start=start, expected_version=version)
    elif change == "remove":
        players.change_players(game, remove=form.leaving.data, expected_version=version)
    else:
        raise InvalidInput("choose a change of players: rename, add or remove")


@bp.post("/games/<game_id>/players/last/undo")
def undo_player_change(game_id: str) -> Any:
    game = load_for_edit(game_id)
    refuse_pool(game)
    form = ActionForm()
    try:
        players.undo_last_change(game, form.expected_version())
    except ServiceError as failure:
        abort(failure.status, description=sentence(failure.message))
    return _back(game)
