"""The rules pages: ``/rules``, ``/rules/<preset>`` (options from the query) and ``/games/<id>/rules``
(the game's own options). Every fact comes from the engine through `companion.services.rules`."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from companion.errors import ServiceError, sentence
from companion.keys import load_game
from companion.services import kinds, play_or_pay, pool, rules, rummy
from companion.services.store import PRESETS, RUMMY_PRESETS

POOL_PRESETS = tuple(key for key in PRESETS if rules.is_pool(key))

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def rules_index() -> str:
    presets = [
        *(PRESETS[key] for key in RUMMY_PRESETS),
        PRESETS[play_or_pay.PLAY_OR_PAY],
        *(PRESETS[key] for key in POOL_PRESETS),
    ]
    return render_template("rules/index.html", presets=presets)


def _play_or_pay_rules(chips: object, players: int | None = None, game_id: str | None = None) -> Any:
    """The Play or Pay rules page (its facts from engine.play_or_pay, through companion.services.rules)."""
    try:
        page = rules.play_or_pay_rules(chips, players)
    except ServiceError as failure:
        abort(400, description=sentence(failure.message))
    return render_template("rules/play_or_pay.html", page=page, game_id=game_id)


def _contract_rules(variant: str, options: dict[str, Any], players: int | None = None, game: Any = None) -> Any:
    """The rules page of a game played in deals with contracts (Contract Rummy)."""
    try:
        page = rules.contract_rules(variant, options, players)
    except ServiceError as failure:
        abort(400, description=sentence(failure.message))
    return render_template("rules/contract.html", page=page, game=game)


def _pool_rules(variant: str, options: dict[str, Any], players: int | None = None, game: Any = None) -> Any:
    """The pool rummy rules page (its words from engine.pool.rules_text, through companion.services.rules)."""
    buy_in = None if game is None else pool.buy_in_of(game)
    try:
        page = rules.pool_rules(variant, options, players, buy_in)
    except ServiceError as failure:
        abort(400, description=sentence(failure.message))
    return render_template("rules/pool.html", page=page, game_id=None if game is None else game.id)


@bp.get("/rules/<variant>")
def rules_page(variant: str) -> Any:
    if variant in POOL_PRESETS:
        return _pool_rules(
            variant, {key: request.args[key] for key in rules.option_keys(variant) if key in request.args}
        )
    if variant in PRESETS and not kinds.of_variant(variant).in_rounds:
        return _play_or_pay_rules(request.args.get(play_or_pay.CHIPS_KEY))
    if variant not in RUMMY_PRESETS:
        abort(404, description=f'There is no preset "{variant[:40]}". The rules pages list every preset.')
    overrides = {key: request.args[key] for key in rules.option_keys(variant) if key in request.args}
    if rules.has_contracts(variant):
        return _contract_rules(variant, overrides)
    try:
        page = rules.preset_rules(variant, overrides, request.args.get("round"))
    except ServiceError as failure:
        abort(400, description=sentence(failure.message))
    return render_template("rules/preset.html", page=page, game=None)


@bp.get("/games/<game_id>/rules")
def game_rules(game_id: str) -> Any:
    game = load_game(game_id)
    if pool.is_pool(game):
        return _pool_rules(game.variant, dict(game.options or {}), len(game.players), game)
    if not kinds.of(game).in_rounds:
        return _play_or_pay_rules(play_or_pay.starting_chips(game), len(game.players), game.id)
    view = rummy.build_view(game)
    if rules.has_contracts(game.variant):
        return _contract_rules(game.variant, game.options, len(game.players), view)
    try:
        page = rules.preset_rules(game.variant, game.options, request.args.get("round"), len(game.players))
    except ServiceError as failure:
        abort(400, description=sentence(failure.message))
    return render_template("rules/preset.html", page=page, game=view)
