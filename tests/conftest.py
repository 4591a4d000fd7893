"""Shared fixtures for the web app tests: an app on a temporary SQLite database."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.extensions import db

CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret key",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def read_csrf_token(client: FlaskClient) -> str:
    """A CSRF token for this client's session, read from the new-game form."""
    page = client.get("/games/new").get_data(as_text=True)
    match = CSRF_INPUT.search(page)
    assert match, "no CSRF token on the new-game page"
    return match.group(1)


@pytest.fixture
def post_form(client: FlaskClient) -> Callable[..., Any]:
    """POST a form the way a browser does, with this session's CSRF token."""

    def post(url: str, data: dict[str, Any], browser: FlaskClient | None = None) -> Any:
        sender = browser or client
        return sender.post(url, data={"csrf_token": read_csrf_token(sender), **data})

    return post
