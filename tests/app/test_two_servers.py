"""More than one server (issue 16): two gunicorn servers on one database, eight writers that
alternate between them, and no acknowledged write lost.

The servers are separate gunicorn masters (two workers each) on two 127.0.0.1 ports, as two
machines behind a proxy would be; nothing but the database is shared. The test uses the tests'
database (`database_url`), so the PostgreSQL pass of CI (.ci/run: TEST_DATABASE_URL on the
throwaway cluster, TEST_DATABASE_ONLY) runs it on PostgreSQL; the default pass on SQLite.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.app.test_concurrency import PLAYERS, ROUNDS, WRITERS, all_at_once, check_totals, round_body, stored
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
    lock = threading.Lock()
    acknowledged: list[tuple[int, str, int, dict[str, Any]]] = []  # version, add or fix, round, body
    conflicts = [0]

    def writer(number: int) -> None:
        chooser = random.Random(number)
        state = call(servers[number % 2], "GET", path)[1]
        after_the_end = 0
        for attempt in range(300):
            server = servers[(number + attempt) % 2]  # every writer alternates between the servers
            played = len(state["rounds"])
            correcting = played > 0 and (played >= ROUNDS or chooser.random() < 0.3)
            if played >= ROUNDS:
                after_the_end += 1
                if after_the_end > 3:
                    return
            body = round_body(number, 1000 * number + attempt, state["version"])
            if correcting:
                target = chooser.randint(1, played)
                status, answer = call(server, "PUT", f"{path}/rounds/{target}", body, key)
            else:
                target = played + 1
                status, answer = call(server, "POST", f"{path}/rounds", body, key)
            if status in (200, 201):
                with lock:
                    acknowledged.append((answer["version"], "add" if status == 201 else "fix", target, body))
                state = answer
                # The other server reads at least this version at once (its cache is keyed by version).
                seen = call(servers[(number + attempt + 1) % 2], "GET", path)[1]
                assert seen["version"] >= answer["version"]
            elif status == 409:
                with lock:
                    conflicts[0] += 1
                state = answer["current"]
            else:
                raise AssertionError((status, answer))

    all_at_once([lambda number=number: writer(number) for number in range(WRITERS)])  # type: ignore[misc]

    assert conflicts[0] > 0, "the writers never met: the test proved nothing"
    adds = {target: body for _, kind, target, body in acknowledged if kind == "add"}
    assert sorted(adds) == list(range(1, ROUNDS + 1))
    assert len(adds) == sum(1 for _, kind, _, _ in acknowledged if kind == "add"), "a round was added twice"
    rounds, revisions = stored(app, game_id)
    assert [number for number, _, _ in rounds] == list(range(1, ROUNDS + 1))
    for number, went_out, scores in rounds:
        chain = [(old_out, old_scores) for n, _, old_out, old_scores in revisions if n == number]
        chain.append((went_out, scores))
        assert chain[0] == (adds[number]["went_out"], adds[number]["scores"])
        fixes = [
            (body["went_out"], body["scores"]) for _, kind, n, body in acknowledged if (kind, n) == ("fix", number)
        ]
        assert sorted(map(str, chain[1:])) == sorted(map(str, fixes)), f"round {number} lost an acknowledged write"
    # Not asserted: that no two answers carry the same version. A write's answer is read after its
    # commit, so when the other server commits in between, the answer shows that later version
    # (nothing is lost; the answer is just newer than the write). Known, left for a later fix.
    for server in servers:
        state = call(server, "GET", path)[1]
        assert state["version"] == 1 + len(acknowledged), "every acknowledged write raised the version once"
        check_totals(state)
