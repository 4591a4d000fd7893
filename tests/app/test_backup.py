"""`flask backup`: a consistent SQLite copy made with the online backup API, even while writing."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade

from companion import ROOT, backup, create_app

PLAYERS = ["Ann", "Bob", "Cy"]


def sqlite_app(tmp_path: Path, name: str = "live.sqlite3") -> Flask:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}"},
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        upgrade()
    return app


def start_games(app: Flask, count: int) -> list[str]:
    client = app.test_client()
    ids = []
    for _ in range(count):
        response = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"})
        assert response.status_code == 201
        ids.append(response.get_json()["id"])
    return ids


def games_in(path: Path) -> set[str]:
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return {row[0] for row in connection.execute("SELECT id FROM games")}
    finally:
        connection.close()


def test_backup_writes_a_copy_with_every_game(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path)
    ids = start_games(app, 3)
    target = tmp_path / "copies" / "cards.sqlite3"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"Backed up 3 games to {target}"
    assert games_in(target) == set(ids)
    assert not list(target.parent.glob(".*partial"))
    connection = sqlite3.connect(target)
    assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    connection.close()


def test_the_default_target_is_a_dated_file_in_the_instance_folder(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path)
    start_games(app, 1)
    result = app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    copies = list((tmp_path / "instance" / "backups").iterdir())
    assert len(copies) == 1
    assert re.fullmatch(r"companion-\d{8}-\d{6}\.sqlite3", copies[0].name)
    assert "Backed up 1 game to" in result.output
    assert backup.default_backup_path(Path("i"), datetime(2026, 11, 21, 9, 5, 7, tzinfo=UTC)) == Path(
        "i/backups/companion-20261121-090507.sqlite3"
    )


def test_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path)
    target = tmp_path / "there.sqlite3"
    target.write_text("keep me")
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code != 0
    assert "exists already" in result.output
    assert target.read_text() == "keep me"


def test_backup_while_another_connection_writes(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path)
    start_games(app, 5)
    source = tmp_path / "live.sqlite3"
    stop = threading.Event()
    written: list[int] = []
    failures: list[BaseException] = []

    def writer() -> None:
        connection = sqlite3.connect(source, timeout=30)
        try:
            number = 0
            while not stop.is_set():
                number += 1
                with connection:
                    connection.execute(
                        "INSERT INTO games (id, variant, options, players, first_dealer, edit_key_hash, finished, "
                        "created_at, updated_at, version) VALUES (?, 'pay-me', '{}', '[\"A\", \"B\"]', 0, 'x', 0, "
                        "'2026-01-01 00:00:00', '2026-01-01 00:00:00', 1)",
                        (f"writer:{number}",),
                    )
                written.append(number)
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while len(written) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        copies = []
        for number in range(3):
            target = tmp_path / f"copy{number}.sqlite3"
            result = app.test_cli_runner().invoke(args=["backup", str(target)])
            assert result.exit_code == 0, result.output
            copies.append(target)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not failures
    counts = []
    for target in copies:
        games = games_in(target)
        # Game ids from the app are URL-safe tokens, which never hold a colon.
        app_games = {game for game in games if not game.startswith("writer:")}
        assert app_games == games - {f"writer:{n}" for n in written}
        assert len(app_games) == 5
        # A snapshot: the writer's games up to some moment, with no gap.
        numbers = sorted(int(game.removeprefix("writer:")) for game in games - app_games)
        assert numbers == list(range(1, len(numbers) + 1))
        counts.append(len(numbers))
    assert counts == sorted(counts) and counts[0] >= 20
    assert games_in(source) >= games_in(copies[-1])


def test_postgresql_points_at_pg_dump(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u:p@127.0.0.1:9/cards"},
        instance_path=str(tmp_path),
    )
    result = app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code == 1
    assert 'pg_dump "$DATABASE_URL" > backup.sql' in result.output
    assert not (tmp_path / "backups").exists()


def test_an_in_memory_database_has_nothing_to_back_up(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path)
    )
    result = app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code != 0 and "in memory" in result.output


def test_a_missing_database_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="there is no database"):
        backup.backup_sqlite(tmp_path / "none.sqlite3", tmp_path / "copy.sqlite3")
    assert not (tmp_path / "none.sqlite3").exists()


def test_the_flask_command_line_runs_the_backup(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path)
    ids = start_games(app, 2)
    target = tmp_path / "cli.sqlite3"
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}",
        "FLASK_SECRET_KEY": '"t"',
    }
    environment.pop("FLASK_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "companion", "backup", str(target)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Backed up 2 games" in done.stdout
    assert games_in(target) == set(ids)
