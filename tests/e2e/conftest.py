"""Fixtures of the browser tests: headless Chromium, and the app served on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import create_app
from tests.browser import PHONE, launched_chromium
from tests.servers import threaded_server


@pytest.fixture
def browser() -> Iterator[Any]:
    with launched_chromium() as chromium:
        yield chromium


@pytest.fixture
def phone(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A 360x740 phone page and the errors its console reports; a test module may define its own."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, errors
    context.close()


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    """The app on a fresh, migrated SQLite database, behind werkzeug's threaded server."""
    from flask_migrate import upgrade

    app = create_app(
        {"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e2e.sqlite3'}"},
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        upgrade()
    with threaded_server(app) as url:
        yield url
