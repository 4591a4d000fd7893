"""Reading and writing games, shared by every kind of game: ids, edit keys, players, versions, commits.

Also the engine calls every service shares (`engine_call`, `rules_for`) and the presets' catalogue.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import shutil
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from flask import current_app, g
from sqlalchemy import bindparam
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.exc import StaleDataError

from companion.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    PreconditionRequired,
    outcome_unknown,
)
from companion.extensions import db, drop_session
from companion.models import Game, Group, RateCount, utc_now
from engine import dealing
from engine.deck import Rank, Suit
from engine.errors import EngineError
from engine.rules import (
    OPTION_SPECS,
    PRESETS,
    RUMMY_PRESETS,
    OptionSpec,
    Preset,
    RuleSet,
    rule_set,
    verify_player_count,
)
from engine.schedule import schedule

__all__ = ["OPTION_SPECS", "PRESETS", "RUMMY_PRESETS", "OptionSpec", "Preset", "RuleSet"]

ROUNDS_KIND = "rummy"
"""The preset kind (engine.rules.Preset.kind) of games played in rounds: Pay Me, Three Thirteen, 3-13."""
HANDS_KIND = "stops"
"""The preset kind of games played in hands, card by card: Play or Pay."""
POOL_KIND = "pool"
"""The preset kind of pool rummy (101, 201): deals, a knock-out and a pot."""
MAX_NAME_LENGTH = 40

TRADEMARK_LINES = {"five-crowns": "Five Crowns® is a trademark of its publisher; this companion is not affiliated."}
"""The line the pages add where they name a game sold under a trademark (RULES.md 10)."""


def trademark_line(variant: str) -> str:
    """The trademark line of a game, or an empty string."""
    return TRADEMARK_LINES.get(variant, "")


def suit_tone(suit: Suit) -> str:
    """The colour class the pages give a suit's cards: ``red``, ``star`` (Five Crowns) or none (black)."""
    return "star" if suit is Suit.STARS else "red" if suit.is_red else ""


def suit_faces(preset: Preset) -> tuple[tuple[str, str], ...]:
    """Each suit of the preset's deck as the pages show it: its symbol and its colour class."""
    return tuple((suit.symbol, suit_tone(suit)) for suit in deck_suits(preset))


def deck_suits(preset: Preset) -> tuple[Suit, ...]:
    """The suits of the preset's deck."""
    return preset.deck.suits


def deck_ranks(preset: Preset) -> tuple[Rank, ...]:
    """The ranks of the preset's deck."""
    return preset.deck.ranks


def deck_words(preset: Preset) -> str:
    """One deck of the preset in words: "Each deck: the suits ♠ ♥ ♦ ♣ ★, Three to King, 55 cards"."""
    suits, ranks = deck_suits(preset), deck_ranks(preset)
    symbols = " ".join(suit.symbol for suit in suits)
    return f"Each deck: the suits {symbols}, {ranks[0].word} to {ranks[-1].word}, {len(suits) * len(ranks)} cards."


_T = TypeVar("_T")


# ---------------------------------------------------------------- engine calls


def engine_call(call: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Call the engine; its errors become InvalidInput with the engine's own sentence (on one line)."""
    try:
        return call(*args, **kwargs)
    except EngineError as error:
        raise InvalidInput(" ".join(str(error).split())) from error


def rules_for(variant: str, options: Mapping[str, object] | None) -> RuleSet:
    """The rule set of a rummy preset with option overrides (InvalidInput if they are bad)."""
    rules: RuleSet = engine_call(rule_set, variant, dict(options or {}))
    engine_call(schedule, rules)  # refuses presets that are not played in rounds
    return rules


def preset_kind(variant: object) -> str | None:
    """The kind of a preset ("rummy", "stops"), or None for an unknown variant."""
    preset = PRESETS.get(variant) if isinstance(variant, str) else None
    return preset.kind if preset is not None else None


def not_in_rounds(variant: object) -> str:
    """The sentence refusing a round (or a buy) sent to a game not played in rounds, by its kind."""
    if preset_kind(variant) == POOL_KIND:
        return f"{PRESETS[str(variant)].name} is played in deals, not rounds"
    return "Play or Pay is played in hands, not rounds"


@dataclass(frozen=True)
class VariantChoice:
    """A preset offered on the new-game page."""

    id: str
    name: str
    min_players: int
    max_players: int
    summary: str
    wild_text: str


def variant_choices(kind: str) -> tuple[VariantChoice, ...]:
    """The presets of one kind ("rummy", "pool"), in the catalogue's order, as the new-game page offers them."""
    return tuple(
        VariantChoice(preset.id, preset.name, preset.min_players, preset.max_players, preset.summary, preset.wild_text)
        for preset in PRESETS.values()
        if preset.kind == kind
    )


def is_whole(value: object) -> bool:
    """Whether a JSON value is a whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- reading


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


def get_game(game_id: str) -> Game:
    # One statement reads the game and its rounds, so a write checks the rounds of the very
    # version it will update (read apart, another phone's write could land in between).
    if len(game_id) > 32 or "\x00" in game_id:  # PostgreSQL refuses NUL in text: not an id, not a 500
        raise NotFound("there is no game with that id")
    game = db.session.get(Game, game_id, options=[joinedload(Game.rounds)], populate_existing=True)
    if game is None:
        raise NotFound("there is no game with that id")
    return game


_VERSION_SQL = {
    "qmark": "SELECT version FROM games WHERE id = ?",  # SQLite
    "format": "SELECT version FROM games WHERE id = %s",
    "pyformat": "SELECT version FROM games WHERE id = %s",  # psycopg
}
_VERSION_OF = db.select(Game.__table__.c.version).where(Game.__table__.c.id == bindparam("game_id"))


def current_version(game_id: str) -> int:
    """The stored version of a game (one indexed column, no rounds), or NotFound.

    Most state reads and polls are answered from this alone, so it skips the ORM and the session:
    one statement on a pooled connection of the driver (a fifth of the cost of a Core query).
    """
    if len(game_id) > 32 or "\x00" in game_id:  # PostgreSQL refuses NUL in text: not an id, not a 500
        raise NotFound("there is no game with that id")
    engine = db.engine
    sql = _VERSION_SQL.get(engine.dialect.paramstyle)
    if sql is None:
        with engine.connect() as connection:
            version = connection.execute(_VERSION_OF, {"game_id": game_id}).scalar()
    else:
        version = _raw_version(engine, sql, game_id)
    if version is None:
        raise NotFound("there is no game with that id")
    return int(version)


def _raw_version(engine: Engine, sql: str, game_id: str) -> int | None:
    """The version column read on a raw driver connection. The driver's errors come unwrapped from
    there: a lost or refused connection is raised as SQLAlchemy's OperationalError, as elsewhere."""
    dbapi = engine.dialect.loaded_dbapi
    try:
        raw = engine.raw_connection()  # back to the pool (rolled back) by close()
    except (dbapi.OperationalError, dbapi.InterfaceError) as error:
        raise OperationalError(sql, (game_id,), error) from error
    try:
        cursor = raw.cursor()
        cursor.execute(sql, (game_id,))
        row = cursor.fetchone()
        cursor.close()
    except (dbapi.OperationalError, dbapi.InterfaceError) as error:
        raw.invalidate()
        raise OperationalError(sql, (game_id,), error, connection_invalidated=True) from error
    finally:
        raw.close()
    return int(row[0]) if row else None


def database_answers() -> bool:
    """Whether the database answers a query now (/healthz); a failure is logged, not raised."""
    try:
        with db.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1").scalar()
    except SQLAlchemyError:
        current_app.logger.warning("the database does not answer", exc_info=True)
        return False
    return True


MIN_FREE_BYTES = 1024 * 1024
"""Below this much free space beside a SQLite file, /healthz says the database cannot write: a full
disk shows only when a commit writes its pages, which a rolled-back probe never does."""


def database_takes_writes() -> bool:
    """Whether the database can take a write now (/healthz): a row written in a transaction that is
    rolled back, and for SQLite room on its disk. A failure is logged, not raised."""
    probe = RateCount.__table__.insert().values(bucket=f"healthz|{secrets.token_hex(8)}", hits=0, expires=0)
    try:
        with db.engine.connect() as connection:
            transaction = connection.begin()
            try:
                connection.execute(probe)
            finally:
                transaction.rollback()
    except SQLAlchemyError:
        current_app.logger.warning("the database cannot take a write", exc_info=True)
        return False
    return _sqlite_has_room()


def _sqlite_has_room() -> bool:
    database = db.engine.url.database
    if db.engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return True
    free = shutil.disk_usage(Path(database).resolve().parent).free
    if free < MIN_FREE_BYTES:
        current_app.logger.warning("the disk of the database has %d bytes free", free)
        return False
    return True


# ---------------------------------------------------------------- edit keys


def hash_key(key: str) -> str:
    """The stored form of an edit key (only the hash is kept)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_matches(game: Game, key: str) -> bool:
    """Whether a presented edit key is the game's, or its group's (constant-time comparison)."""
    hashed = hash_key(key)
    if hmac.compare_digest(hashed, game.edit_key_hash):
        return True
    group = db.session.get(Group, game.group_id) if game.group_id else None
    return group is not None and hmac.compare_digest(hashed, group.edit_key_hash)


def regenerate_key(game: Game) -> str:
    """Replace the game's edit key: the old key stops working at once. Returns the new key."""
    key = secrets.token_urlsafe(24)
    game.edit_key_hash = hash_key(key)
    game.updated_at = utc_now()
    commit()
    return key


# ---------------------------------------------------------------- writing


def clean_name(name: str) -> str:
    """A player's name as stored: trimmed, non-empty, printable, at most 40 characters."""
    # One spelling per name: "Åsa" typed as one character or as A plus a ring is the same player.
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise InvalidInput("every player needs a name")
    if not cleaned.isprintable():
        raise InvalidInput("a player's name cannot hold a line break or another control character")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise InvalidInput(f'the name "{cleaned[:20]}…" is longer than {MAX_NAME_LENGTH} characters')
    return cleaned


def clean_players(players: object, preset: Preset) -> list[str]:
    """Player names in seat order: trimmed, non-empty, unique, at most 40 characters."""
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidInput("players must be a list of names")
    names = [clean_name(name) for name in players]
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise InvalidInput(f'"{name}" is in the list twice; give each player a different name')
        seen.add(name.casefold())
    engine_call(verify_player_count, preset, len(names))
    return names


def seat_of(first_dealer: object, players: Sequence[str]) -> int:
    """The first dealer's seat: a player's name, or a random seat for None."""
    if first_dealer is None:
        return secrets.randbelow(len(players))
    if not isinstance(first_dealer, str):
        raise InvalidInput("first_dealer must be a player's name")
    name = unicodedata.normalize("NFC", first_dealer).strip()
    if name not in players:
        raise InvalidInput(f'the first dealer "{name}" is not one of the players')
    return players.index(name)


def choose_first_dealer(
    preset: Preset, players: list[str], first_dealer: object, method: object = None, scorekeeper: object = None
) -> tuple[int, dict[str, Any]]:
    """The first dealer's seat and how it was chosen (RULES.md 5), by one of the ways the preset offers.

    Without a method, a named first dealer was chosen by the table and no name draws one at random.
    """
    if method is None:
        if scorekeeper is not None:
            raise InvalidInput("scorekeeper goes with the first dealer left of the score keeper")
        return seat_of(first_dealer, players), {"method": "chosen" if first_dealer is not None else "random"}
    if not isinstance(method, str):
        raise InvalidInput('first_dealer_method must be "chosen", "random", "high_card" or "left_of_scorekeeper"')
    way = engine_call(dealing.verify_method, preset, method)
    named = {"first_dealer": first_dealer, "scorekeeper": scorekeeper}
    wanted = {
        dealing.FirstDealerMethod.CHOSEN: "first_dealer",
        dealing.FirstDealerMethod.HIGH_CARD: "first_dealer",
        dealing.FirstDealerMethod.LEFT_OF_SCOREKEEPER: "scorekeeper",
    }.get(way)
    for field, value in named.items():
        if value is not None and field != wanted:
            raise InvalidInput(f'{field} does not go with the first dealer "{way.label.lower()}"')
        if value is not None and not isinstance(value, str):
            raise InvalidInput(f"{field} must be a player's name")
    who = {
        field: unicodedata.normalize("NFC", value).strip() for field, value in named.items() if isinstance(value, str)
    }
    seat = engine_call(
        dealing.first_dealer, preset, way, players, chosen=who.get("first_dealer"), scorekeeper=who.get("scorekeeper")
    )
    record: dict[str, Any] = {"method": way.value}
    if "scorekeeper" in who:
        record["scorekeeper"] = who["scorekeeper"]
    return seat, record


@dataclass(frozen=True)
class DealerWay:
    """A way to pick the first dealer, as the new-game form offers it (engine.dealing)."""

    value: str
    label: str
    how: str


def first_dealer_ways(preset: Preset) -> tuple[DealerWay, ...]:
    """The ways the preset offers, each with what the table does, in words."""
    return tuple(DealerWay(way.value, way.label, way.how_in(preset)) for way in dealing.first_dealer_methods(preset))


def first_dealer_text(game: Game) -> str | None:
    """How the game's first dealer was chosen, in words for its page; None when it was not recorded."""
    record = game.dealing or {}
    try:
        way = dealing.FirstDealerMethod.parse(record.get("method"))
    except EngineError:
        return None
    dealer = game.seating["table"]["first_dealer"] if game.seating else game.players[game.first_dealer]
    if way is dealing.FirstDealerMethod.LEFT_OF_SCOREKEEPER:
        return f"{dealer} dealt first, sitting left of the score keeper, {record.get('scorekeeper')}."
    if way is dealing.FirstDealerMethod.HIGH_CARD:
        return f"{dealer} dealt first, having won the high-card draw (King high, Ace low)."
    if way is dealing.FirstDealerMethod.RANDOM:
        return f"{dealer} dealt first, drawn at random by the companion."
    return f"{dealer} dealt first, chosen by the table."


def store_new_game(
    variant: str,
    options: dict[str, Any],
    players: list[str],
    first_dealer: int,
    money: dict[str, Any] | None,
    dealt_by: dict[str, Any] | None = None,
    group_id: str | None = None,
) -> tuple[Game, str]:
    """Store a new game under a new id; returns it with its secret edit key (only a hash is stored)."""
    key = secrets.token_urlsafe(24)
    game = Game(
        id=secrets.token_urlsafe(12),
        variant=variant,
        options=options,
        players=players,
        first_dealer=first_dealer,
        edit_key_hash=hash_key(key),
        finished=False,
        money=money,
        dealing=dealt_by,
        group_id=group_id,
    )
    db.session.add(game)
    commit()
    return game, key


def check_version(game: Game, expected: object) -> None:
    """Refuse a write made on another version of the game than the stored one (Conflict)."""
    if expected is None:
        return
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidInput("version must be a whole number")
    if expected != game.version:
        raise Conflict("the game changed since you loaded it; reload it and try again")


UNDO_NEEDS_VERSION = "an undo needs the version of the game you saw (?version=N or an If-Match header)"


def require_version(game: Game, expected: object) -> None:
    """Like check_version, but a missing version is refused too (PreconditionRequired): an undo
    without one would take back whatever is last now, perhaps a round another phone just added."""
    if expected is None:
        raise PreconditionRequired(UNDO_NEEDS_VERSION)
    check_version(game, expected)


def delete_game(game: Game, expected_version: object = None) -> None:
    check_version(game, expected_version)
    db.session.delete(game)
    commit()


def forget_reads() -> None:
    """Drop what this request read (after a refused write), so the next read sees what is stored now."""
    db.session.rollback()


def forget_safely() -> None:
    """Roll the session back and let it go, also when the connection is gone (the rollback then
    fails: the database rolls back by itself, and the dead connection is dropped from the pool)."""
    try:
        db.session.rollback()
    except SQLAlchemyError:
        drop_session("rolling back failed")


SAME_MOMENT = "someone else changed this game at the same moment; reload it and try again"


@contextmanager
def one_transaction() -> Iterator[None]:
    """Inside it, `commit` only flushes: the caller builds its answer from the written objects (with
    the version this write made), then commits once with `commit_now` (companion.api.once)."""
    g.one_transaction = True
    try:
        yield
    finally:
        g.one_transaction = False


def commit() -> None:
    """Write the session's changes: a concurrent write (stale version, duplicate round) is a Conflict.
    They are committed now, unless the request commits them itself (see one_transaction)."""
    try:
        db.session.flush()
    except (StaleDataError, IntegrityError) as error:
        forget_safely()
        raise Conflict(SAME_MOMENT) from error
    if not g.get("one_transaction", False):
        commit_now()


def commit_now() -> None:
    """Commit the session. A concurrent write is a Conflict. When the connection broke during the
    commit, nobody knows whether it was saved: that is an Unavailable (503) saying so; when the
    database refused the commit (a full disk, read-only files), nothing was saved, and the error goes on."""
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError) as error:
        forget_safely()
        raise Conflict(SAME_MOMENT) from error
    except SQLAlchemyError as error:
        forget_safely()
        if isinstance(error, DBAPIError) and error.connection_invalidated:
            raise outcome_unknown() from error
        raise
    g.committed = True  # a later error must not say that nothing was changed (companion.errors)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A CSV cell that a spreadsheet will not run as a formula: text starting with = + - @ gets a quote.

    >>> safe_cell("=HYPERLINK(1)"), safe_cell("Ann"), safe_cell(-5)
    ("'=HYPERLINK(1)", 'Ann', -5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
