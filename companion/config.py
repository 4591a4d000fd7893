"""Settings: defaults, ``instance/config.py``, ``FLASK_`` environment variables, DATABASE_URL, the secret key."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask


def configure(app: Flask, test_config: dict[str, Any] | None = None) -> None:
    """Load the settings into `app`; later sources win.

    The order: the defaults, ``instance/config.py``, ``FLASK_``-prefixed environment variables,
    ``DATABASE_URL``, and `test_config`. Without a secret key one is generated into the instance folder.
    """
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "companion.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,
        # Flask-WTF's strict check wants a Referer on HTTPS form posts, but the pages send none
        # (Referrer-Policy: no-referrer): every form would fail behind an HTTPS proxy. The CSRF
        # token with SameSite=Lax cookies is the protection.
        WTF_CSRF_SSL_STRICT=False,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env()
    if os.environ.get("PUBLIC_GAME_LIST"):  # a private LAN server may list every game to anyone
        app.config["PUBLIC_GAME_LIST"] = os.environ["PUBLIC_GAME_LIST"].strip().lower() in ("1", "true", "yes", "on")
    database_url = os.environ.get("DATABASE_URL")
    if database_url:
        app.config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(database_url)
    if test_config:
        app.config.update(test_config)
    check_pooled_connections(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))


def check_pooled_connections(app: Flask) -> None:
    """A database server's pooled connections are tried before use (``pool_pre_ping``), so that a
    server restart costs one reconnect instead of an error on each dead connection. Not for SQLite:
    its connections are files that never drop."""
    if str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        return
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault("pool_pre_ping", True)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def normalise_database_url(url: str) -> str:
    """Point PostgreSQL URLs at the psycopg 3 driver that the ``postgres`` extra installs.

    >>> normalise_database_url("postgres://u:p@db/cards")
    'postgresql+psycopg://u:p@db/cards'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def instance_secret_key(instance: Path) -> str:
    """The key that signs sessions and CSRF tokens, generated into the instance folder once."""
    path = instance / "secret_key"
    if path.exists():
        key = path.read_text(encoding="utf-8").strip()
        if key:
            return key
    key = secrets.token_hex(32)
    path.write_text(key + "\n", encoding="utf-8")
    path.chmod(0o600)
    return key
