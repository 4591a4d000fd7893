"""Games, rounds and standings: the only module that calls the rules engine.

Views and the JSON API both go through these functions, so a page and the API
always agree. Every rule fact (schedule, wild cards, dealer, scoring, winners)
comes from `engine`; this module only stores and arranges it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.exc import StaleDataError

from companion import money, security
from companion.extensions import db
from companion.models import Game, Round, RoundRevision, utc_now
from engine.cards import Suit
from engine.errors import EngineError
from engine.rules import OPTION_SPECS, PRESETS, RUMMY_PRESETS, DeckRow, Preset, RuleSet, rule_set, verify_player_count
from engine.schedule import RoundInfo, dealer_seat, first_player_seat, schedule
from engine.scoring import (
    Standing,
    next_first_dealer,
    round_points,
    standings,
    totals,
    verify_round_scores,
    winners,
)

MAX_NAME_LENGTH = 40
JOKER_SYMBOL = "🃏"
SUITS: tuple[tuple[str, bool], ...] = tuple((suit.symbol, suit.is_red) for suit in Suit)


class ServiceError(Exception):
    """A request the app refuses; `status` is the HTTP status, the message one sentence."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    status = 400


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


# ---------------------------------------------------------------- view models


@dataclass(frozen=True)
class WildCard:
    """A wild card as the pages show it: a joker, or a rank in every suit."""

    token: str
    symbol: str
    is_joker: bool


@dataclass(frozen=True)
class RoundPlan:
    """What the table needs to know to deal and play a round."""

    number: int
    cards: int
    wild_tokens: tuple[str, ...]
    wild_words: str
    wild_cards: tuple[WildCard, ...]
    multiplier: int
    dealer: str
    first_player: str
    decks: int
    jokers: int

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "cards": self.cards,
            "wild": list(self.wild_tokens),
            "multiplier": self.multiplier,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "decks": self.decks,
            "jokers": self.jokers,
        }


@dataclass(frozen=True)
class PlayedRound:
    """A scored round: card points entered and sheet points after the multiplier."""

    plan: RoundPlan
    went_out: str
    scores: dict[str, int]
    points: dict[str, int]
    corrected: bool
    hands: dict[str, str] | None = None  # the cards entered, when the engine scored them (issue 5)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.plan.number,
            "cards": self.plan.cards,
            "wild": list(self.plan.wild_tokens),
            "multiplier": self.plan.multiplier,
            "dealer": self.plan.dealer,
            "went_out": self.went_out,
            "scores": dict(self.scores),
            "points": dict(self.points),
            **({"hands": dict(self.hands)} if self.hands else {}),
        }


@dataclass(frozen=True)
class HistoryEntry:
    """Earlier values of a round, kept when it was corrected or undone."""

    number: int
    action: str
    went_out: str
    scores: dict[str, int]
    changed_at: datetime


@dataclass(frozen=True)
class OptionRow:
    key: str
    title: str
    value: str
    effect: str


@dataclass(frozen=True)
class GameView:
    """Everything a page or the API shows about a game, computed by the engine."""

    id: str
    variant: str
    name: str
    preset: Preset
    options: dict[str, Any]
    option_rows: tuple[OptionRow, ...]
    players: tuple[str, ...]
    total_rounds: int
    rounds: tuple[PlayedRound, ...]
    totals: dict[str, int]
    standings: tuple[Standing, ...]
    next_round: RoundPlan | None
    finished: bool
    winners: tuple[str, ...]
    history: tuple[HistoryEntry, ...]
    version: int
    created_at: datetime
    pot: money.PotView | None = None

    @property
    def last_round(self) -> int:
        return len(self.rounds)

    def as_json(self) -> dict[str, Any]:
        """The game state of the API contract."""
        return {
            "id": self.id,
            "variant": self.variant,
            "options": self.options,
            "players": list(self.players),
            "rounds": [played.as_json() for played in self.rounds],
            "totals": dict(self.totals),
            "next_round": self.next_round.as_json() if self.next_round else None,
            "finished": self.finished,
            "winners": list(self.winners),
            "version": self.version,
            "pot": self.pot.as_json() if self.pot else None,
        }


@dataclass(frozen=True)
class GameSummary:
    """A line of the games list."""

    id: str
    name: str
    variant: str
    players: tuple[str, ...]
    rounds_played: int
    total_rounds: int
    finished: bool
    created_at: datetime

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "players": list(self.players),
            "rounds_played": self.rounds_played,
            "finished": self.finished,
        }


@dataclass(frozen=True)
class VariantChoice:
    """A preset offered on the new-game page."""

    id: str
    name: str
    min_players: int
    max_players: int
    summary: str
    wild_text: str


# ---------------------------------------------------------------- engine calls


def _engine(call: Any, *args: Any) -> Any:
    """Call the engine; its errors become InvalidInput with the engine's own sentence."""
    try:
        return call(*args)
    except EngineError as error:
        raise InvalidInput(str(error)) from error


def rules_for(variant: str, options: Mapping[str, object] | None) -> RuleSet:
    """The rule set of a rummy preset with option overrides (InvalidInput if they are bad)."""
    rules: RuleSet = _engine(rule_set, variant, dict(options or {}))
    _engine(schedule, rules)  # refuses presets that are not played in rounds
    return rules


def variant_choices() -> tuple[VariantChoice, ...]:
    return tuple(
        VariantChoice(p.id, p.name, p.min_players, p.max_players, p.summary, p.wild_text)
        for p in (PRESETS[preset_id] for preset_id in RUMMY_PRESETS)
    )


def preset_defaults(variant: str) -> dict[str, Any]:
    """The preset's default options as JSON values (for the new-game form)."""
    return {**rules_for(variant, None).options.as_json(), **money.pot_defaults(variant)}


def _wild_cards(info: RoundInfo) -> tuple[WildCard, ...]:
    return tuple(
        WildCard(token, JOKER_SYMBOL if token == "JK" else token, token == "JK") for token in info.wild_tokens
    )


def _plan(info: RoundInfo, players: Sequence[str], first_dealer: int, table: DeckRow) -> RoundPlan:
    count = len(players)
    return RoundPlan(
        number=info.number,
        cards=info.cards,
        wild_tokens=info.wild_tokens,
        wild_words=info.wild_words,
        wild_cards=_wild_cards(info),
        multiplier=info.multiplier,
        dealer=players[dealer_seat(first_dealer, info.number, count)],
        first_player=players[first_player_seat(first_dealer, info.number, count)],
        decks=table.decks,
        jokers=table.jokers,
    )


def _played(stored: Round, plan: RoundPlan, players: Sequence[str], corrected: set[int]) -> PlayedRound:
    scores = {name: stored.scores[name] for name in players}
    return PlayedRound(
        plan, stored.went_out, scores, round_points(scores, plan.multiplier), stored.number in corrected, stored.hands
    )


def _history(revision: RoundRevision, players: Sequence[str]) -> HistoryEntry:
    scores = {name: revision.scores[name] for name in players if name in revision.scores}
    return HistoryEntry(revision.number, revision.action, revision.went_out, scores, revision.changed_at)


def build_view(game: Game) -> GameView:
    """The full state of a game, every rule fact from the engine."""
    money.verify_rounds(game)
    rules = rules_for(game.variant, game.options)
    players = tuple(game.players)
    table = rules.preset.table_for(len(players))
    plans = [_plan(info, players, game.first_dealer, table) for info in schedule(rules)]
    corrected = {revision.number for revision in game.revisions if revision.action == "corrected"}
    played = tuple(_played(stored, plans[stored.number - 1], players, corrected) for stored in game.rounds)
    running = totals(players, [item.points for item in played])
    finished = len(played) >= rules.rounds
    options = rules.options.as_json()
    return GameView(
        id=game.id,
        variant=rules.preset.id,
        name=rules.preset.name,
        preset=rules.preset,
        options=money.state_options(game, options),
        option_rows=tuple(
            OptionRow(key, spec.title, spec.label(options[key]), spec.effect) for key, spec in OPTION_SPECS.items()
        ),
        players=players,
        total_rounds=rules.rounds,
        rounds=played,
        totals=running,
        standings=tuple(standings(running)),
        next_round=None if finished else plans[len(played)],
        finished=finished,
        winners=tuple(winners(running)) if finished else (),
        history=tuple(_history(revision, players) for revision in reversed(game.revisions)),
        version=game.version,
        created_at=game.created_at,
        pot=money.pot_view(game, running, finished),
    )


# ---------------------------------------------------------------- reading


def get_game(game_id: str) -> Game:
    # One statement reads the game and its rounds, so a write checks the rounds of the very
    # version it will update (read apart, another phone's write could land in between).
    if len(game_id) > 32 or "\x00" in game_id:  # PostgreSQL refuses NUL in text: not an id, not a 500
        raise NotFound("there is no game with that id")
    game = db.session.get(Game, game_id, options=[joinedload(Game.rounds)], populate_existing=True)
    if game is None:
        raise NotFound("there is no game with that id")
    return game


def list_games() -> tuple[GameSummary, ...]:
    """Every game, newest first."""
    query = db.select(Game).options(selectinload(Game.rounds)).order_by(Game.created_at.desc(), Game.id)
    summaries = []
    for game in db.session.scalars(query):
        if money.is_play_or_pay(game):
            summaries.append(money.summary(game))
            continue
        rules = rules_for(game.variant, game.options)
        summaries.append(
            GameSummary(
                id=game.id,
                name=rules.preset.name,
                variant=game.variant,
                players=tuple(game.players),
                rounds_played=len(game.rounds),
                total_rounds=rules.rounds,
                finished=game.finished,
                created_at=game.created_at,
            )
        )
    return tuple(summaries)


# ---------------------------------------------------------------- edit keys


def _hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_matches(game: Game, key: str | None) -> bool:
    """Whether a presented edit key is the game's (constant-time comparison)."""
    if not key:
        return False
    security.before_key_check()  # 429 once this client sent too many wrong keys
    if hmac.compare_digest(_hash_key(key), game.edit_key_hash):
        return True
    security.wrong_key(key)
    return False


def regenerate_key(game: Game) -> str:
    """Replace the game's edit key: the old key stops working at once. Returns the new key."""
    key = secrets.token_urlsafe(24)
    game.edit_key_hash = _hash_key(key)
    game.updated_at = utc_now()
    _commit()
    return key


def require_key(game: Game, key: str | None) -> None:
    if not key:
        raise NotAllowed("this game can only be changed with its edit key")
    if not key_matches(game, key):
        raise NotAllowed("the edit key does not match this game")


# ---------------------------------------------------------------- writing


def clean_players(players: object, preset: Preset) -> list[str]:
    """Player names in seat order: trimmed, non-empty, unique, at most 40 characters."""
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidInput("players must be a list of names")
    # One spelling per name: "Åsa" typed as one character or as A plus a ring is the same player.
    names = [unicodedata.normalize("NFC", name).strip() for name in players]
    if any(not name for name in names):
        raise InvalidInput("every player needs a name")
    for name in names:
        if not name.isprintable():
            raise InvalidInput("a player's name cannot hold a line break or another control character")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidInput(f'the name "{name[:20]}…" is longer than {MAX_NAME_LENGTH} characters')
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise InvalidInput(f'"{name}" is in the list twice; give each player a different name')
        seen.add(name.casefold())
    _engine(verify_player_count, preset, len(names))
    return names


def _seat_of(first_dealer: object, players: Sequence[str]) -> int:
    if first_dealer is None:
        return secrets.randbelow(len(players))
    if not isinstance(first_dealer, str):
        raise InvalidInput("first_dealer must be a player's name")
    name = unicodedata.normalize("NFC", first_dealer).strip()
    if name not in players:
        raise InvalidInput(f'the first dealer "{name}" is not one of the players')
    return players.index(name)


def create_game(
    variant: object, players: object, options: object = None, first_dealer: object = None
) -> tuple[Game, str]:
    """Start a game; returns it with its secret edit key (only a hash is stored)."""
    if not isinstance(variant, str):
        raise InvalidInput("variant must be a preset id such as pay-me")
    if variant == money.PLAY_OR_PAY:
        return money.create_play_or_pay(players, options, first_dealer)
    options, pot = money.split_options(variant, options)
    if options is not None and not isinstance(options, dict):
        raise InvalidInput("options must be an object of house-rule options")
    rules = rules_for(variant, options)
    names = clean_players(players, rules.preset)
    seat = _seat_of(first_dealer, names)
    return _store_new_game(rules, names, seat, pot)


def _store_new_game(
    rules: RuleSet, players: list[str], first_dealer: int, pot: dict[str, Any] | None = None
) -> tuple[Game, str]:
    key = secrets.token_urlsafe(24)
    game = Game(
        id=secrets.token_urlsafe(12),
        variant=rules.preset.id,
        options=rules.options.as_json(),
        players=players,
        first_dealer=first_dealer,
        edit_key_hash=_hash_key(key),
        finished=False,
        money=pot,
    )
    db.session.add(game)
    _commit()
    return game, key


def rematch(game: Game) -> tuple[Game, str]:
    """A new game with the same players and options; the next dealer deals first."""
    if not game.finished:
        raise InvalidInput("a rematch can start only when the game is over")
    rules = rules_for(game.variant, game.options)
    seat = next_first_dealer(game.first_dealer, len(game.rounds), len(game.players))
    return _store_new_game(rules, list(game.players), seat, game.money)


def _check_version(game: Game, expected: object) -> None:
    if expected is None:
        return
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidInput("version must be a whole number")
    if expected != game.version:
        raise Conflict("the game changed since you loaded it; reload it and try again")


def _verified_scores(game: Game, went_out: object, scores: object) -> dict[str, int]:
    if not isinstance(went_out, str):
        raise InvalidInput("went_out must be the name of the player who went out")
    if not isinstance(scores, dict):
        raise InvalidInput("scores must be an object of card points by player name")
    checked: dict[str, int] = _engine(verify_round_scores, list(game.players), went_out, scores)
    return checked


def add_round(
    game: Game, went_out: object, scores: object, expected_version: object = None, hands: object = None,
    declarer: object = None, second_discards: object = None,
) -> None:
    """Score the next round; players in `hands` are scored from their cards (companion.disputes)."""
    _check_version(game, expected_version)
    money.verify_rounds(game)
    rules = rules_for(game.variant, game.options)
    if len(game.rounds) >= rules.rounds:
        raise InvalidInput(f"the game is over: all {rules.rounds} rounds are scored")
    scores, kept = _scores_from_hands(game, len(game.rounds) + 1, went_out, scores, hands, declarer)
    checked = _verified_scores(game, went_out, scores)
    pickups = money.verify_second_discards(game, second_discards)
    game.rounds.append(
        Round(number=len(game.rounds) + 1, went_out=went_out, scores=checked, hands=kept, second_discards=pickups)
    )
    _touch(game, rules)
    _commit()


def correct_round(
    game: Game, number: int, went_out: object, scores: object, expected_version: object = None,
    hands: object = None, declarer: object = None, second_discards: object = None,
) -> None:
    """Correct an earlier round; its previous values go into the history (second discards left out stay)."""
    _check_version(game, expected_version)
    money.verify_rounds(game)
    stored = next((item for item in game.rounds if item.number == number), None)
    if stored is None:
        raise NotFound(f"round {number} has not been played in this game")
    scores, kept = _scores_from_hands(game, number, went_out, scores, hands, declarer)
    checked = _verified_scores(game, went_out, scores)
    if hands is None and declarer is None and stored.went_out == went_out and stored.scores == checked:
        kept = stored.hands  # the same scores typed again: the cards entered still back them
    pickups = stored.second_discards if second_discards is None else money.verify_second_discards(game, second_discards)
    if (stored.went_out, stored.scores, stored.hands, stored.second_discards) == (went_out, checked, kept, pickups):
        return
    game.revisions.append(
        RoundRevision(
            number=number, action="corrected", went_out=stored.went_out, scores=dict(stored.scores), hands=stored.hands,
            second_discards=stored.second_discards,
        )
    )
    stored.went_out = str(went_out)
    stored.scores = checked
    stored.hands = kept
    stored.second_discards = pickups
    _touch(game, rules_for(game.variant, game.options))
    _commit()


def undo_last_round(game: Game, expected_version: object = None) -> None:
    """Remove the last round; its values go into the history."""
    _check_version(game, expected_version)
    money.verify_rounds(game)
    if not game.rounds:
        raise NotFound("there is no round to undo yet")
    last = game.rounds[-1]
    game.revisions.append(
        RoundRevision(
            number=last.number, action="undone", went_out=last.went_out, scores=dict(last.scores), hands=last.hands,
            second_discards=last.second_discards,
        )
    )
    game.rounds.remove(last)
    _touch(game, rules_for(game.variant, game.options))
    _commit()


def _scores_from_hands(
    game: Game, number: int, went_out: object, scores: object, hands: object, declarer: object
) -> tuple[object, dict[str, str] | None]:
    """Scores with the players whose cards were entered scored by the engine, and the cards to keep."""
    if hands is None and declarer is None:
        return scores, None
    from companion.disputes import score_hands  # the dispute services build on this module

    return score_hands(game, number, went_out, scores, hands, declarer)


def delete_game(game: Game, expected_version: object = None) -> None:
    _check_version(game, expected_version)
    db.session.delete(game)
    _commit()


def _touch(game: Game, rules: RuleSet) -> None:
    """Mark the game changed, so its version is checked and raised on commit."""
    game.updated_at = utc_now()
    game.finished = len(game.rounds) >= rules.rounds


def _commit() -> None:
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError) as error:
        db.session.rollback()
        raise Conflict("someone else changed this game at the same moment; reload it and try again") from error
