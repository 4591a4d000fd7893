"""Shared fixtures for the web app tests: an app on a temporary database.

The database is a temporary SQLite file per test, or, when ``TEST_DATABASE_URL`` names a
PostgreSQL server (``postgresql+psycopg://user@/dbname?host=/socket/dir&port=5432``), a fresh
schema in that database per test, dropped afterwards.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from companion import create_app
from companion.extensions import db

CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")

# Property tests check correctness, not speed (benchmarks do that): a per-example deadline only
# turns a busy CI machine into a failure.
# On CI the examples are derandomized, so a run is repeatable and a property test cannot fail by
# the luck of the draw; a developer's run explores new examples every time.
settings.register_profile("suite", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("suite")


def _keep_compiled_url_builders() -> None:
    """Every test makes an app, and werkzeug compiles each URL rule's builder anew for it (Python
    code made from an AST: about 0.1 s of each test's setup, minutes of a CI run). One rule always
    compiles to the same unbound function, so the tests keep one per rule and bind it to each app's
    rule as werkzeug does. Only a speed-up: without the private method, nothing changes."""
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    kept: dict[tuple[str, str, str, bool], Any] = {}

    def keep(rule: Rule, append_unknown: bool = True) -> Any:
        key = (rule.rule, repr(rule._trace), repr(sorted((rule.defaults or {}).items())), append_unknown)
        if key not in kept:
            kept[key] = compile_builder(rule, append_unknown)
        return kept[key]

    Rule._compile_builder = keep  # type: ignore[method-assign]


_keep_compiled_url_builders()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests get one retry (BROWSER_RERUNS=0 turns it off, to hunt a flaky test); with
    TEST_DATABASE_ONLY set, run only the tests that use the tests' database (the PostgreSQL pass of CI)."""
    reruns = int(os.environ.get("BROWSER_RERUNS", "1"))
    for item in items:
        if reruns and item.get_closest_marker("browser"):
            # A safety net only: a rerun is counted and named at the end of the run (pytest_terminal_summary).
            item.add_marker(pytest.mark.flaky(reruns=reruns, reruns_delay=1))
    if not os.environ.get("TEST_DATABASE_ONLY"):
        return
    selected = [item for item in items if "database_url" in getattr(item, "fixturenames", ())]
    deselected = [item for item in items if item not in selected]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many browser tests needed their silent retry: a rerun hides a race a table could meet."""
    reruns = terminalreporter.stats.get("rerun", [])
    names = sorted({report.nodeid for report in reruns})
    database = "PostgreSQL" if TEST_DATABASE_URL else "SQLite"
    terminalreporter.write_sep("=", f"Reruns on {database}: {len(reruns)}", bold=True, yellow=bool(reruns))
    for name in names:
        terminalreporter.write_line(f"rerun: {name}")


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Any]:
    """An engine on the TEST_DATABASE_URL server, to create and drop the test schemas."""
    from sqlalchemy import create_engine

    from companion import normalise_database_url

    engine = create_engine(normalise_database_url(TEST_DATABASE_URL), isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


@pytest.fixture
def database_url(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of an empty database for one test: SQLite in tmp_path, or a fresh PostgreSQL schema."""
    if not TEST_DATABASE_URL:
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    from sqlalchemy import make_url, text

    from companion import normalise_database_url

    admin = request.getfixturevalue("postgres_admin")
    schema = f"test_{secrets.token_hex(6)}"
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(normalise_database_url(TEST_DATABASE_URL)).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text("SET lock_timeout = '20s'"))  # a killed server's session may linger a moment
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))


def api_game(client: FlaskClient, variant: str, players: list[str], first_dealer: str, **options: Any) -> Any:
    """Start a game through the JSON API (options only when given); its state with the edit key."""
    body: dict[str, Any] = {"variant": variant, "players": players, "first_dealer": first_dealer}
    if options:
        body["options"] = options
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def every_game(client: FlaskClient) -> list[dict[str, Any]]:
    """Every stored game (its first page), through the open list of a private LAN server (PUBLIC_GAME_LIST)."""
    config = client.application.config
    before = config.get("PUBLIC_GAME_LIST", False)
    config["PUBLIC_GAME_LIST"] = True
    try:
        response = client.get("/api/games")
    finally:
        config["PUBLIC_GAME_LIST"] = before
    assert response.status_code == 200, response.get_json()
    games: list[dict[str, Any]] = response.get_json()["games"]
    return games


def edit_key(game: dict[str, Any]) -> dict[str, str]:
    """The header that carries a game's edit key."""
    return {"X-Edit-Key": game["edit_key"]}


@contextmanager
def app_on(tmp_path: Path, database_url: str, **config: Any) -> Iterator[Flask]:
    """An app in testing mode on the tests' database, its tables made; closed afterwards."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test secret key", "SQLALCHEMY_DATABASE_URI": database_url, **config},
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    with app_on(tmp_path, database_url) as made:
        yield made


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
