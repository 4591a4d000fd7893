"""``flask --app companion backup [PATH]``: a consistent copy of the database.

SQLite: the online backup API (``sqlite3.Connection.backup``) copies the database in one step
while the app keeps running; writers wait, readers go on, and the copy is a snapshot of one
moment. The copy is written beside its target and renamed into place, so a target file is
either complete or absent. The default target is
``instance/backups/companion-YYYYmmdd-HHMMSS.sqlite3``.

PostgreSQL: the command prints the ``pg_dump`` line to use and exits with status 1.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from companion.extensions import db

PG_DUMP_HINT = (
    'For PostgreSQL, back up with: pg_dump "$DATABASE_URL" > backup.sql  (restore: psql "$DATABASE_URL" < backup.sql)'
)


def default_backup_path(instance: Path, now: datetime | None = None) -> Path:
    """instance/backups/companion-YYYYmmdd-HHMMSS.sqlite3 (UTC)."""
    moment = now or datetime.now(UTC)
    return instance / "backups" / f"companion-{moment:%Y%m%d-%H%M%S}.sqlite3"


def backup_sqlite(source: Path, target: Path) -> int:
    """Copy the SQLite database `source` to `target` (which must not exist); returns the number of games."""
    if not source.is_file():
        raise click.ClickException(f"there is no database at {source}")
    if target.exists():
        raise click.ClickException(f"{target} exists already; choose another file name")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            with copy:
                reader.backup(copy)  # all pages in one step: a snapshot of one moment
            copy.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            if copy.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise click.ClickException("the copy failed its integrity check; nothing was written")
            games = _count_games(copy)
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        reader.close()
    os.replace(partial, target)
    return games


def _count_games(connection: sqlite3.Connection) -> int:
    try:
        row = connection.execute("SELECT count(*) FROM games").fetchone()
    except sqlite3.OperationalError:  # an empty database, before `flask db upgrade`
        return 0
    return int(row[0])


@click.command("backup")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path | None) -> None:
    """Write a consistent copy of the database to PATH (default: instance/backups/companion-<time>.sqlite3)."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite":
        click.echo(PG_DUMP_HINT, err=True)
        raise click.exceptions.Exit(1)
    if not url.database or url.database == ":memory:" or url.database.startswith("file::memory:"):
        raise click.ClickException("the database is in memory; there is no file to back up")
    target = path or default_backup_path(Path(current_app.instance_path))
    games = backup_sqlite(Path(url.database), target)
    click.echo(f"Backed up {games} game{'s' if games != 1 else ''} to {target}")
