"""The API of games and rounds: list, start, read, delete; score, correct and undo rounds.

An undo (``DELETE /api/games/<id>/rounds/last``) must carry the version the client saw, as
``?version=N`` or ``If-Match: "vN"``: 428 without it, 409 (with ``"current"``) when it is stale.
"""

from __future__ import annotations

from flask import Response, current_app, jsonify, request
from werkzeug.wrappers import Response as BaseResponse

from companion import schemas
from companion.api import bodies
from companion.api.http import bp, created, expected_version, state
from companion.api.live import versioned
from companion.api.once import exactly_once
from companion.errors import InvalidInput, NotAllowed
from companion.keys import check_group_key, edit_required
from companion.models import Game
from companion.services import contract, groups, kinds, players, rummy, store


@bp.get("/games")
def list_games() -> Response:
    """The games of the group whose key is sent (X-Group-Key), a page at a time, the most recently
    played first; every game only on a server set up with PUBLIC_GAME_LIST (a private LAN)."""
    page = _page_asked()
    key = request.headers.get(groups.GROUP_KEY_HEADER)
    group_id = None
    if key:
        group = groups.group_by_key(key)
        if group is None:
            raise NotAllowed("this key is no group's key: send the group key in X-Group-Key")
        group_id = group.id
    elif not current_app.config.get("PUBLIC_GAME_LIST"):
        raise NotAllowed("send a group's key in X-Group-Key to list its games")
    games, more = kinds.list_games(group_id, page)
    return jsonify({"games": [game.as_json() for game in games], "page": page, "next_page": page + 1 if more else None})


def _page_asked() -> int:
    text = request.args.get("page", "1")
    if not text.isdecimal() or not 1 <= int(text) <= kinds.MAX_GAMES_PAGE:
        raise InvalidInput(f'page must be a whole number from 1 to {kinds.MAX_GAMES_PAGE}, not "{text[:20]}"')
    return int(text)


@bp.post("/games")
@exactly_once()
def create_game() -> tuple[Response, int]:
    body = bodies.parse(schemas.NewGame)
    if body.group is not None:  # a game of a group needs the group's key
        group = groups.get_group(body.group)
        key_sent = request.headers.get(groups.GROUP_KEY_HEADER)
        if key_sent and not check_group_key(group, key_sent):  # counted against the wrong-key limit
            raise NotAllowed("the group key does not match this group")
        game, key = groups.start_game(
            group,
            key_sent,
            body.variant,
            body.players,
            body.options,
            body.first_dealer,
            body.first_dealer_method,
            body.scorekeeper,
        )
        return created(game, key)
    game, key = kinds.create_game(
        body.variant, body.players, body.options, body.first_dealer, body.first_dealer_method, body.scorekeeper
    )
    return created(game, key)


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> BaseResponse:
    """The state, from the per-version cache, with the version's ETag (304 when If-None-Match holds it)."""
    version, body = kinds.cached_state(game_id)
    return versioned(version, lambda: Response(body, mimetype="application/json"))


@bp.delete("/games/<game_id>")
@exactly_once()
@edit_required
def delete_game(game: Game) -> tuple[Response, int]:
    game_id = game.id
    store.delete_game(game)
    return jsonify({"deleted": game_id}), 200


@bp.post("/games/<game_id>/rounds")
@exactly_once()
@edit_required
def add_round(game: Game) -> tuple[Response, int]:
    body = bodies.parse(schemas.RoundEntry)
    rummy.add_round(
        game,
        body.went_out,
        body.scores,
        body.version,
        hands=body.hands,
        declarer=body.declarer,
        second_discards=body.second_discards,
        exact_cut=body.exact_cut,
    )
    return state(game, 201)


@bp.put("/games/<game_id>/rounds/<int:number>")
@exactly_once()
@edit_required
def correct_round(game: Game, number: int) -> tuple[Response, int]:
    body = bodies.parse(schemas.RoundEntry)
    rummy.correct_round(
        game,
        number,
        body.went_out,
        body.scores,
        body.version,
        hands=body.hands,
        declarer=body.declarer,
        second_discards=body.second_discards,
        exact_cut=body.exact_cut,
    )
    return state(game)


@bp.post("/games/<game_id>/buys")
@exactly_once()
@edit_required
def change_buys(game: Game) -> tuple[Response, int]:
    """Contract Rummy: one buy more (change 1) or one less (-1) for a player in the deal being played."""
    body = bodies.parse(schemas.BuyChange)
    contract.change_buys(game, body.player, body.change, body.version)
    return state(game)


@bp.delete("/games/<game_id>/rounds/last")
@exactly_once()
@edit_required
def undo_round(game: Game) -> tuple[Response, int]:
    rummy.undo_last_round(game, expected_version())
    return state(game)


@bp.post("/games/<game_id>/players")
@exactly_once()
@edit_required
def change_players(game: Game) -> tuple[Response, int]:
    """Rename a player, seat a late one or take one out from the next round (issue 27)."""
    body = bodies.parse(schemas.PlayerChange)
    rename = {"from": body.rename.from_, "to": body.rename.to} if body.rename is not None else None
    players.change_players(game, rename, body.add, body.start, body.remove, body.version)
    return state(game)


@bp.delete("/games/<game_id>/players/last")
@exactly_once()
@edit_required
def undo_player_change(game: Game) -> tuple[Response, int]:
    """Undo the last change of players; like undoing a round, it needs the version the client saw."""
    players.undo_last_change(game, expected_version())
    return state(game)
