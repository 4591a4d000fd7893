"""The pydantic models of companion.schemas: request structure, the one-sentence errors, the export format."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pydantic import BaseModel, ValidationError

from companion import schemas
from companion.models import Dispute, Game, GameEvent, Round, RoundRevision
from companion.services import transfer
from tests.conftest import api_game

EXPORTS = Path(__file__).parent / "exports"
"""Exports written by the app before the export format became a model (issue 12); they must import back."""


def refusal(model: type[schemas.Body], body: Any) -> str:
    with pytest.raises(schemas.BodyError) as refused:
        schemas.parse(model, body)
    return str(refused.value)


# ---------------------------------------------------------------- request bodies


def test_a_good_body_becomes_its_model() -> None:
    game = schemas.parse(schemas.NewGame, {"variant": "pay-me", "players": ["Ann", "Bob"], "first_dealer": "Bob"})
    assert (game.variant, game.players, game.options, game.first_dealer) == ("pay-me", ["Ann", "Bob"], None, "Bob")
    entry = schemas.parse(schemas.RoundEntry, {"went_out": "Bob", "scores": {"Ann": "10+5", "Bob": 0}, "version": 3})
    assert (entry.went_out, entry.scores, entry.version, entry.hands) == ("Bob", {"Ann": "10+5", "Bob": 0}, 3, None)


@pytest.mark.parametrize(
    ("model", "body", "message"),
    [
        (
            schemas.NewGame,
            {"variant": "pay-me", "players": [], "colour": "red"},
            'unknown field "colour"; a game has variant, players, options, first_dealer, first_dealer_method, '
            "scorekeeper, group",
        ),
        (
            schemas.RoundEntry,
            {"went_out": "Bob", "extra": 1},
            'unknown field "extra"; a round has went_out, scores, hands, declarer, second_discards, exact_cut, version',
        ),
        (
            schemas.CheckRequest,
            {"variant": "pay-me", "round": 1, "melds": [], "colour": "red"},
            'unknown field "colour"; check takes variant, round, melds, options, players, cut, wild',
        ),
        (
            schemas.PayEvent,
            {"type": "pay", "player": "Bob", "card": "7H"},
            'unknown field "card"; a pay event has type, player, version',
        ),
    ],
)
def test_an_unknown_field_is_named_with_the_fields_the_body_has(
    model: type[schemas.Body], body: Any, message: str
) -> None:
    assert refusal(model, body) == message


def test_an_unknown_field_comes_before_a_missing_one() -> None:
    assert refusal(schemas.CheckRequest, {"colour": "red"}).startswith('unknown field "colour"')


@pytest.mark.parametrize(
    ("model", "body", "message"),
    [
        (schemas.NewGame, {"variant": "pay-me"}, "a game needs a variant and a list of players"),
        (schemas.RoundEntry, {"scores": {}}, "went_out must be the name of the player who went out"),
        (schemas.CheckRequest, {"round": 1, "melds": []}, "check needs variant, round, melds; variant is missing"),
        (schemas.BestRequest, {"variant": "pay-me", "hand": "3H"}, "best needs variant, round, hand; round is missing"),
        # declarer may be left out for declarer_hand; /api/layoff still says it is missing (test_disputes_api)
        (
            schemas.LayoffRequest,
            {"variant": "pay-me", "round": 2, "onto": 1, "declarer": ["4H 5H 6H"]},
            "layoff needs variant, round, declarer, onto, cards; cards is missing",
        ),
        (schemas.PlayEvent, {"type": "play", "player": "Bob"}, 'card must be a card such as "7H"'),
        (
            schemas.SettleEvent,
            {"type": "settle", "winner": "Ann"},
            "cards_left must be an object of counts by player name",
        ),
    ],
)
def test_a_missing_field_is_one_sentence(model: type[schemas.Body], body: Any, message: str) -> None:
    assert refusal(model, body) == message


@pytest.mark.parametrize(
    ("model", "body", "message"),
    [
        (schemas.NewGame, {"variant": 7, "players": ["Ann"]}, "variant must be a preset id such as pay-me"),
        (schemas.NewGame, {"variant": "pay-me", "players": ["Ann", 7]}, "players must be a list of names"),
        (schemas.NewGame, {"variant": "pay-me", "players": "Ann, Bob"}, "players must be a list of names"),
        (
            schemas.NewGame,
            {"variant": "pay-me", "players": [], "options": ["ace"]},
            "options must be an object of house-rule options",
        ),
        (
            schemas.NewGame,
            {"variant": "pay-me", "players": [], "first_dealer": 1},
            "first_dealer must be a player's name",
        ),
        (schemas.RoundEntry, {"went_out": None}, "went_out must be the name of the player who went out"),
        (
            schemas.RoundEntry,
            {"went_out": "Bob", "scores": [1, 0]},
            "scores must be an object of card points by player name",
        ),
        (schemas.RoundEntry, {"went_out": "Bob", "version": "1"}, "version must be a whole number"),
        (schemas.RoundEntry, {"went_out": "Bob", "version": True}, "version must be a whole number"),
        (
            schemas.RoundEntry,
            {"went_out": "Bob", "hands": {"Ann": 7}},
            'hands must be an object of cards by player name, such as {"Ann": "7H 8H 9D"}',
        ),
        (
            schemas.RoundEntry,
            {"went_out": "Bob", "declarer": "4H 5H 6H"},
            'declarer must be a list of melds, such as ["4H 5H 6H", "9C 9D 9S"]',
        ),
        (
            schemas.CheckRequest,
            {"variant": "pay-me", "round": "1", "melds": []},
            'round must be a whole number, not "1"',
        ),
        (
            schemas.CheckRequest,
            {"variant": "pay-me", "round": True, "melds": []},
            'round must be a whole number, not "True"',
        ),
        (
            schemas.CheckRequest,
            {"variant": "pay-me", "round": 1, "melds": [3]},
            'melds must be a list of melds, each a string such as "4H 5H 6H"',
        ),
        (
            schemas.CheckRequest,
            {"variant": "pay-me", "round": 1, "melds": [], "options": "full_cycle"},
            'options must be an object such as {"full_cycle": true}',
        ),
        (
            schemas.CheckRequest,
            {"variant": "pay-me", "round": 1, "melds": [], "players": "3"},
            "players must be a whole number",
        ),
        (schemas.BestRequest, {"variant": "pay-me", "round": 1, "hand": ["3H"]}, "hand must be a string of cards"),
        (
            schemas.BestRequest,
            {"variant": "pay-me", "round": 1, "hand": "3H", "declarer": None},
            'declarer must be a list of melds, each a string such as "4H 5H 6H"',
        ),
        (
            schemas.LayoffRequest,
            {"variant": "pay-me", "round": 2, "declarer": [], "onto": "1", "cards": "7H"},
            'onto must be a meld number, not "1"',
        ),
        (
            schemas.LayoffRequest,
            {"variant": "pay-me", "round": 2, "declarer": [], "onto": 1, "cards": 7},
            "cards must be a string of cards",
        ),
        (
            schemas.SettleEvent,
            {"type": "settle", "winner": "Ann", "cards_left": [1, 4]},
            "cards_left must be an object of counts by player name",
        ),
    ],
)
def test_a_field_of_the_wrong_type_is_one_sentence(model: type[schemas.Body], body: Any, message: str) -> None:
    assert refusal(model, body) == message


def test_a_refusal_is_a_single_line_and_quotes_little_of_the_input() -> None:
    message = refusal(schemas.CheckRequest, {"variant": "pay-me", "round": "x" * 1000, "melds": []})
    assert "\n" not in message and len(message) < 100
    assert refusal(schemas.NewGame, {"variant": "pay-me", "players": [], "x" * 500: 1}).count("x") < 50


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"type": "fold", "player": "Bob"}, 'type must be "play", "pay", "settle" or "purchase"'),
        ({"player": "Bob"}, 'type must be "play", "pay", "settle" or "purchase"'),
        ({"type": ["pay"]}, 'type must be "play", "pay", "settle" or "purchase"'),
        ({"type": "pay", "player": "Bob", "card": "7H"}, 'unknown field "card"; a pay event has type, player, version'),
    ],
)
def test_events_are_read_by_their_type(body: dict[str, Any], message: str) -> None:
    with pytest.raises(schemas.BodyError, match="^" + message.replace("(", r"\(") + "$"):
        schemas.parse_event(body)
    settled = schemas.parse_event({"type": "settle", "winner": "Ann", "cards_left": {"Bob": 3}})
    assert isinstance(settled, schemas.SettleEvent) and settled.paid == {}


def test_a_request_body_model_forbids_unknown_fields_and_conversions() -> None:
    requests: list[type[BaseModel]] = [
        schemas.NewGame,
        schemas.RoundEntry,
        schemas.CheckRequest,
        schemas.BestRequest,
        schemas.LayoffRequest,
        *schemas.EVENTS.values(),
    ]
    for model in requests:
        assert model.model_config.get("extra") == "forbid", model
        assert model.model_config.get("strict") is True, model
        assert model.model_json_schema()["additionalProperties"] is False


# ---------------------------------------------------------------- limits appear in the schema


def test_the_chip_and_cent_limits_are_in_the_schema() -> None:
    from engine.play_or_pay import MAX_CHIPS

    properties = schemas.Options.model_json_schema()["properties"]
    chips = next(branch for branch in properties["chips"]["anyOf"] if branch.get("type") == "integer")
    assert (chips["minimum"], chips["maximum"]) == (1, MAX_CHIPS)
    ante = next(branch for branch in properties["ante"]["anyOf"] if branch.get("type") == "integer")
    assert (ante["minimum"], ante["maximum"]) == (0, schemas.MAX_CENTS)
    state = schemas.PlayOrPayOptions.model_json_schema()["properties"]["chips"]
    assert state["maximum"] == MAX_CHIPS
    with pytest.raises(ValidationError):
        schemas.PlayOrPayOptions(chips=MAX_CHIPS + 1)


def test_every_option_of_the_engines_registry_is_in_the_schema() -> None:
    from engine.rules import ALL_OPTION_SPECS, OPTION_SPECS

    properties = schemas.Options.model_json_schema()["properties"]
    assert set(ALL_OPTION_SPECS) | {"pot", "ante", "second_discard", "knock", "booby_cap", "chips"} == set(properties)
    ace = next(branch for branch in properties["ace"]["anyOf"] if "enum" in branch)
    assert ace["enum"] == list(OPTION_SPECS["ace"].choices)


# ---------------------------------------------------------------- the export format


def golden(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXPORTS / f"{name}.json").read_text(encoding="utf-8"))
    return document


TIMES = frozenset({"created_at", "updated_at", "changed_at"})


def with_zones(value: Any, key: str = "") -> Any:
    """The document with its stored times in UTC with Z, as exports write them since issue 28."""
    if isinstance(value, dict):
        return {name: with_zones(item, name) for name, item in value.items()}
    if isinstance(value, list):
        return [with_zones(item, key) for item in value]
    if key in TIMES and isinstance(value, str) and not value.endswith("Z"):
        return value + "Z"
    return value


@pytest.mark.parametrize("name", ["pay-me", "3-13", "play-or-pay"])
def test_an_export_of_format_version_1_reads_and_writes_back_identically(name: str) -> None:
    """Identically but for the times, which an export now writes in UTC with Z (issue 28)."""
    document = golden(name)
    model = schemas.GameExport.model_validate(document)
    assert model.format_version == schemas.FORMAT_VERSION == 1
    written = model.model_dump(mode="json")
    assert written["tables"] == with_zones(document["tables"])
    assert written == {**with_zones(document), "derived": document["derived"]}
    assert schemas.GameExport.model_validate(written).model_dump(mode="json") == written


def test_every_time_an_export_writes_is_utc_with_z(client: FlaskClient) -> None:
    game = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5}}
    saved = client.post(f"/api/games/{game['id']}/rounds", json=body, headers={"X-Edit-Key": game["edit_key"]})
    corrected = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 9}, "version": saved.get_json()["version"]}
    response = client.put(f"/api/games/{game['id']}/rounds/1", json=corrected, headers={"X-Edit-Key": game["edit_key"]})
    assert response.status_code == 200, response.get_json()
    document = client.get(f"/api/games/{game['id']}/export").get_json()
    times = [document["game"]["created_at"], document["game"]["updated_at"]]
    times += [row["created_at"] for row in document["tables"]["rounds"]]
    times += [row["changed_at"] for row in document["tables"]["round_revisions"]]
    assert len(times) == 4 and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", text) for text in times)
    assert client.post("/api/games/import", json=document).status_code == 201


def test_the_golden_exports_hold_every_kind_of_row() -> None:
    tables = golden("pay-me")["tables"]
    assert {name for name, rows in tables.items() if rows} == {"disputes", "round_revisions", "rounds"}
    assert any((row["result"] or {}).get("chain") for row in tables["disputes"])
    assert any(row["hands"] for row in tables["rounds"]) and any(row["hands"] for row in tables["round_revisions"])
    assert golden("play-or-pay")["tables"]["game_events"]
    assert any(row["second_discards"] for row in golden("3-13")["tables"]["rounds"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format_version": 2}, "format_version"),
        ({"format_version": "1"}, "format_version"),
        ({"format": "something/else"}, "format"),
        ({"extra": {}}, "extra"),
    ],
)
def test_an_export_of_another_format_or_version_is_not_this_model(change: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        schemas.GameExport.model_validate({**golden("pay-me"), **change})
    assert refused.value.errors()[0]["loc"][0] == field


def test_the_format_version_is_a_constant_of_the_schema() -> None:
    properties = schemas.GameExport.model_json_schema()["properties"]
    assert properties["format_version"]["const"] == schemas.FORMAT_VERSION
    assert properties["format"]["const"] == schemas.FORMAT


# Columns that an export leaves out on purpose: ids, the game's key hash and version counter.
NOT_EXPORTED = {"id", "game_id", "edit_key_hash", "version"}


@pytest.mark.parametrize(
    ("table", "model"),
    [
        (Game, schemas.ExportedGame),
        (Round, schemas.ExportedRound),
        (RoundRevision, schemas.ExportedRevision),
        (GameEvent, schemas.ExportedEvent),
        (Dispute, schemas.ExportedDispute),
    ],
)
def test_a_migration_cannot_change_the_export_silently(table: Any, model: type[BaseModel]) -> None:
    """A column added by a migration fails here: add it to the export model and raise FORMAT_VERSION."""
    columns = [column.name for column in table.__table__.columns if column.name not in NOT_EXPORTED]
    assert list(model.model_fields) == columns


def test_every_table_that_belongs_to_a_game_has_an_export_model() -> None:
    from companion.extensions import db

    belongs = sorted(
        table.name
        for table in db.metadata.sorted_tables
        if any(fk.column.table.name == "games" and fk.parent.name == "game_id" for fk in table.foreign_keys)
        and table.name not in transfer.DERIVED_TABLES
    )
    assert sorted(schemas.EXPORTED_TABLES) == belongs


@pytest.mark.parametrize("name", ["pay-me", "3-13", "play-or-pay"])
def test_an_export_written_before_the_model_imports_and_exports_back_identically(
    client: FlaskClient, name: str
) -> None:
    document = golden(name)
    created = client.post("/api/games/import", json=document)
    assert created.status_code == 201, created.get_json()
    again = client.get(f"/api/games/{created.get_json()['id']}/export")
    assert again.status_code == 200
    exported = again.get_json()
    golden_checks = with_zones(document["tables"].pop("disputes", []), "disputes")
    checks = exported["tables"].pop("disputes", [])
    assert exported == with_zones(document)  # the times now in UTC with Z (issue 28)
    assert len(checks) == len(golden_checks)
    for check, golden_check in zip(checks, golden_checks, strict=True):
        assert said_alike(golden_check, check)


def said_alike(before: Any, now: Any) -> bool:
    """Whether a check re-judged on import (issue 16) says all it said before; the engine may say more
    (such as how it read a meld, or where a card was laid off)."""
    if isinstance(before, dict):
        return isinstance(now, dict) and all(key in now and said_alike(said, now[key]) for key, said in before.items())
    if isinstance(before, list):
        return isinstance(now, list) and len(now) == len(before) and all(map(said_alike, before, now))
    return bool(before == now)


def test_said_alike_notices_a_changed_or_missing_verdict() -> None:
    before = {"melds": [{"valid": True, "kind": "run"}]}
    assert said_alike(before, {"melds": [{"valid": True, "kind": "run", "reading_text": "read as 4♥ 5♥ 6♥"}]})
    assert not said_alike(before, {"melds": [{"valid": False, "kind": "run"}]})
    assert not said_alike(before, {"melds": [{"valid": True}]})
    assert not said_alike(before, {"melds": []})


def test_exporting_leaves_the_stored_lay_off_chain_alone(app: Flask, client: FlaskClient) -> None:
    from companion.services import transfer
    from companion.services.store import get_game

    client.post("/api/games/import", json=golden("pay-me"))
    created = client.post("/api/games/import", json=golden("pay-me")).get_json()  # ids no longer positions
    with app.app_context():
        game = get_game(created["id"])
        declarer_id = game.disputes[1].id
        assert declarer_id != 2
        exported = transfer.export_game(game)
        assert [(row.result or {}).get("chain") for row in game.disputes] == [None, None, declarer_id, declarer_id]
    results = [row["result"] for row in exported["tables"]["disputes"]]
    assert said_alike([row["result"] for row in golden("pay-me")["tables"]["disputes"]], results)


def test_the_limits_of_the_schemas_are_the_limits_the_services_enforce() -> None:
    from companion.services import play_or_pay, pot, store

    assert schemas.MAX_CENTS == pot.MAX_CENTS
    assert schemas.MAX_PICKUPS == pot.MAX_PICKUPS
    assert schemas.MAX_NAME_LENGTH == store.MAX_NAME_LENGTH
    assert schemas.PLAY_OR_PAY == play_or_pay.PLAY_OR_PAY
    assert schemas.EVENT_KINDS == play_or_pay.EVENT_KINDS == tuple(schemas.EVENTS)
