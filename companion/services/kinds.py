"""The kinds of game, keyed by the preset's kind (engine.rules.Preset.kind).

A kind says how a game is played and shown: in rounds with a score sheet ("rummy": Pay Me,
Three Thirteen, 3-13), or in hands followed card by card with chips ("stops": Play or Pay).
The pages, the API and the exports ask the kind instead of checking variant names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import selectinload

from companion.errors import ServiceError
from companion.extensions import db
from companion.models import Game
from companion.services import play_or_pay, rummy
from companion.services.store import GameSummary, forget_reads, get_game, preset_kind


@dataclass(frozen=True)
class GameKind:
    """What differs between the kinds of game."""

    key: str
    in_rounds: bool
    """Scored in rounds (a score sheet, round forms, a pot); else played in hands with chips (events)."""
    create: Callable[[object, object, object, object], tuple[Game, str]]
    """Start a game: (variant, players, options, first dealer) -> the game and its edit key."""
    state_json: Callable[[Game], dict[str, Any]]
    """The game state of the API contract."""
    summary: Callable[[Game], GameSummary]
    """A line of the games list."""


def _create_play_or_pay(_variant: object, players: object, options: object, first_dealer: object) -> tuple[Game, str]:
    return play_or_pay.create_play_or_pay(players, options, first_dealer)


ROUNDS = GameKind(rummy.KIND, True, rummy.create_game, rummy.state_json, rummy.summary)
HANDS = GameKind(play_or_pay.KIND, False, _create_play_or_pay, play_or_pay.state_json, play_or_pay.summary)
KINDS: dict[str, GameKind] = {kind.key: kind for kind in (ROUNDS, HANDS)}


def of_variant(variant: object) -> GameKind:
    """The kind of a preset; an unknown one is taken as played in rounds (whose services refuse it)."""
    return KINDS.get(preset_kind(variant) or "", ROUNDS)


def of(game: Game) -> GameKind:
    return of_variant(game.variant)


def create_game(
    variant: object, players: object, options: object = None, first_dealer: object = None
) -> tuple[Game, str]:
    """Start a game of any kind; returns it with its secret edit key (only a hash is stored)."""
    return of_variant(variant).create(variant, players, options, first_dealer)


def state_json(game: Game) -> dict[str, Any]:
    """The API state of any game: rounds and totals (with the pot), or hands and chips, and its group."""
    return {**of(game).state_json(game), "group": game.group_id}


def list_games() -> tuple[GameSummary, ...]:
    """Every game, newest first."""
    query = db.select(Game).options(selectinload(Game.rounds)).order_by(Game.created_at.desc(), Game.id)
    return tuple(of(game).summary(game) for game in db.session.scalars(query))


def current_state(game_id: str) -> dict[str, Any] | None:
    """A game's state as stored now (a 409 answers with it), or None when it cannot be read."""
    forget_reads()  # load what the winning write stored
    try:
        return state_json(get_game(game_id))
    except ServiceError:
        return None
