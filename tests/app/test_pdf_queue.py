"""Issue 16, defect 3: PDF sheets are rendered away from the request threads, one at a time per
server process, kept in the database by game, version and paper, and refused with 503 when too
many are waiting."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import SheetPdf
from companion.services import pdfs, sheets
from tests.conftest import api_game, edit_key

PLAYERS = ["Ann", "Bob", "Cy"]


def play(client: FlaskClient, game: dict[str, Any]) -> None:
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5, "Cy": 9}}
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert response.status_code == 201, response.get_json()


def kept(app: Flask) -> list[tuple[str, int, str]]:
    with app.app_context():
        rows = db.session.execute(select(SheetPdf.game_id, SheetPdf.version, SheetPdf.paper)).all()
        return sorted((row[0], row[1], row[2]) for row in rows)


def test_the_pdf_is_rendered_in_a_child_process_at_a_lower_priority() -> None:
    pid, niceness = pdfs.RENDERER._executor().submit(_pid_and_niceness).result(60)
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + pdfs.NICENESS)


def _pid_and_niceness() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def test_a_sheet_is_kept_by_version_and_paper_and_served_from_the_database(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    play(client, game)
    first = client.get(f"/games/{game['id']}/sheet.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    assert kept(app) == [(game["id"], game["version"] + 1, "a4")]

    monkeypatch.setattr(pdfs, "render", lambda html: pytest.fail("rendered again"))
    again = client.get(f"/games/{game['id']}/sheet.pdf")
    assert again.data == first.data


def test_a_write_makes_a_new_sheet_and_drops_the_old_version(app: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    assert client.get(f"/games/{game['id']}/sheet.pdf?paper=letter").status_code == 200
    play(client, game)
    response = client.get(f"/games/{game['id']}/sheet.pdf")
    assert response.status_code == 200
    assert kept(app) == [(game["id"], game["version"] + 1, "a4")]
    assert b"Bob" in response.data or response.data.startswith(b"%PDF")


def test_deleting_the_game_deletes_its_sheets(app: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    assert client.get(f"/games/{game['id']}/sheet.pdf").status_code == 200
    assert client.delete(f"/api/games/{game['id']}", headers=edit_key(game)).status_code == 200
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(SheetPdf)) == 0


def test_a_full_queue_is_a_503_with_retry_after(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With PDF_QUEUE sheets pending, the next one is refused at once; nothing is kept."""
    app.config["PDF_QUEUE"] = 1
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    started, release = threading.Event(), threading.Event()

    def slow(html: str) -> bytes:
        started.set()
        release.wait(30)
        return b"%PDF-1.7 slow"

    # The child process cannot see a monkeypatch: hold the queue from this process instead.
    monkeypatch.setattr(pdfs.RENDERER, "_executor", lambda: _Inline(slow))
    answers: list[int] = []
    other = threading.Thread(target=lambda: answers.append(app.test_client().get("/sheets/pay-me.pdf").status_code))
    other.start()
    assert started.wait(30)
    try:
        response = client.get(f"/games/{game['id']}/sheet.pdf")
        assert response.status_code == 503
        assert response.headers["Retry-After"] == str(pdfs.RETRY_AFTER)
        assert "try again" in response.get_data(as_text=True)
        assert kept(app) == []
    finally:
        release.set()
        other.join(30)
    assert answers == [200]
    assert client.get(f"/games/{game['id']}/sheet.pdf").status_code == 200


def test_a_sheet_that_takes_too_long_is_a_503(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    app.config["PDF_TIMEOUT"] = 0.2
    release = threading.Event()

    def slow(html: str) -> bytes:
        release.wait(5)
        return b"%PDF"

    monkeypatch.setattr(pdfs.RENDERER, "_executor", lambda: _Inline(slow))
    started = time.monotonic()
    response = client.get("/sheets/pay-me.pdf")
    release.set()
    assert response.status_code == 503
    assert "Retry-After" in response.headers
    assert time.monotonic() - started < 5


def test_blank_sheet_errors_come_from_the_request_not_the_child(client: FlaskClient) -> None:
    response = client.get("/sheets/pay-me.pdf?players=" + ",".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    assert response.status_code == 400


def test_the_pdf_of_the_child_is_the_same_as_rendered_here() -> None:
    html = sheets.blank_sheet_pdf_html("pay-me", ["Ann", "Bob"], "a4")
    assert pdfs.RENDERER.run(sheets.html_to_pdf, html, limit=1, timeout=60).startswith(b"%PDF")


class _Inline:
    """An executor that runs the call on a thread of this process (the queue logic is the same)."""

    def __init__(self, call: Any) -> None:
        self.call = call

    def submit(self, _function: Any, html: str) -> Any:
        from concurrent.futures import Future

        future: Future[bytes] = Future()

        def work() -> None:
            future.set_result(self.call(html))

        threading.Thread(target=work, daemon=True).start()
        return future
