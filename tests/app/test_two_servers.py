"""More than one server (issue 16): two gunicorn servers on one database, eight writers that
alternate between them, and no acknowledged write lost.

The servers are separate gunicorn masters (two workers each) on two 127.0.0.1 ports, as two
machines behind a proxy would be; nothing but the database is shared. The test uses the tests'
database (`database_url`), so the PostgreSQL pass of CI (.ci/run: TEST_DATABASE_URL on the
throwaway cluster, TEST_DATABASE_ONLY) runs it on PostgreSQL; the default pass on SQLite.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.app.test_concurrency import (
    PLAYERS,
    check_answers_tell_the_truth,
    check_every_write_kept,
    check_totals,
    race_writers,
    round_body,
)
from tests.servers import call, gunicorn


@pytest.fixture
def servers(app: Flask, database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two app servers on the tests' database (its tables made by the `app` fixture)."""
    with (
        gunicorn(tmp_path / "one", database_url, workers=2, threads=2) as one,
        gunicorn(tmp_path / "two", database_url, workers=2, threads=2) as two,
    ):
        assert one != two
        yield one, two


def test_both_servers_answer_healthz_and_see_the_same_game(servers: tuple[str, str]) -> None:
    one, two = servers
    for server in servers:
        assert call(server, "GET", "/healthz") == (200, {"status": "ok", "database": "ok"})
    status, game = call(one, "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS, "first_dealer": "P1"})
    assert status == 201, game
    body = round_body(0, 7, game["version"])
    status, written = call(two, "POST", f"/api/games/{game['id']}/rounds", body, game["edit_key"])
    assert status == 201, written
    assert call(one, "GET", f"/api/games/{game['id']}") == (200, written)  # no stale cached state on server one


def test_eight_writers_alternating_between_two_servers_lose_nothing(servers: tuple[str, str], app: Flask) -> None:
    status, game = call(
        servers[0], "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS, "first_dealer": "P1"}
    )
    assert status == 201, game
    game_id, key = game["id"], game["edit_key"]
    path = f"/api/games/{game_id}"

    def read_back_on_the_other_server(number: int, attempt: int, answer: dict[str, Any]) -> None:
        # The other server reads at least this version at once (its cache is keyed by version).
        seen = call(servers[(number + attempt + 1) % 2], "GET", path)[1]
        assert seen["version"] >= answer["version"]

    acknowledged, conflicts = race_writers(servers, path, key, read_back_on_the_other_server)
    assert conflicts > 0, "the writers never met: the test proved nothing"
    check_every_write_kept(app, game_id, acknowledged)
    check_answers_tell_the_truth(acknowledged)  # each answer is built in its own write's transaction
    for server in servers:
        state = call(server, "GET", path)[1]
        assert state["version"] == 1 + len(acknowledged), "every acknowledged write raised the version once"
        check_totals(state)
