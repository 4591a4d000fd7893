"""Issue 28, section 7: eight games started in one group at once, each with a new player: no name is lost.

Behind gunicorn with several workers, on the tests' database (SQLite, or PostgreSQL when
TEST_DATABASE_URL is set).
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Group
from companion.services import groups
from tests.app.test_concurrency import all_at_once
from tests.servers import call, gunicorn

FOUNDERS = ["Ann", "Bob"]
NEWCOMERS = [f"New {n}" for n in range(8)]


def test_eight_games_started_at_once_keep_every_new_member(app: Flask, database_url: str, tmp_path: Path) -> None:
    with gunicorn(tmp_path / "gunicorn", database_url, workers=3, threads=3) as base_url:
        status, group = call(base_url, "POST", "/api/groups", {"name": "Friday", "players": FOUNDERS})
        assert status == 201, group

        def start(name: str) -> int:
            body = {"variant": "pay-me", "players": [*FOUNDERS, name], "first_dealer": "Ann", "group": group["id"]}
            status, answer = call(base_url, "POST", "/api/games", body, headers={"X-Group-Key": group["edit_key"]})
            assert status == 201, answer
            return status

        assert all_at_once([lambda name=name: start(name) for name in NEWCOMERS]) == [201] * len(NEWCOMERS)  # type: ignore[misc]
    with app.app_context():
        stored = groups.members_of(db.session.get(Group, group["id"]))
    assert stored[:2] == FOUNDERS
    assert sorted(stored[2:]) == sorted(NEWCOMERS)


def test_a_member_joins_once_whatever_the_case_of_the_name(app: Flask, client: FlaskClient) -> None:
    group = client.post("/api/groups", json={"name": "Friday", "players": FOUNDERS}).get_json()
    for players in (["ann", "Cy"], ["Ann", "CY", "Dee"], ["Bob", "Cy"]):
        body = {"variant": "pay-me", "players": players, "first_dealer": players[0], "group": group["id"]}
        assert client.post("/api/games", json=body, headers={"X-Group-Key": group["edit_key"]}).status_code == 201
    with app.app_context():
        assert groups.members_of(db.session.get(Group, group["id"])) == [
            *FOUNDERS,
            "Cy",
            "Dee",
        ]
