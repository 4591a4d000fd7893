"""Card Table Companion: the web app a table keeps open while playing contract rummy."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from companion import paths

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None, *, instance_path: str | None = None) -> Flask:
    """Build the app.

    Settings come, in this order (later wins), from the defaults, ``instance/config.py``,
    ``FLASK_``-prefixed environment variables, ``DATABASE_URL``, and `test_config`.
    """
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=str(paths.templates_folder()),
        static_folder=str(paths.static_folder()),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "companion.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env()
    database_url = os.environ.get("DATABASE_URL")
    if database_url:
        app.config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(database_url)
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
    app.json.sort_keys = False  # type: ignore[attr-defined]

    from companion import api, views
    from companion.db_setup import configure_engines
    from companion.extensions import csrf, db, migrate

    db.init_app(app)
    configure_engines(app)
    migrate.init_app(app, db, directory=str(paths.migrations_folder()), render_as_batch=True, compare_type=True)
    csrf.init_app(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    views.init_app(app)
    from companion import money_api, money_views  # the 3-13 pot and Play or Pay chips (issue 6)

    money_views.init_app(app)
    csrf.exempt(money_api.bp)
    from companion import backup, live, security, sharing

    security.init_app(app)
    sharing.init_app(app)
    live.init_app(app)
    backup.init_app(app)
    from companion import dispute_api, dispute_views  # checks, lay-offs, scores from cards, rules (issue 5)

    app.register_blueprint(dispute_views.bp)
    app.register_blueprint(dispute_api.bp)
    csrf.exempt(dispute_api.bp)
    from companion import sheet_views  # printable sheets, exports and import (issue 7)

    sheet_views.init_app(app)
    return app


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
