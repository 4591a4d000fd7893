"""A server killed with SIGKILL in the middle of saving leaves every game consistent.

gunicorn (two workers, four threads each) serves the tests' database (SQLite in WAL mode by
default, PostgreSQL with TEST_DATABASE_URL); eight threads add, correct and undo rounds on three
games; the whole process group is killed at a random moment. A fresh app then opens the
database and checks it: SQLite's integrity check, rounds numbered 1..n, a score for every player
in every round, the version equal to the writes stored, every acknowledged write kept, and the
game still takes a new round. Three kill cycles on the same database.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import text

from companion import create_app
from companion.extensions import db
from companion.models import Game, Round, RoundRevision
from tests.servers import call, kill_now, start_gunicorn

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
GAMES = 3
WRITERS = 8
CYCLES = 3


def fresh_app(database_url: str, tmp_path: Path) -> Flask:
    return create_app(
        {"TESTING": True, "SECRET_KEY": "after the crash", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=str(tmp_path / "fresh"),
    )


def hammer(
    base_url: str,
    games: list[tuple[str, str]],
    stop: threading.Event,
    acknowledged: dict[str, int],
    errors: list[Exception],
) -> None:
    """Writers that add, correct and undo rounds until `stop` or until the server dies."""
    lock = threading.Lock()

    def writer(seat: int) -> None:
        chooser = random.Random(seat)
        game_id, key = games[seat % len(games)]
        path = f"/api/games/{game_id}"
        try:
            state = call(base_url, "GET", path, timeout=5)[1]
            while not stop.is_set():
                played = len(state["rounds"])
                went_out = PLAYERS[chooser.randrange(len(PLAYERS))]
                scores = {
                    name: 0 if name == went_out else chooser.randrange(1, 46) for name in PLAYERS
                }  # round 1 holds 45 at most
                body = {"went_out": went_out, "scores": scores, "version": state["version"]}
                roll = chooser.random()
                if played >= 11 or (played and roll < 0.15):
                    last = f"{path}/rounds/last?version={state['version']}"
                    status, answer = call(base_url, "DELETE", last, key=key, timeout=5)
                elif played and roll < 0.4:
                    status, answer = call(
                        base_url, "PUT", f"{path}/rounds/{chooser.randint(1, played)}", body, key, timeout=5
                    )
                else:
                    status, answer = call(base_url, "POST", f"{path}/rounds", body, key, timeout=5)
                if status in (200, 201):
                    with lock:
                        acknowledged[game_id] = max(acknowledged.get(game_id, 0), answer["version"])
                    state = answer
                elif status == 409:
                    state = answer["current"]
                elif status == 404 and "no round to undo" in answer["error"]:
                    state = call(base_url, "GET", path, timeout=5)[1]  # another phone undid them all
                else:
                    raise AssertionError((status, answer))
        except (OSError, http.client.HTTPException):
            return  # the server died under us: connection refused or reset, or a truncated answer
        except Exception as error:
            errors.append(error)

    with ThreadPoolExecutor(WRITERS) as pool:
        for future in [pool.submit(writer, seat) for seat in range(WRITERS)]:
            future.result()


def check_consistent(app: Flask, games: list[tuple[str, str]], acknowledged: dict[str, int]) -> int:
    """Every invariant of a stored game; returns the number of rounds stored across the games."""
    stored_rounds = 0
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            with db.engine.connect() as connection:
                assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
                assert connection.execute(text("PRAGMA foreign_key_check")).all() == []
        for game_id, _ in games:
            game = db.session.get(Game, game_id)
            assert game is not None
            rounds = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number)).all()
            revisions = db.session.scalars(db.select(RoundRevision).filter_by(game_id=game_id)).all()
            assert [item.number for item in rounds] == list(range(1, len(rounds) + 1))
            for item in rounds:
                assert set(item.scores) == set(PLAYERS)
                assert item.went_out in PLAYERS and item.scores[item.went_out] == 0
            corrected = sum(1 for item in revisions if item.action == "corrected")
            undone = sum(1 for item in revisions if item.action == "undone")
            # Each write raised the version once: an add stores a round, a correction a revision,
            # an undo a revision and takes away the round that its add had stored.
            assert game.version == 1 + len(rounds) + corrected + 2 * undone
            assert game.version >= acknowledged.get(game_id, 1), "an acknowledged write was lost"
            assert game.finished == (len(rounds) >= 11)
            stored_rounds += len(rounds)
        db.session.remove()
    return stored_rounds


def test_sigkill_while_saving_leaves_every_game_consistent(app: Flask, database_url: str, tmp_path: Path) -> None:
    chooser = random.Random()
    games: list[tuple[str, str]] = []
    acknowledged: dict[str, int] = {}
    for cycle in range(CYCLES):
        process, base_url = start_gunicorn(tmp_path / f"server{cycle}", database_url, workers=2, threads=4)
        try:
            while len(games) < GAMES:
                status, game = call(base_url, "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS})
                assert status == 201, game
                games.append((game["id"], game["edit_key"]))
            stop = threading.Event()
            errors: list[Exception] = []
            writers = threading.Thread(target=hammer, args=(base_url, games, stop, acknowledged, errors))
            writers.start()
            time.sleep(chooser.uniform(0.4, 1.5))
        finally:
            kill_now(process)
        stop.set()
        writers.join(timeout=30)
        assert not writers.is_alive()
        assert errors == []
        check_consistent(fresh_app(database_url, tmp_path), games, acknowledged)
    assert sum(acknowledged.values()) > GAMES, "the writers wrote something before each kill"

    after = fresh_app(database_url, tmp_path)
    client = after.test_client()
    for game_id, key in games:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").get_json()
        if state["finished"]:
            last = f"/api/games/{game_id}/rounds/last?version={state['version']}"
            assert client.delete(last, headers={"X-Edit-Key": key}).status_code == 200
            state = client.get(f"/api/games/{game_id}").get_json()
        body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5, "Cy": 10, "Di": 15}, "version": state["version"]}
        response = client.post(f"/api/games/{game_id}/rounds", json=body, headers={"X-Edit-Key": key})
        assert response.status_code == 201, response.get_json()
        assert len(response.get_json()["rounds"]) == len(state["rounds"]) + 1
    check_consistent(after, games, acknowledged)


def test_migrations_build_the_models_schema_on_this_database(database_url: str, tmp_path: Path) -> None:
    """`flask db upgrade` on the tests' database (SQLite, or PostgreSQL in CI's second pass)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import upgrade

    app = fresh_app(database_url, tmp_path)
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
        db.engine.dispose()


def test_sqlite_writes_ahead_and_waits_for_a_busy_writer(tmp_path: Path) -> None:
    from companion.extensions import sqlite_pragma

    app = fresh_app(f"sqlite:///{tmp_path / 'wal.sqlite3'}", tmp_path)
    with app.app_context():
        assert sqlite_pragma(db.engine, "journal_mode") == "wal"
        assert sqlite_pragma(db.engine, "busy_timeout") == 5000
        assert sqlite_pragma(db.engine, "synchronous") == 1  # NORMAL
        db.engine.dispose()
