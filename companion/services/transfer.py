"""Export and import of whole games (issue 7): a CSV of the rounds, and a JSON file that recreates a game.

The JSON export (``FORMAT``, version ``FORMAT_VERSION``) is the model `companion.schemas.GameExport`,
written field by field, so a database migration cannot change it silently (tests/app/test_schemas.py
compares its fields with the columns; a new column means a new format version). It holds:

- ``game``: the game's values, without its id, the hash of its edit key and its version counter
  (an import gets a new id, a new edit key, and starts a new version count);
- ``tables``: the rows of each table that belongs to a game (rounds, round_revisions, game_events,
  disputes) in the order they were stored, without the surrogate primary key and ``game_id``;
  columns that point at another row of the same table (a dispute's lay-off chain) hold that row's
  1-based position;
- ``derived``: read-only extras (the game state with totals, winners and the ledger) that an
  import ignores.

Dates are ISO 8601 strings in UTC, written with Z (an import also reads them without a zone, as
earlier exports wrote them). An import checks everything before it writes: the format, the column
names and types, the variant and options (through the engine), the players, every round
(`engine.scoring.verify_round_scores`, numbers 1..n within the schedule), the history, the Play or
Pay events and pool rummy's deals, rejoins and split (replayed through the engine); then it inserts
the game in one transaction, and checks that the stored game reads back (pages and API) before
committing. Any refusal is an InvalidInput with one sentence, and nothing is stored.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, Integer, Numeric, String

from companion import schemas
from companion.bounds import (
    MAX_IMPORT_CHECKS,
    MAX_IMPORT_EVENTS,
    MAX_IMPORT_REVISIONS,
    REJUDGE_BUDGET_CARDS,
    hand_size_error,
)
from companion.errors import InvalidInput, ServiceError
from companion.extensions import db
from companion.models import Dispute, Game, GameEvent, Round, RoundRevision
from companion.services import contract, disputes, groups, kinds, play_or_pay, pool, pot, rummy, seating
from companion.services.players import MAX_CHANGES as MAX_PLAYER_CHANGES
from companion.services.store import (
    PRESETS,
    choose_first_dealer,
    clean_players,
    commit,
    engine_call,
    hash_key,
    is_whole,
    rules_for,
    safe_cell,
)
from engine import play_or_pay as pop
from engine import seating as seats
from engine.errors import EngineError
from engine.rules import RuleSet, rule_set
from engine.scoring import verify_round_scores

FORMAT = schemas.FORMAT
FORMAT_VERSION = schemas.FORMAT_VERSION
TOP_LEVEL = tuple(schemas.GameExport.model_fields)

MAX_ROWS: dict[str, int] = {
    "rounds": 1000,  # the schedule bounds them further (a game has at most its rounds)
    "round_revisions": MAX_IMPORT_REVISIONS,
    "disputes": MAX_IMPORT_CHECKS,
    "game_events": MAX_IMPORT_EVENTS,
}
"""The most rows of each table an import takes: what a real game can hold (companion.bounds)."""
MAX_IMPORT_BYTES = 16 * 1024 * 1024
"""The largest import body (a limit of its own: the app's MAX_CONTENT_LENGTH is 64 KiB). Sized from
what the app writes: the page's pretty-printed export.json of a game of 8 players with long names
and the most corrections an import takes (MAX_ROWS), every hand's cards kept, stays under it
(tests/app/test_transfer_limits.py)."""
MAX_TEXT = 4000
MAX_JSON_DEPTH = 12
MAX_JSON_INT = 2**53
MAX_INT = 2**31 - 1
EARLIEST = datetime(1970, 1, 1)

SECRET_COLUMNS = frozenset({"edit_key_hash"})
DERIVED_TABLES = frozenset({"sheet_pdfs"})
"""Tables of a game that only keep what its rows produce (rendered sheets): not exported."""
REVISION_ACTIONS = ("corrected", "undone")
DISPUTE_KINDS = ("meld", "declarer", "layoff", "hand")

# Columns (and keys of JSON columns) holding the surrogate id of another row of the same table.
ROW_REFERENCES: dict[str, tuple[str, ...]] = {"disputes": ("chain_id",)}
JSON_ROW_REFERENCES: dict[str, tuple[tuple[str, str], ...]] = {"disputes": (("result", "chain"),)}

Invalid = InvalidInput


# ================================================================ the format, field by field (companion.schemas)

TABLE_MODELS: dict[str, type[Any]] = {
    "disputes": Dispute,
    "game_events": GameEvent,
    "round_revisions": RoundRevision,
    "rounds": Round,
}
"""The stored model of each exported table (the export's row models are schemas.EXPORTED_TABLES)."""


@dataclass(frozen=True)
class Field:
    """One exported field and the column that stores it; an import must give the required ones."""

    key: str
    column: Column[Any]
    required: bool


@dataclass(frozen=True)
class TableSpec:
    """A table that belongs to a game: its stored model, its export model, the exported fields."""

    name: str
    model: type[Any]
    row: type[schemas.Row]
    fields: tuple[Field, ...]

    def field(self, key: str) -> Field | None:
        return next((field for field in self.fields if field.key == key), None)


def _fields(model: type[Any], row: type[schemas.Row]) -> tuple[Field, ...]:
    columns = model.__table__.columns
    return tuple(Field(key, columns[key], info.is_required()) for key, info in row.model_fields.items())


@cache
def game_fields() -> tuple[Field, ...]:
    """The exported fields of the game, as schemas.ExportedGame lists them."""
    return _fields(Game, schemas.ExportedGame)


@cache
def child_tables() -> tuple[TableSpec, ...]:
    """The exported tables that belong to a game, by table name, as schemas.ExportedTables lists them."""
    return tuple(
        TableSpec(name, TABLE_MODELS[name], row, _fields(TABLE_MODELS[name], row))
        for name, row in schemas.EXPORTED_TABLES.items()
    )


# ================================================================ export


def _rows(spec: TableSpec, game: Game) -> list[Any]:
    query = db.select(spec.model).filter_by(game_id=game.id).order_by(spec.model.id)
    return list(db.session.scalars(query))


def _export_rows(spec: TableSpec, rows: Sequence[Any]) -> list[schemas.Row]:
    """The rows as the export model; references to rows of the same table become 1-based positions."""
    positions = {row.id: index for index, row in enumerate(rows, start=1)}
    exported = []
    for row in rows:
        item = spec.row.model_validate(row, from_attributes=True)
        for key in ROW_REFERENCES.get(spec.name, ()):
            if getattr(item, key) is not None:
                setattr(item, key, positions.get(getattr(item, key)))
        for column, key in JSON_ROW_REFERENCES.get(spec.name, ()):
            value = getattr(item, column)  # a copy: the stored row keeps its id
            if isinstance(value, dict) and key in value:
                value[key] = positions.get(value[key])
        exported.append(item)
    return exported


def derived(game: Game) -> dict[str, Any]:
    """The read-only extras of an export: the game state without its id and version, totals, ledger."""
    state = kinds.state_json(game)
    state.pop("id", None)
    state.pop("version", None)
    if state.get("group") is None:  # a loose game's export stays as it was before groups
        state.pop("group", None)
    if pool.is_pool(game):
        return {
            "note": "Computed from the rows above; an import ignores this part.",
            "totals": state["totals"],
            "winners": [state["winner"]] if state["winner"] is not None else [],
            "ledger": {key: state[key] for key in ("pot", "paid", "split", "nets")},
            "state": state,
        }
    in_hands = not kinds.of(game).in_rounds
    return {
        "note": "Computed from the rows above; an import ignores this part.",
        "totals": state.get("chips") if in_hands else state.get("totals"),
        "winners": state.get("winners", []),
        "ledger": state.get("ledger") if in_hands else state.get("pot"),
        "state": state,
    }


def export_game(game: Game) -> dict[str, Any]:
    """The whole game as JSON data: schemas.GameExport (see the module's docstring)."""
    document = schemas.GameExport(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        game=schemas.ExportedGame.model_validate(game, from_attributes=True),
        tables=schemas.ExportedTables.model_validate(
            {spec.name: _export_rows(spec, _rows(spec, game)) for spec in child_tables()}
        ),
        derived=derived(game),
    )
    return document.model_dump(mode="json")


def export_filename(game: Game, extension: str) -> str:
    """A download's name: the variant and the game's date, such as pay-me-2026-11-21.csv."""
    return f"{game.variant}-{game.created_at.date().isoformat()}.{extension}"


# ---------------------------------------------------------------- CSV


def _csv(header: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    for row in [header, *rows]:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()


def export_csv(game: Game) -> str:
    """One row per round: the round's facts, then each player's score, points and total so far (and,
    in a game with buys, their buys in that deal).

    A Play or Pay game has a row per settled hand: dealer, winner, each player's chips won or paid
    and their balance after the hand.
    """
    if pool.is_pool(game):
        return _pool_csv(game)
    if not kinds.of(game).in_rounds:
        return _play_or_pay_csv(game)
    view = rummy.build_view(game)
    players = list(view.players)
    with_buys = view.buys is not None  # Contract Rummy with buying: each player's buys in the deal
    header: list[object] = ["round", "cards", "wild", "multiplier", "dealer", "went_out"]
    for name in players:
        header += [f"{name} score", f"{name} points", f"{name} total"] + ([f"{name} buys"] if with_buys else [])
    starts = seating.start_points(game)
    running = {name: starts.get(name, 0) for name in players}  # a late player starts from the table's choice
    rows = []
    for played in view.rounds:
        row: list[object] = [
            played.plan.number,
            played.plan.cards,
            " ".join(played.plan.wild_tokens),
            played.plan.multiplier,
            played.plan.dealer,
            played.went_out,
        ]
        for name in players:
            if name not in played.points:  # not at the table that round
                row += ["", "", running[name]] + ([""] if with_buys else [])
                continue
            running[name] += played.points[name]
            row += [played.scores[name], played.points[name], running[name]]
            if with_buys:
                row.append((played.buys or {}).get(name, 0))
        rows.append(row)
    return _csv(header, rows)


def _pool_csv(game: Game) -> str:
    """Pool rummy: a row per deal (its dealer, the cut, each player's result, points and total after it,
    who it put out and who bought back in); once the game is over, a row of each player's net in cents."""
    played = pool.replay(game)
    players = list(played.players)
    header: list[object] = ["deal", "dealer", "cut", "put_out", "rejoined"]
    for name in players:
        header += [f"{name} result", f"{name} points", f"{name} total"]
    rows: list[list[object]] = []
    for deal in played.deals:
        row: list[object] = [deal.number, deal.dealer, deal.cut or deal.wild or "", " ".join(deal.put_out)]
        row.append(" ".join(deal.rejoined))
        for name in players:
            row += [deal.results.get(name, ""), deal.points.get(name, ""), deal.totals[name]]
        rows.append(row)
    nets = played.standings.nets
    if nets is not None:
        rows.append(["net (cents)", "", "", "", "", *[cell for net in nets for cell in (net, "", "")]])
    return _csv(header, rows)


def _play_or_pay_csv(game: Game) -> str:
    state = kinds.state_json(game)
    players = [*state["players"], *state.get("left", [])]
    header: list[object] = ["hand", "dealer", "went_out", "quick"]
    for name in players:
        header += [f"{name} chips", f"{name} balance"]
    rows = []
    for hand, balance in zip(state["hands"], play_or_pay.balances_after_hands(game), strict=True):
        row: list[object] = [hand["number"], hand["dealer"], hand["winner"] or "", "yes" if hand["quick"] else "no"]
        for name in players:
            if name not in hand["payments"]:  # not at the table for that hand
                row += ["", balance[name] if name not in state["players"] else ""]
                continue
            row += [hand["payments"][name], balance[name]]
        rows.append(row)
    for result in play_or_pay.final_results(game) or []:  # the table ended the game: result, then chips held
        if not rows or rows[-1][0] != "result":
            rows.append(["result", "", "", ""])
        rows[-1] += [result.result, result.held]
    return _csv(header, rows)


# ================================================================ import: reading the body


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise Invalid(f'the key "{key[:40]}" appears twice in one object')
        result[key] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise Invalid(f"{name} is not a number that a game can hold")


def parse_document(raw: bytes) -> Any:
    """The JSON of an import body: well-formed UTF-8 JSON, no duplicate keys, no NaN or Infinity."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise Invalid(f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MiB")
    try:
        return json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)
    except RecursionError as error:
        raise Invalid("the file is nested too deeply to be a game export") from error
    except UnicodeDecodeError as error:
        raise Invalid("the file is not UTF-8 text") from error
    except ServiceError:
        raise
    except ValueError as error:  # malformed JSON, or a number with thousands of digits
        raise Invalid("the file is not well-formed JSON") from error


# ================================================================ import: checking values against columns


def _check_json(where: str, value: Any, depth: int = 0) -> None:
    if depth > MAX_JSON_DEPTH:
        raise Invalid(f"{where} is nested too deeply")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            raise Invalid(f"{where} holds a number too large for a game")
        return
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_JSON_INT:
            raise Invalid(f"{where} holds a number too large for a game")
        return
    if isinstance(value, str):
        _check_text(where, value, MAX_TEXT)
        return
    if isinstance(value, list):
        for item in value:
            _check_json(where, item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _check_text(where, key, MAX_TEXT)
            _check_json(where, item, depth + 1)
        return
    raise Invalid(f"{where} is not JSON data")


def _check_text(where: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise Invalid(f"{where} is longer than {limit} characters")
    if "\x00" in value:
        raise Invalid(f"{where} holds a NUL character")


def _datetime(where: str, value: object) -> datetime:
    if not isinstance(value, str) or len(value) > 40:
        raise Invalid(f"{where} must be a date and time in ISO 8601, such as 2026-11-21T09:30:00")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as error:
        raise Invalid(f"{where} must be a date and time in ISO 8601, such as 2026-11-21T09:30:00") from error
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    if moment < EARLIEST:
        raise Invalid(f"{where} is before 1970")
    return moment


def column_value(where: str, column: Column[Any], value: object) -> Any:
    """A value from the file checked against its column's type, nullability and length."""
    if value is None:
        if column.nullable:
            return None
        raise Invalid(f"{where} cannot be empty")
    kind = column.type
    if isinstance(kind, Boolean):
        if not isinstance(value, bool):
            raise Invalid(f"{where} must be true or false")
        return value
    if isinstance(kind, Integer):
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"{where} must be a whole number")
        if abs(value) > MAX_INT:
            raise Invalid(f"{where} is too large")
        return value
    if isinstance(kind, Float | Numeric):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise Invalid(f"{where} must be a number")
        if abs(value) > MAX_JSON_INT:
            raise Invalid(f"{where} is too large")
        return value
    if isinstance(kind, String):
        if not isinstance(value, str):
            raise Invalid(f"{where} must be text")
        _check_text(where, value, kind.length or MAX_TEXT)
        return value
    if isinstance(kind, DateTime):
        return _datetime(where, value)
    if isinstance(kind, JSON):
        _check_json(where, value)
        return copy.deepcopy(value)
    raise Invalid(f"{where} has a type this app cannot import")


def _row(where: str, data: object, fields: Sequence[Field]) -> dict[str, Any]:
    """A row of the file: an object with known columns only, each of the right type."""
    if not isinstance(data, dict):
        raise Invalid(f"{where} must be an object")
    known = {field.key: field for field in fields}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise Invalid(f'{where} has an unknown column "{unknown[0][:40]}"')
    values = {}
    for key, field in known.items():
        if key not in data:
            if field.required:
                raise Invalid(f'{where} has no "{key}"')
            continue
        values[key] = column_value(f'{where}: "{key}"', field.column, data[key])
    return values


# ================================================================ import: the game's own checks


@dataclass
class Plan:
    """A checked import, ready to insert."""

    game: dict[str, Any]
    players: list[str]
    rules_rounds: int
    tables: dict[str, list[dict[str, Any]]]


def _settings(values: dict[str, Any]) -> tuple[dict[str, Any], list[str], int]:
    """The game's variant, options, money and players, checked by the engine and the services."""
    variant = values.get("variant")
    if not isinstance(variant, str) or variant not in PRESETS:
        raise Invalid("the game's variant is not a preset this app knows")
    players = values.get("players")
    options = values.get("options")
    stored_money = values.get("money")
    if not isinstance(options, dict):
        raise Invalid('the game\'s "options" must be an object')
    if kinds.of_variant(variant) is kinds.KNOCKOUT:
        names = _pool_settings(values, variant, options, stored_money)
        rounds = 0
    elif not kinds.of_variant(variant).in_rounds:
        if options:
            raise Invalid("a Play or Pay game keeps its chips in money, not in options")
        if not isinstance(stored_money, dict) or set(stored_money) != {"chips"}:
            raise Invalid('a Play or Pay game needs money like {"chips": 20}')
        chips = stored_money["chips"]
        if not is_whole(chips) or not 1 <= chips <= play_or_pay.MAX_CHIPS:
            raise Invalid(f"a Play or Pay game starts with 1 to {play_or_pay.MAX_CHIPS} chips each")
        names = clean_players(players, PRESETS[variant])
        try:
            pop.verify_players(names)
        except EngineError as error:
            raise Invalid(str(error)) from error
        rounds = 0
    else:
        rules = rules_for(variant, options)
        names = clean_players(players, rules.preset)
        values["options"] = rules.options_json()
        if stored_money is not None:
            if not isinstance(stored_money, dict) or not set(stored_money) <= set(pot.POT_KEYS):
                raise Invalid("the game's \"money\" must be null or the pot's settings")
            values["money"] = pot.pot_options(variant, stored_money)
        rounds = rules.rounds
    if names != players:
        raise Invalid("player names must be trimmed and unique, as the app stores them")
    first = values.get("first_dealer")
    if not is_whole(first) or not 0 <= first < len(names):  # type: ignore[operator]
        raise Invalid("first_dealer must be the seat (0 for the first player) of the player who dealt round 1")
    _check_dealing(values.get("dealing"), variant, names, int(first))  # type: ignore[arg-type]
    return values, names, rounds


def _pool_settings(values: dict[str, Any], variant: str, options: dict[str, Any], money: object) -> list[str]:
    """Pool rummy: its house options (through the engine), its buy-in (cents, kept in money) and players."""
    if pool.BUY_IN_KEY in options:
        raise Invalid("a pool rummy game keeps its buy-in in money, not in options")
    if not isinstance(money, dict) or set(money) != {pool.BUY_IN_KEY}:
        raise Invalid('a pool rummy game needs money like {"buy_in": 500} (cents)')
    pool.verify_buy_in(money[pool.BUY_IN_KEY])
    rules: RuleSet = engine_call(rule_set, variant, dict(options))
    values["options"] = rules.options_json()
    return clean_players(values.get("players"), rules.preset)


def _check_dealing(record: object, variant: str, players: list[str], first: int) -> None:
    """How the first dealer was chosen, if recorded: a way the preset offers, and for 3-13's way the score
    keeper, whose left-hand neighbour must be the first dealer."""
    if record is None:
        return
    if not isinstance(record, dict) or not set(record) <= {"method", "scorekeeper"}:
        raise Invalid('the game\'s "dealing" must be null or an object like {"method": "high_card"}')
    try:
        seat, stored = choose_first_dealer(
            PRESETS[variant],
            players,
            players[first] if record.get("method") not in ("random", "left_of_scorekeeper") else None,
            record.get("method"),
            record.get("scorekeeper"),
        )
    except ServiceError as error:
        raise Invalid(f"the game's dealing record: {error.message}") from error
    if stored != record or (record.get("method") == "left_of_scorekeeper" and seat != first):
        raise Invalid("the game's dealing record does not match its first dealer")


def _scores(where: str, players: list[str], went_out: object, scores: object) -> dict[str, int]:
    if not isinstance(went_out, str):
        raise Invalid(f"{where}: went_out must be a player's name")
    if not isinstance(scores, dict) or not all(is_whole(points) for points in scores.values()):
        raise Invalid(f"{where}: scores must be whole numbers of card points by player name")
    try:
        checked: dict[str, int] = verify_round_scores(players, went_out, scores)
    except EngineError as error:
        raise Invalid(f"{where}: {error}") from error
    return checked


def _hands(where: str, players: list[str], hands: object) -> dict[str, str] | None:
    if hands is None:
        return None
    if not isinstance(hands, dict):
        raise Invalid(f"{where}: hands must be an object of cards by player name")
    kept = {}
    for name, text in hands.items():
        if name not in players or not isinstance(text, str):
            raise Invalid(f"{where}: hands must be an object of cards by player name")
        error = hand_size_error(text.replace("|", " ").split())
        if error:
            raise Invalid(f"{where}: {error}")
        try:
            canonical = disputes.canonical_kept_hand(text)
        except ServiceError as problem:
            raise Invalid(f"{where}: {problem.message}") from problem
        if canonical != text:
            raise Invalid(f'{where}: the cards of {name} are not written as the app writes them ("{canonical}")')
        kept[name] = text
    return kept


def _pickups(where: str, shadow: Any, value: object) -> dict[str, int] | None:
    if value is None:
        return None
    try:
        counts = pot.verify_second_discards(shadow, value)
    except ServiceError as error:
        raise Invalid(f"{where}: {error.message}") from error
    return counts


def _check_round_like(where: str, row: dict[str, Any], plan_players: list[str], shadow: Any) -> None:
    row["scores"] = _scores(where, plan_players, row.get("went_out"), row.get("scores"))
    if "hands" in row:
        row["hands"] = _hands(where, plan_players, row["hands"])
    if "second_discards" in row:
        row["second_discards"] = _pickups(where, shadow, row["second_discards"])


def _round_players(players: list[str], table: seats.Table | None, number: object) -> list[str]:
    """The players of a round: all of them, or those the seating has at the table for it."""
    if table is None or not is_whole(number):
        return players
    return list(seats.seated(table, int(number)))  # type: ignore[call-overload]


def _check_rounds(
    rows: list[dict[str, Any]], players: list[str], total: int, shadow: Any, table: seats.Table | None = None
) -> None:
    if rows and total == 0:
        raise Invalid(f"a {PRESETS[shadow.variant].name} game has {_units(shadow)}, not rounds")
    if len(rows) > total:
        raise Invalid(f"the file has {len(rows)} rounds, but this game has only {total}")
    for index, row in enumerate(rows, start=1):
        if row.get("number") != index:
            raise Invalid(f"round numbers must run 1, 2, 3… in order; round {index} is numbered {row.get('number')}")
        _check_round_like(f"round {index}", row, _round_players(players, table, index), shadow)


def _units(shadow: Any) -> str:
    return "deals, rejoins and a split (events)" if pool.is_pool(shadow) else "hands (events)"


def _check_revisions(
    rows: list[dict[str, Any]], players: list[str], total: int, shadow: Any, table: seats.Table | None = None
) -> None:
    if rows and total == 0:
        raise Invalid(f"a {PRESETS[shadow.variant].name} game has no round history")
    for index, row in enumerate(rows, start=1):
        where = f"history entry {index}"
        number = row.get("number")
        if not is_whole(number) or not 1 <= number <= total:  # type: ignore[operator]
            raise Invalid(f"{where}: round {number} is not a round of this game")
        if row.get("action") not in REVISION_ACTIONS:
            raise Invalid(f'{where}: the action must be "corrected" or "undone"')
        _check_round_like(where, row, _round_players(players, table, number), shadow)


def _check_events(rows: list[dict[str, Any]], shadow: Any) -> None:
    if pool.is_pool(shadow):
        _check_pool_events(rows, shadow)
        return
    if not play_or_pay.is_play_or_pay(shadow):
        if rows:
            raise Invalid(play_or_pay.EVENTS_REFUSED)
        return
    if any(row.get("kind") in play_or_pay.SEAT_KINDS for row in rows):
        _check_events_with_seats(rows, shadow)
        return
    for index, row in enumerate(rows, start=1):
        where = f"event {index}"
        if row.get("number") != index:
            raise Invalid(f"event numbers must run 1, 2, 3… in order; event {index} is numbered {row.get('number')}")
        data = row.get("data")
        if not isinstance(data, dict) or "type" in data or "version" in data:
            raise Invalid(f"{where}: data must be the event's fields")
        try:
            kind, parsed = play_or_pay.parse_event(shadow, {"type": row.get("kind"), **data})
        except ServiceError as error:
            raise Invalid(f"{where}: {error.message}") from error
        if parsed != data:
            raise Invalid(f"{where}: the event is not written as the app writes it")
        row["kind"] = kind
    shadow.events = [_Shadow(kind=row["kind"], data=row["data"]) for row in rows]
    try:
        play_or_pay.table(shadow)
    except ServiceError as error:
        raise Invalid(f"the events cannot be replayed: {error.message}") from error


def _check_pool_events(rows: list[dict[str, Any]], shadow: Any) -> None:
    """Pool rummy's deals, rejoins and end: at most pool.MAX_EVENTS, each written as the app writes it,
    and the whole list replayed through the engine (a step the rules refuse is named with its sentence)."""
    if len(rows) > pool.MAX_EVENTS:
        raise Invalid(f"a pool rummy game holds at most {pool.MAX_EVENTS} deals, rejoins and splits")
    for index, row in enumerate(rows, start=1):
        if row.get("number") != index:
            raise Invalid(f"event numbers must run 1, 2, 3… in order; event {index} is numbered {row.get('number')}")
        try:
            written = pool.canonical_event(shadow, row.get("kind"), row.get("data"))
        except ServiceError as error:
            raise Invalid(f"event {index}: {error.message}") from error
        if written != row.get("data"):
            raise Invalid(f"event {index}: the event is not written as the app writes it")
    shadow.events = [_Shadow(kind=row["kind"], data=row["data"]) for row in rows]
    try:
        pool.verify_replay(shadow)
    except ServiceError as error:
        raise Invalid(error.message) from error


def _check_events_with_seats(rows: list[dict[str, Any]], shadow: Any) -> None:
    """Events of a table whose players changed (issue 27): each is read with the players at the table
    when it happened, so the whole list is replayed, then each event compared with how the app writes it."""
    for index, row in enumerate(rows, start=1):
        if row.get("number") != index:
            raise Invalid(f"event numbers must run 1, 2, 3… in order; event {index} is numbered {row.get('number')}")
        data = row.get("data")
        if not isinstance(data, dict) or "type" in data or "version" in data:
            raise Invalid(f"event {index}: data must be the event's fields")
        if row.get("kind") not in play_or_pay.STORED_KINDS:
            raise Invalid(f'event {index}: "{str(row.get("kind"))[:20]}" is not a kind of event the app stores')
    shadow.events = [_Shadow(kind=row["kind"], data=row["data"]) for row in rows]
    try:
        now = play_or_pay.table(shadow)
    except ServiceError as error:
        raise Invalid(f"the events cannot be replayed: {error.message}") from error
    for index, (row, event) in enumerate(zip(rows, now.state.events, strict=True), start=1):
        if {"type": row["kind"], **row["data"]} != event.to_json():
            raise Invalid(f"event {index}: the event is not written as the app writes it")
    if list(now.players) != shadow.players:
        raise Invalid("the game's players must be those at the table after its events")


def _check_ended(finished: object, shadow: Any) -> None:
    """A Play or Pay game the table ended (D17) ends between hands, as the app ends it."""
    if finished and not play_or_pay.table(shadow).between_hands:
        raise Invalid("the game is marked ended while a hand is being played")


def _check_pool_finished(finished: object, shadow: Any) -> None:
    """A pool game is finished exactly when one player is left or the pot was split."""
    if finished != pool.replay(shadow).finished:
        raise Invalid("the game is marked finished when its deals do not end it, or the other way round")


def _check_disputes(rows: list[dict[str, Any]], players: list[str], total: int) -> None:
    for index, row in enumerate(rows, start=1):
        where = f"check {index} of the dispute log"
        number = row.get("round_number")
        if not is_whole(number) or not 1 <= number <= max(total, 1):  # type: ignore[operator]
            raise Invalid(f"{where}: round {number} is not a round of this game")
        if row.get("kind") not in DISPUTE_KINDS:
            raise Invalid(f"{where}: the kind must be one of {', '.join(DISPUTE_KINDS)}")
        player = row.get("player")
        if player is not None and player not in players:
            raise Invalid(f"{where}: {player!r} is not a player in this game")
        cards = row.get("cards")
        if not isinstance(cards, list) or not all(isinstance(text, str) for text in cards):
            raise Invalid(f"{where}: cards must be a list of cards as text")
        result = row.get("result")
        if result is not None and not isinstance(result, dict):
            raise Invalid(f"{where}: result must be an object")


def rejudge_cost(rows: Sequence[dict[str, Any]]) -> int:
    """The engine's work to judge the checks again, in cards (each check counts at least one)."""
    return sum(max(len(" ".join(_texts(row.get("cards"))).replace("|", " ").split()), 1) for row in rows)


def _texts(cards: object) -> list[str]:
    return [text for text in cards if isinstance(text, str)] if isinstance(cards, list) else []


def _check_rejudge_budget(rows: Sequence[dict[str, Any]]) -> None:
    cost = rejudge_cost(rows)
    if cost > REJUDGE_BUDGET_CARDS:
        raise Invalid(
            f"the dispute log holds {cost} cards to check again, more than the {REJUDGE_BUDGET_CARDS} an import may"
        )


def _check_references(name: str, rows: list[dict[str, Any]]) -> None:
    """Positions of earlier rows of the same table (a lay-off's chain start)."""
    for index, row in enumerate(rows, start=1):
        targets = [row.get(key) for key in ROW_REFERENCES.get(name, ())]
        targets += [
            row[column].get(key)
            for column, key in JSON_ROW_REFERENCES.get(name, ())
            if isinstance(row.get(column), dict)
        ]
        for target in targets:
            if target is not None and (not is_whole(target) or not 1 <= target < index):
                raise Invalid(f"row {index} of {name} points at row {target}, which is not an earlier row")


def _check_contract_rummy(values: dict[str, Any], tables: dict[str, list[dict[str, Any]]], players: list[str]) -> None:
    """Contract Rummy's buys (of the deal being played and of each round) and exact cuts."""
    if not kinds.of_variant(values["variant"]).in_rounds:
        if values.get("buys") is not None:
            raise Invalid("only Contract Rummy keeps buys")
        return
    rules = rules_for(values["variant"], values["options"])
    try:
        values["buys"] = contract.checked_buys(rules, players, values.get("buys"))
    except ServiceError as error:
        raise Invalid(f"the game: {error.message}") from error
    for name, where in (("rounds", "round"), ("round_revisions", "history entry")):
        for index, row in enumerate(tables.get(name, []), start=1):
            try:
                if "buys" in row:
                    row["buys"] = contract.checked_buys(rules, players, row["buys"])
                if row.get("exact_cut") is not None:
                    row["exact_cut"] = contract.checked_cutter(rules, players, row["exact_cut"])
            except ServiceError as error:
                raise Invalid(f"{where} {index}: {error.message}") from error


CHANGE_KINDS = ("rename", "add", "remove")


def _check_seating(values: dict[str, Any], players: list[str], played: int, total: int) -> seats.Table | None:
    """The players who joined, left or were renamed (issue 27), if any: a table the engine reads, whose
    names are stored as the app stores them, with the game's players at the table for the next round."""
    record = values.get("seating")
    if record is None:
        return None
    if kinds.of_variant(values["variant"]) is kinds.KNOCKOUT:
        _check_pool_seating(record)
        return None
    if total == 0:
        _check_hands_seating(values, record)
        return None
    if not isinstance(record, dict) or set(record) != {"table", "changes"} or not isinstance(record["changes"], list):
        raise Invalid('the game\'s "seating" must be null or an object with "table" and "changes"')
    changes = record["changes"]
    if len(changes) > MAX_PLAYER_CHANGES or not all(
        isinstance(item, dict) and item.get("kind") in CHANGE_KINDS and is_whole(item.get("round")) for item in changes
    ):
        raise Invalid(f"the seating's changes must be up to {MAX_PLAYER_CHANGES} objects, each with a kind and a round")
    try:
        table = seats.Table.from_json(record["table"])
    except (KeyError, TypeError, ValueError) as error:
        raise Invalid('the seating\'s table must list seats like {"name": "Ann", "joined": 1}') from error
    names = list(seats.everyone(table))
    if clean_players(names, PRESETS[values["variant"]]) != names and names:
        raise Invalid("the seating's names must be trimmed and unique, as the app stores them")
    for seat in table.seats:
        if (
            seat.joined < 1
            or (seat.left is not None and seat.left <= seat.joined)
            or not seat.start == seats.verify_start(seat.start)
        ):
            raise Invalid(f"the seat of {seat.name} must join at round 1 or later and leave after joining")
    if table.first_dealer not in names:
        raise Invalid("the seating's first dealer must be one of its players")
    if list(seats.seated(table, played + 1)) != players:
        raise Invalid("the game's players must be those the seating has at the table for the next round")
    return table


def _check_pool_seating(record: object) -> None:
    """Pool rummy keeps its players: its seating holds only the renames made, in the app's form."""
    if not isinstance(record, dict) or set(record) != {"changes"} or not isinstance(record["changes"], list):
        raise Invalid('a pool rummy game\'s "seating" must be null or an object with "changes"')
    changes = record["changes"]
    if len(changes) > MAX_PLAYER_CHANGES or not all(
        isinstance(item, dict)
        and item.get("kind") == "rename"
        and isinstance(item.get("from"), str)
        and isinstance(item.get("to"), str)
        and is_whole(item.get("round"))
        for item in changes
    ):
        raise Invalid(f"a pool rummy game's changes of players must be up to {MAX_PLAYER_CHANGES} renames")


def _check_hands_seating(values: dict[str, Any], record: object) -> None:
    """Play or Pay: the players the game started with (its events are replayed from them) and the
    list of changes; the replay checks that the game's players are those at the table now."""
    if (
        not isinstance(record, dict)
        or set(record) - {"founders", "changes"}
        or not isinstance(record.get("changes", []), list)
    ):
        raise Invalid('a Play or Pay game\'s "seating" must be an object with "founders" and "changes"')
    changes = record.get("changes", [])
    if len(changes) > MAX_PLAYER_CHANGES or not all(
        isinstance(item, dict) and item.get("kind") in CHANGE_KINDS and is_whole(item.get("round")) for item in changes
    ):
        raise Invalid(f"the seating's changes must be up to {MAX_PLAYER_CHANGES} objects, each with a kind and a round")
    founders = record.get("founders")
    if founders is not None:
        names = clean_players(founders, PRESETS[values["variant"]])
        if names != founders:
            raise Invalid("the seating's founders must be trimmed and unique, as the app stores them")
        first = values.get("first_dealer")
        if not is_whole(first) or not 0 <= first < len(names):  # type: ignore[operator]
            raise Invalid("first_dealer must be the seat of the player who dealt the first hand")


@dataclass
class _Shadow:
    """A stand-in with a game's attributes, for the money checks before anything is stored."""

    variant: str = ""
    options: dict[str, Any] | None = None
    players: list[str] | None = None
    money: dict[str, Any] | None = None
    first_dealer: int = 0
    events: list[Any] | None = None
    kind: str = ""
    data: dict[str, Any] | None = None
    id: str = "import"
    seating: dict[str, Any] | None = None
    version: int = 0
    created_at: datetime = EARLIEST
    finished: bool = False


def check_document(document: object) -> Plan:
    """Everything an import needs, checked; InvalidInput (one sentence) on the first problem."""
    if not isinstance(document, dict):
        raise Invalid("the file must hold a JSON object, as the export writes it")
    unknown = sorted(set(document) - set(TOP_LEVEL))
    if unknown:
        raise Invalid(f'the file has an unknown part "{unknown[0][:40]}"')
    if document.get("format") != FORMAT:
        raise Invalid(f'this is not a game export of this app (its "format" must be "{FORMAT}")')
    version = document.get("format_version")
    if not is_whole(version) or version != FORMAT_VERSION:
        raise Invalid(f"this app reads format version {FORMAT_VERSION} of its exports, not {str(version)[:20]}")
    values, players, total = _settings(_row("the game", document.get("game"), game_fields()))
    shadow = _Shadow(
        variant=values["variant"],
        options=values.get("options"),
        players=players,
        money=values.get("money"),
        first_dealer=values["first_dealer"],
        seating=values.get("seating"),
    )
    tables_given = document.get("tables", {})
    if not isinstance(tables_given, dict):
        raise Invalid('the file\'s "tables" must be an object of rows by table name')
    specs = {spec.name: spec for spec in child_tables()}
    unknown = sorted(set(tables_given) - set(specs))
    if unknown:
        raise Invalid(f'the file has an unknown table "{unknown[0][:40]}"')
    tables: dict[str, list[dict[str, Any]]] = {}
    for name, spec in specs.items():
        rows = tables_given.get(name, [])
        if not isinstance(rows, list):
            raise Invalid(f'the table "{name}" must be a list of rows')
        if len(rows) > MAX_ROWS[name]:
            raise Invalid(f'the table "{name}" has more than {MAX_ROWS[name]} rows, more than a game can hold')
        tables[name] = [_row(f"row {index} of {name}", row, spec.fields) for index, row in enumerate(rows, start=1)]
        _check_references(name, tables[name])
    table = _check_seating(values, players, len(tables.get("rounds", [])), total)
    everyone = list(seats.everyone(table)) if table is not None else players
    _check_rounds(tables.get("rounds", []), players, total, shadow, table)
    _check_revisions(tables.get("round_revisions", []), players, total, shadow, table)
    _check_contract_rummy(values, tables, everyone)
    _check_events(tables.get("game_events", []), shadow)
    checked_deals = total  # a pool game's checks name its deals: those played, and the one being played
    if pool.is_pool(shadow):
        checked_deals = 1 + sum(1 for row in tables.get("game_events", []) if row.get("kind") == "deal")
    _check_disputes(tables.get("disputes", []), everyone, checked_deals)
    _check_rejudge_budget(tables.get("disputes", []))
    finished = values.get("finished", False)
    if play_or_pay.is_play_or_pay(shadow):
        _check_ended(finished, shadow)
    elif pool.is_pool(shadow):
        _check_pool_finished(finished, shadow)
    elif finished != (total > 0 and len(tables.get("rounds", [])) >= total):
        raise Invalid("the game is marked finished when not every round is scored, or the other way round")
    return Plan(values, players, total, tables)


# ================================================================ import: storing


def _store(plan: Plan) -> tuple[Game, str]:
    edit_key = secrets.token_urlsafe(24)
    values = {name: value for name, value in plan.game.items() if name != "group_id"}  # see import_game
    game = Game(id=secrets.token_urlsafe(12), edit_key_hash=hash_key(edit_key), **values)
    db.session.add(game)
    db.session.flush()
    for spec in child_tables():
        rows = plan.tables.get(spec.name, [])
        if spec.name == "disputes":
            _rejudge_disputes(game, rows)
            continue
        references = ROW_REFERENCES.get(spec.name, ())
        json_references = JSON_ROW_REFERENCES.get(spec.name, ())
        stored = []
        for row in rows:
            values = {name: value for name, value in row.items() if name not in references}
            for column, ref in json_references:
                if isinstance(values.get(column), dict):
                    values[column] = {k: v for k, v in values[column].items() if k != ref}
            item = spec.model(game_id=game.id, **values)
            db.session.add(item)
            stored.append(item)
        db.session.flush()
        ids = [item.id for item in stored]
        for item, row in zip(stored, rows, strict=True):
            for name in references:
                if row.get(name) is not None:
                    setattr(item, name, ids[row[name] - 1])
            for column, ref in json_references:
                if isinstance(row.get(column), dict):
                    updated = dict(row[column])
                    if updated.get(ref) is not None:
                        updated[ref] = ids[updated[ref] - 1]
                    setattr(item, column, updated)
        db.session.flush()
    return game, edit_key


def _rejudge_disputes(game: Game, rows: list[dict[str, Any]]) -> None:
    """The dispute log: each check made again by the engine, in order, keeping its verdict (a file's
    "valid" or "reason" is never trusted); the time each check was made is the file's."""
    stored: list[Dispute] = []
    for index, row in enumerate(rows, start=1):
        try:
            entry = disputes.rejudge(game, row)
        except ServiceError as error:
            raise Invalid(f"check {index} of the dispute log: {error.message}") from error
        if row.get("created_at") is not None:
            entry.created_at = row["created_at"]
        chain = row.get("chain_id")
        if chain is not None:
            entry.chain_id = stored[chain - 1].id
        stored.append(entry)
    db.session.flush()


def _reads_back(game: Game) -> None:
    """The stored game opens as a page and as API state (the dispute log too); raises when it does not."""
    db.session.expire(game)
    kinds.state_json(game)
    if kinds.of(game).in_rounds and any(spec.name == "disputes" for spec in child_tables()):
        log = disputes.game_log(game.id)
        for entry in log:
            for name in ("groups", "melds", "discard", "best", "title"):
                getattr(entry, name, None)
        for number in sorted({entry.round for entry in log}):
            disputes.current_chain(game, number)


READ_BACK_ERRORS = (ServiceError, EngineError, KeyError, TypeError, ValueError, IndexError, AttributeError)


def import_game(document: object, group_key: str | None = None) -> tuple[Game, str]:
    """Recreate an exported game under a new id and a new edit key; nothing is stored on any error.

    The game stays in its group only when `group_key` is that group's key."""
    plan = check_document(document)
    try:
        game, key = _store(plan)
        _reads_back(game)
        groups.adopt(game, plan.game.get("group_id"), group_key)
    except READ_BACK_ERRORS as error:
        db.session.rollback()
        message = error.message if isinstance(error, ServiceError) else str(error)
        raise Invalid(f"the file does not make a consistent game: {message}"[:300]) from error
    except Exception:
        db.session.rollback()
        raise
    commit()
    return game, key


def import_bytes(raw: bytes, group_key: str | None = None) -> tuple[Game, str]:
    return import_game(parse_document(raw), group_key)
