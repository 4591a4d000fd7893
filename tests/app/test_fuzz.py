"""Fuzzing every form and API endpoint with Hypothesis: never a 500, and a refused request stores nothing.

Targeted strategies for the game and round endpoints and the page forms (near-valid bodies with
one wrong part), then a generic pass over every operation of /api/openapi.json and every page
that takes a POST, with random JSON bodies and form fields. CSRF is off in this app, so the
forms reach their validation. After each request answered 4xx, every table has the same rows
and every game the same version as before. Bounded: well under a minute in all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from companion import create_app
from companion.extensions import db
from companion.models import Game
from engine.rules import OPTION_SPECS, RUMMY_PRESETS
from tests.conftest import app_on

PLAYERS = ["Ann", "Bob", "Cy"]
FUZZ = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# ---------------------------------------------------------------- strategies

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.text(max_size=20),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
names = st.one_of(
    st.sampled_from([*PLAYERS, " Ann ", "ann", "", "Zed", "A" * 41, "Ann\n", "Ann\x00"]),
    st.text(max_size=45),
)
points = st.one_of(
    st.integers(min_value=-(2**64), max_value=2**64),
    st.integers(min_value=0, max_value=200),
    st.floats(),
    st.from_regex(r"\A[0-9 +x-]{0,14}\Z"),
    st.sampled_from(["10+5+5", "", " ", "1e3", "٣", "0x10", "99999+99999"]),
    json_values,
)
versions = st.one_of(
    st.none(), st.integers(min_value=-3, max_value=2**70), st.booleans(), st.text(max_size=4), st.floats()
)
round_bodies = st.one_of(
    st.fixed_dictionaries(
        {"went_out": names, "scores": st.dictionaries(names, points, max_size=5)},
        optional={"version": versions, "extra": json_values},
    ),
    st.fixed_dictionaries(
        {"went_out": st.sampled_from(PLAYERS), "scores": st.fixed_dictionaries(dict.fromkeys(PLAYERS, points))},
        optional={"version": versions},
    ),
    json_values,
)
option_values = st.fixed_dictionaries({}, optional={key: json_values for key in OPTION_SPECS}) | json_values
game_bodies = st.one_of(
    st.fixed_dictionaries(
        {"variant": st.sampled_from([*RUMMY_PRESETS, "play-or-pay", "poker", ""]) | st.text(max_size=12)},
        optional={
            "players": st.lists(names, max_size=11) | json_values,
            "options": option_values,
            "first_dealer": names | json_values,
            "extra": json_values,
        },
    ),
    json_values,
)
raw_bodies = st.one_of(
    st.builds(lambda value: json.dumps(value).encode(), json_values),
    st.binary(max_size=64),
    st.sampled_from([b"", b"{", b"[]", b"null", b'{"a":' * 50, b"\xff\xfe"]),
)
form_text = st.text(max_size=30) | st.sampled_from(
    ["", "0", "10+5", "99999", "-1", "Ann", "on", "random", "1", "¹", "٣"]
)

# ---------------------------------------------------------------- the app and its tables


@pytest.fixture
def fuzz_app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    with app_on(tmp_path, database_url, WTF_CSRF_ENABLED=False, SECRET_KEY="fuzz") as app:
        yield app


def snapshot(app: Flask) -> tuple[dict[str, int], dict[str, int]]:
    """Rows per table, and every game's version."""
    with app.app_context():
        counts = {
            table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for table in db.metadata.sorted_tables
        }
        games = {game_id: version for game_id, version in db.session.execute(select(Game.id, Game.version))}
        db.session.remove()
    return counts, games


def new_game(client: FlaskClient, rounds: int = 2) -> tuple[str, str]:
    response = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"})
    assert response.status_code == 201
    game = response.get_json()
    for number in range(rounds):
        body = {"went_out": "Bob", "scores": {"Ann": number, "Bob": 0, "Cy": 10}}
        assert (
            client.post(
                f"/api/games/{game['id']}/rounds", json=body, headers={"X-Edit-Key": game["edit_key"]}
            ).status_code
            == 201
        )
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    return game["id"], game["edit_key"]


def send(app: Flask, method: str, url: str, **request: Any) -> int:
    """One request; fails on a 500, or when a refused request changed anything stored."""
    client: FlaskClient = request.pop("client", None) or app.test_client()
    before = snapshot(app)
    response = client.open(url, method=method, **request)
    body = response.get_data(as_text=True)
    assert response.status_code < 500, f"{method} {url} {request} -> {response.status_code}: {body[:500]}"
    if response.status_code >= 400:
        assert snapshot(app) == before, f"{method} {url} {request} was refused ({response.status_code}) but stored"
        if url.startswith("/api/"):
            assert isinstance(response.get_json(silent=True), dict) and response.get_json()["error"], body[:300]
    return response.status_code


# ---------------------------------------------------------------- targeted: games and rounds


@FUZZ
@given(body=game_bodies)
def test_fuzz_create_game(fuzz_app: Flask, body: Any) -> None:
    send(fuzz_app, "POST", "/api/games", json=body)


@FUZZ
@given(raw=raw_bodies, content_type=st.sampled_from(["application/json", "text/plain", ""]))
def test_fuzz_raw_bodies(fuzz_app: Flask, raw: bytes, content_type: str) -> None:
    client = fuzz_app.test_client()
    game_id, key = new_game(client, rounds=1)
    headers = {"X-Edit-Key": key}
    for method, url in (
        ("POST", "/api/games"),
        ("POST", f"/api/games/{game_id}/rounds"),
        ("PUT", f"/api/games/{game_id}/rounds/1"),
    ):
        send(fuzz_app, method, url, data=raw, content_type=content_type or None, headers=headers)


@FUZZ
@given(
    body=round_bodies,
    number=st.integers(min_value=-2, max_value=14) | st.integers(min_value=0, max_value=2**70),
    key=st.sampled_from(["right", "wrong", "none"]),
)
def test_fuzz_rounds(fuzz_app: Flask, body: Any, number: int, key: str) -> None:
    client = fuzz_app.test_client()
    game_id, edit_key = new_game(client)
    headers = {"X-Edit-Key": {"right": edit_key, "wrong": edit_key[::-1], "none": ""}[key]}
    path = f"/api/games/{game_id}"
    send(fuzz_app, "POST", f"{path}/rounds", json=body, headers=headers, client=client)
    send(fuzz_app, "PUT", f"{path}/rounds/{number}", json=body, headers=headers, client=client)
    send(fuzz_app, "DELETE", f"{path}/rounds/last", headers=headers, client=client)
    send(fuzz_app, "POST", f"/api/games/{game_id[::-1]}/rounds", json=body, headers=headers, client=client)


# ---------------------------------------------------------------- targeted: the page forms


@FUZZ
@given(
    variant=st.sampled_from([*RUMMY_PRESETS, "play-or-pay", "nope"]) | form_text,
    players=st.lists(names, max_size=11).map("\n".join) | form_text,
    first_dealer=st.sampled_from(["random", "0", "2", "8", "9", "-1"]) | form_text,
    options=st.fixed_dictionaries({}, optional={f"opt_{key}": form_text for key in OPTION_SPECS}),
)
def test_fuzz_new_game_form(
    fuzz_app: Flask, variant: str, players: str, first_dealer: str, options: dict[str, str]
) -> None:
    data = {"variant": variant, "players": players, "first_dealer": first_dealer, **options}
    send(fuzz_app, "POST", "/games/new", data=data)


@example(went_out="Ann", scores=[], version="¹", number=0)  # "¹".isdigit() but not int(): was a 500
@FUZZ
@given(
    went_out=names | form_text,
    scores=st.lists(form_text | points.map(str), max_size=5),
    version=versions.map(lambda value: "" if value is None else str(value)),
    number=st.integers(min_value=0, max_value=4),
)
def test_fuzz_round_forms(fuzz_app: Flask, went_out: str, scores: list[str], version: str, number: int) -> None:
    client = fuzz_app.test_client()
    game_id, _ = new_game(client)
    data = {
        "went_out": went_out,
        "version": version,
        **{f"scores-{index}": value for index, value in enumerate(scores)},
    }
    send(fuzz_app, "POST", f"/games/{game_id}/rounds/new", data=data, client=client)
    send(fuzz_app, "POST", f"/games/{game_id}/rounds/{number}/edit", data=data, client=client)
    send(fuzz_app, "POST", f"/games/{game_id}/rounds/last/undo", data={"version": version}, client=client)


# ---------------------------------------------------------------- generic: every documented operation


def api_operations() -> list[tuple[str, str, list[str]]]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    document = app.test_client().get("/api/openapi.json").get_json()
    operations = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            fields = sorted(body_fields(document, schema))
            operations.append((method.upper(), path, fields))
    return operations


def body_fields(document: dict[str, Any], schema: dict[str, Any]) -> set[str]:
    """The fields a body may have; a oneOf (the Play or Pay events) has those of each choice."""
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    fields = set(schema.get("properties", {}))
    for choice in schema.get("oneOf", []):
        fields |= body_fields(document, choice)
    return fields


API_OPERATIONS = api_operations()


@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_fuzz_every_documented_operation(fuzz_app: Flask, data: st.DataObject) -> None:
    method, path, fields = data.draw(st.sampled_from(API_OPERATIONS), label="operation")
    client = fuzz_app.test_client()
    game_id, key = new_game(client)
    params = {
        "game_id": data.draw(st.sampled_from([game_id, game_id[::-1], "x", "%00", "a" * 300]), label="game_id"),
        "number": str(data.draw(st.integers(min_value=0, max_value=4) | st.integers(min_value=0), label="number")),
    }
    url = re.sub(r"\{(\w+)\}", lambda match: params.get(match.group(1), "1"), path)
    body = data.draw(st.fixed_dictionaries({}, optional=dict.fromkeys(fields, json_values)) | json_values, label="body")
    headers = {"X-Edit-Key": data.draw(st.sampled_from([key, "", "wrong"]), label="key")}
    if method in ("GET", "DELETE"):
        send(fuzz_app, method, url, headers=headers, client=client)
    else:
        send(fuzz_app, method, url, json=body, headers=headers, client=client)


def page_posts() -> list[str]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api/")
    )


PAGE_POSTS = page_posts()


@settings(FUZZ, max_examples=70)
@given(data=st.data())
def test_fuzz_every_page_form(fuzz_app: Flask, data: st.DataObject) -> None:
    rule = data.draw(st.sampled_from(PAGE_POSTS), label="page")
    client = fuzz_app.test_client()
    game_id, _ = new_game(client)
    number = str(data.draw(st.integers(min_value=0, max_value=4), label="number"))
    url = rule.replace("<game_id>", game_id).replace("<int:number>", number)
    known = [
        "variant",
        "players",
        "first_dealer",
        "went_out",
        "version",
        "scores-0",
        "scores-1",
        "scores-2",
        "cards",
        "hand",
        "melds",
        "player",
        "kind",
        "amount",
        "event",
        "onto",
        "declarer",
    ]
    form = data.draw(
        st.dictionaries(st.sampled_from(known) | st.text(max_size=10), form_text | points.map(str), max_size=8),
        label="form",
    )
    send(fuzz_app, "POST", url, data=form, client=client)
