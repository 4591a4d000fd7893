"""Card Table Companion: the web app a table keeps open while playing contract rummy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion.config import normalise_database_url

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["ROOT", "create_app", "normalise_database_url"]


def create_app(test_config: dict[str, Any] | None = None, *, instance_path: str | None = None) -> Flask:
    """Build the app.

    Settings come, in this order (later wins), from the defaults, ``instance/config.py``,
    ``FLASK_``-prefixed environment variables, ``DATABASE_URL``, and `test_config` (companion.config).
    """
    # Imported here, so that `import companion` stays light (`python -m companion.lan` in `serve`).
    from companion import (
        api,
        assets,
        config,
        disputes,
        errors,
        extensions,
        games,
        groups,
        keys,
        paths,
        play_or_pay,
        pool,
        rules,
        security,
        sharing,
        sheets,
    )
    from companion.backup import backup_command
    from companion.services import kinds

    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=str(paths.templates_folder()),
        static_folder=str(paths.static_folder()),
    )
    config.configure(app, test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    extensions.install(app, paths.migrations_folder())
    assets.install(app)
    security.install(app)
    keys.install(app)
    errors.install(app, current_state=kinds.current_state)
    blueprints = (  # the pages of each feature, and the one /api blueprint
        games.routes.bp,
        play_or_pay.routes.bp,
        pool.routes.bp,
        disputes.routes.bp,
        rules.routes.bp,
        sheets.routes.bp,
        sharing.routes.bp,
        groups.routes.bp,
        api.bp,
    )
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    extensions.csrf.exempt(api.bp)  # the API takes the edit key in a header, never a cookie
    app.cli.add_command(backup_command)
    return app
