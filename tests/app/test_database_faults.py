"""Issue 28, section 2: a database that is unavailable is a 503 with Retry-After, never a 500.

Faults: SQLite opened read-only, SQLite with a full disk (a patched driver error, and little room
left for /healthz), a failing rollback at the end of a request, and a PostgreSQL server stopped
and started again (a throwaway cluster of this test's own, when the server binaries are installed).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from companion.errors import NOT_READ, NOT_SAVED
from companion.extensions import db
from tests.conftest import CSRF_INPUT, api_game, app_on, edit_key

ROOT = Path(__file__).resolve().parent.parent.parent
PLAYERS = ["Ann", "Bob"]
ROUND = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 12}}
NEW_GAME_FORM = {"variant": "pay-me", "players": "Ann\nBob", "first_dealer": "1"}


def assert_api_503(response: Any, sentence: str = NOT_SAVED) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    assert response.get_json() == {"error": sentence}
    assert response.headers["Retry-After"].isdigit()


def assert_page_503(response: Any) -> None:
    assert response.status_code == 503
    assert response.mimetype == "text/html"
    assert "the change was not saved" in response.get_data(as_text=True)
    assert response.headers["Retry-After"].isdigit()


def post_new_game_form(client: FlaskClient) -> Any:
    match = CSRF_INPUT.search(client.get("/games/new").get_data(as_text=True))
    assert match
    return client.post("/games/new", data={"csrf_token": match.group(1), **NEW_GAME_FORM})


# ---------------------------------------------------------------- SQLite


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[tuple[FlaskClient, dict[str, Any]]]:
    """A game stored, then the app on the same file opened read-only."""
    path = tmp_path / "games.sqlite3"
    with app_on(tmp_path / "writer", f"sqlite:///{path}") as writer:
        game = api_game(writer.test_client(), "pay-me", PLAYERS, "Ann")
    with app_on(tmp_path / "reader", f"sqlite:///file:{path}?mode=ro&uri=true") as app:
        yield app.test_client(), game


def test_read_only_sqlite_writes_are_503_and_reads_still_work(read_only: tuple[FlaskClient, dict[str, Any]]) -> None:
    client, game = read_only
    assert_api_503(client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=edit_key(game)))
    assert_api_503(client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS}))
    assert_page_503(post_new_game_form(client))
    assert client.get(f"/api/games/{game['id']}").get_json()["rounds"] == []
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json() == {"status": "unavailable", "database": "cannot write"}
    assert health.headers["Retry-After"].isdigit()


@contextmanager
def disk_full(app: Flask, where: str = "execute") -> Iterator[None]:
    """SQLite's 'database or disk is full' on every write statement, or on the commit."""
    with app.app_context():
        dialect = db.engine.dialect
    real_execute, real_commit = dialect.do_execute, dialect.do_commit

    def execute(cursor: Any, statement: str, parameters: Any, context: Any = None) -> None:
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise sqlite3.OperationalError("database or disk is full")
        real_execute(cursor, statement, parameters, context)

    def commit(connection: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    if where == "execute":
        dialect.do_execute = execute  # type: ignore[method-assign]
    else:
        dialect.do_commit = commit  # type: ignore[method-assign]
    try:
        yield
    finally:
        dialect.do_execute, dialect.do_commit = real_execute, real_commit  # type: ignore[method-assign]


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on SQLite, also in the PostgreSQL pass."""
    with app_on(tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}") as app:
        yield app


@pytest.mark.parametrize("where", ["execute", "commit"])
def test_a_full_sqlite_disk_is_503_and_nothing_is_saved(sqlite_app: Flask, where: str) -> None:
    app, client = sqlite_app, sqlite_app.test_client()
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    with disk_full(app, where):
        assert_api_503(client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=edit_key(game)))
        assert_page_503(post_new_game_form(client))
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == game["version"]
    assert client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=edit_key(game)).status_code == 201


def test_healthz_is_503_when_the_disk_of_sqlite_is_all_but_full(
    sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = sqlite_app.test_client()
    assert client.get("/healthz").status_code == 200
    usage = shutil.disk_usage("/")
    monkeypatch.setattr(shutil, "disk_usage", lambda _path: usage._replace(free=4096))
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json() == {"status": "unavailable", "database": "cannot write"}


def test_a_failing_rollback_at_the_end_of_a_request_keeps_the_json_answer(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    real_close = Session.close

    def close(session: Session) -> None:
        real_close(session)
        raise OperationalError("ROLLBACK", {}, Exception("server closed the connection"), connection_invalidated=True)

    monkeypatch.setattr(Session, "close", close)
    answer = client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=edit_key(game))
    assert answer.status_code == 201
    assert answer.get_json()["rounds"][0]["scores"] == ROUND["scores"]
    monkeypatch.setattr(Session, "close", real_close)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == answer.get_json()["version"]


# ---------------------------------------------------------------- PostgreSQL stopped and started again


class Cluster(NamedTuple):
    url: str
    stop: Callable[[], None]
    start: Callable[[], None]


@pytest.fixture
def postgres_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster of this test (scripts/pg_test_cluster.sh), skipped without the binaries."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not bins:
        pytest.skip("the PostgreSQL server binaries are not installed")
    pg_ctl = str(bins[-1])
    folder = Path(tempfile.mkdtemp(prefix="ctc-pg-fault.", dir="/tmp"))  # a short unix socket path
    script = ROOT / "scripts" / "pg_test_cluster.sh"
    url = subprocess.run([script, "start", folder], check=True, capture_output=True, text=True).stdout.strip()
    owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    data = str(folder / "data")

    def stop() -> None:
        subprocess.run(
            [*owner, pg_ctl, "--pgdata", data, "--mode=fast", "--wait", "stop"], check=True, capture_output=True
        )

    def start() -> None:
        options = f"-c listen_addresses='' -k {folder} -c fsync=off"
        command = [
            *owner,
            pg_ctl,
            "--pgdata",
            data,
            "--log",
            str(folder / "server.log"),
            "--wait",
            "start",
            "-o",
            options,
        ]
        subprocess.run(command, check=True, capture_output=True)

    try:
        yield Cluster(url, stop, start)
    finally:
        subprocess.run([script, "stop", folder], check=False, capture_output=True)


def test_postgresql_stopped_is_503_and_started_again_is_served_at_once(
    tmp_path: Path, postgres_cluster: Cluster
) -> None:
    with app_on(tmp_path, postgres_cluster.url) as app:
        client = app.test_client()
        game = api_game(client, "pay-me", PLAYERS, "Ann")
        rounds = f"/api/games/{game['id']}/rounds"
        assert client.post(rounds, json=ROUND, headers=edit_key(game)).status_code == 201  # a pooled connection
        postgres_cluster.stop()
        assert_api_503(client.post(rounds, json=ROUND, headers=edit_key(game)))
        assert_api_503(client.get(f"/api/games/{game['id']}/version"), NOT_READ)
        assert_page_503(post_new_game_form(client))
        health = client.get("/healthz")
        assert (health.status_code, health.get_json()["database"]) == (503, "unreachable")
        postgres_cluster.start()
        # The pooled connections died with the server: each is tried before use, so no answer fails.
        for _ in range(4):
            assert client.post(rounds, json=ROUND, headers=edit_key(game)).status_code == 201
        assert client.get("/healthz").status_code == 200


def test_a_read_only_postgresql_is_503_for_writes(tmp_path: Path, database_url: str) -> None:
    """PostgreSQL in read-only transactions (a standby, or default_transaction_read_only): as SQLite read-only."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite read-only is test_read_only_sqlite_writes_are_503_and_reads_still_work")
    from sqlalchemy import make_url

    with app_on(tmp_path / "writer", database_url) as writer:
        game = api_game(writer.test_client(), "pay-me", PLAYERS, "Ann")
    options = make_url(database_url).query["options"]
    read_only = {"connect_args": {"options": f"{options} -c default_transaction_read_only=on"}}
    with app_on(tmp_path / "reader", database_url, SQLALCHEMY_ENGINE_OPTIONS=read_only) as app:
        client = app.test_client()
        assert_api_503(client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=edit_key(game)))
        assert client.get(f"/api/games/{game['id']}").get_json()["rounds"] == []
        health = client.get("/healthz")
        assert (health.status_code, health.get_json()["database"]) == (503, "cannot write")
