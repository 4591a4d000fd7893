"""Issue 16: /healthz says whether the server reaches its database (200 or 503, JSON)."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from companion import create_app
from tests.conftest import app_on


def test_healthz_is_200_when_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


def test_healthz_is_503_when_the_database_does_not_answer(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'no-such-folder' / 'gone.sqlite3'}"  # SQLite cannot open it
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": missing}, instance_path=str(tmp_path / "i")
    )
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "unavailable", "database": "unreachable"}


def test_healthz_answers_on_the_tests_database(tmp_path: Path, database_url: str) -> None:
    """On PostgreSQL too (the tests' database: its PostgreSQL pass)."""
    with app_on(tmp_path, database_url) as app:
        assert app.test_client().get("/healthz").status_code == 200


def test_healthz_is_not_allowed_to_post(client: FlaskClient) -> None:
    assert client.post("/healthz").status_code in (400, 405)
