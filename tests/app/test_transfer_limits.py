"""Issue 16, defect 4: a game's own export always imports back, pretty-printed and with a long history."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import RoundRevision
from companion.services import transfer
from tests.conftest import api_game, edit_key

# Eight players with the longest names, non-ASCII (more bytes per character in UTF-8).
PLAYERS = [f"{'Ä' * 38}{seat:02}" for seat in range(8)]
HAND = "10H 10D 10S 10C QH QD QS QC JK JK 2H 2D 2S 2C"  # 14 cards, the most a round deals


def game_with_history(app: Flask, client: FlaskClient, entries: int) -> dict[str, Any]:
    """A Pay Me game with one round and `entries` corrections, each keeping every player's cards
    (written straight to the table: the API would take minutes for thousands)."""
    game = api_game(client, "pay-me", PLAYERS, PLAYERS[0])
    # 45: the most 3 cards score in round 1; the history below keeps 999s, more than the app now writes.
    body = {"went_out": PLAYERS[0], "scores": {name: 0 if name == PLAYERS[0] else 45 for name in PLAYERS}}
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert response.status_code == 201, response.get_json()
    with app.app_context():
        db.session.add_all(
            RoundRevision(
                game_id=game["id"],
                number=1,
                action="corrected",
                went_out=PLAYERS[0],
                scores={name: 0 if name == PLAYERS[0] else 999 for name in PLAYERS},
                hands={name: HAND for name in PLAYERS[1:]},
            )
            for _ in range(entries)
        )
        db.session.commit()
    return game


def history_length(app: Flask, game_id: str) -> int:
    with app.app_context():
        query = select(func.count()).select_from(RoundRevision).where(RoundRevision.game_id == game_id)
        return db.session.scalar(query) or 0


def test_the_pages_pretty_export_over_512_kib_with_1001_corrections_imports(app: Flask, client: FlaskClient) -> None:
    """Before: 413 for the pretty-printed file, and "round_revisions has more than 1000 rows"."""
    game = game_with_history(app, client, 1_001)
    exported = client.get(f"/games/{game['id']}/export.json")
    assert exported.status_code == 200
    raw = exported.get_data()
    assert len(raw) > 512 * 1024
    assert b'\n "game"' in raw  # pretty-printed, as the page gives it
    response = client.post("/api/games/import", data=raw, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    assert history_length(app, response.get_json()["id"]) == 1_001


def test_the_import_limit_holds_the_largest_export_the_app_writes(app: Flask, client: FlaskClient) -> None:
    """Measured, not guessed: the most corrections an import takes, of 8 long-named players with
    every hand's cards."""
    game = game_with_history(app, client, transfer.MAX_ROWS["round_revisions"])
    raw = client.get(f"/games/{game['id']}/export.json").get_data()
    assert len(raw) < transfer.MAX_IMPORT_BYTES
    document = json.loads(raw)
    assert len(document["tables"]["round_revisions"]) == transfer.MAX_ROWS["round_revisions"]
    response = client.post("/api/games/import", data=raw, content_type="application/json")
    assert response.status_code == 201, response.get_json()


def test_the_import_route_has_its_own_body_limit(client: FlaskClient) -> None:
    """Other routes keep the app's 64 KiB limit; the import takes up to MAX_IMPORT_BYTES."""
    big = b'{"format": "' + b"x" * (100 * 1024) + b'"}'
    assert client.post("/api/games", data=big, content_type="application/json").status_code == 413
    response = client.post("/api/games/import", data=big, content_type="application/json")
    assert response.status_code == 400
    assert "not a game export" in response.get_json()["error"]
    over = b" " * (transfer.MAX_IMPORT_BYTES + 1)
    assert client.post("/api/games/import", data=over, content_type="application/json").status_code == 413
