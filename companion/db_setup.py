"""Connection settings for SQLite, so that several phones (and server workers) can write at once.

Every new SQLite connection gets write-ahead logging (readers never wait for a writer, a
killed server leaves a consistent file) with ``synchronous=NORMAL`` (a commit survives the
server being killed; only a power cut can lose the last commits, never consistency), and a busy
timeout (a writer waits up to 5 s for another instead of failing with "database is locked").

Foreign keys stay off, as SQLite has them by default: the ORM deletes a game's rounds itself,
and with them on, a batch migration that rebuilds the games table would delete every round.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA synchronous=NORMAL",
)


def _sqlite_connected(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def configure_engines(app: Flask) -> None:
    """Apply the SQLite pragmas to the app's engines (nothing to do for PostgreSQL)."""
    from companion.extensions import db

    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite" and not event.contains(engine, "connect", _sqlite_connected):
                event.listen(engine, "connect", _sqlite_connected)


def sqlite_pragma(engine: Engine, name: str) -> Any:
    """One PRAGMA's value on a fresh connection of `engine` (for the tests)."""
    with engine.connect() as connection:
        return connection.exec_driver_sql(f"PRAGMA {name}").scalar()
