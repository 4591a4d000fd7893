"""The Flask extensions, created once and bound to an app in create_app, and the SQLite settings.

Every new SQLite connection gets write-ahead logging (readers never wait for a writer, a
killed server leaves a consistent file) with ``synchronous=NORMAL`` (a commit survives the
server being killed; only a power cut can lose the last commits, never consistency), and a busy
timeout (a writer waits up to 5 s for another instead of failing with "database is locked").

Foreign keys stay off, as SQLite has them by default: the ORM deletes a game's rounds itself,
and with them on, a batch migration that rebuilds the games table would delete every round.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of every model."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA synchronous=NORMAL",
)


def install(app: Flask, migrations: Path) -> None:
    """Bind the database (with the SQLite pragmas), the migrations, CSRF protection and compression to `app`."""
    db.init_app(app)
    app.teardown_appcontext(_end_session)  # runs before Flask-SQLAlchemy's own (teardowns run last first)
    configure_engines(app)
    migrate.init_app(app, db, directory=str(migrations), render_as_batch=True, compare_type=True)
    csrf.init_app(app)
    compress(app)


# Pages, stylesheets and scripts go compressed to a browser that asks (a phone gets the game page in about a
# third of its bytes): gzip, brotli or zstd for pages, scripts and stylesheets (companion/assets.py); other
# static files, which are streamed, with deflate, brotli or zstd (Flask-Compress streams no gzip). JSON is
# left as it is: its ETags ("v7") answer the live updates' If-None-Match.
COMPRESSED = ["text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml"]


def compress(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    Compress(app)


def _end_session(_error: BaseException | None) -> None:
    """Close the request's session; when the connection is gone and even the rollback fails, drop
    it and say so in the log, so that the answer already made still reaches the client (a failing
    teardown would turn it into the WSGI server's bare 500 page)."""
    try:
        db.session.remove()
    except SQLAlchemyError:
        drop_session("closing the database session failed")


def drop_session(what_failed: str) -> None:
    """Let the session go with its connection, which is dead: the database rolls back by itself."""
    current_app.logger.warning("%s; its connection is dropped", what_failed, exc_info=True)
    with suppress(SQLAlchemyError):
        db.session.registry().invalidate()
    db.session.registry.clear()


def _sqlite_connected(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def configure_engines(app: Flask) -> None:
    """Apply the SQLite pragmas to the app's engines (nothing to do for PostgreSQL)."""
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite" and not event.contains(engine, "connect", _sqlite_connected):
                event.listen(engine, "connect", _sqlite_connected)


def sqlite_pragma(engine: Engine, name: str) -> Any:
    """One PRAGMA's value on a fresh connection of `engine` (for the tests)."""
    with engine.connect() as connection:
        return connection.exec_driver_sql(f"PRAGMA {name}").scalar()
