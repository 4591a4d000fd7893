"""gunicorn settings of `bash serve`: the database migrations applied in the process that serves.

`bash serve` starts gunicorn with ``--preload`` (the app is loaded once, in gunicorn's master
process, before the worker is forked) and this file as its config. ``on_starting`` then runs
what ``flask --app companion db upgrade`` would run, on that already loaded app, before gunicorn
listens: one Python start-up and one import of the app instead of two (a separate
`flask db upgrade` takes about a second). If a migration fails, gunicorn exits with the error
(status 1) and serves nothing. Once gunicorn listens,
``when_ready`` prints the addresses for this computer and for the phones at the table.
"""

from __future__ import annotations

from typing import Any

# No runtime-control socket in ~/.gunicorn: nothing at the table uses it, and two servers would share its path.
control_socket_disable = True

# The access log (when one is asked for, with --access-logfile) names the path without its query
# string (%(U)s, not the request line %(r)s): an old printed join link carries the edit key as
# ?key=, and no key may ever reach a log. deploy/card-table-companion.service uses the same format.
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'
access_log_format = ACCESS_LOG_FORMAT


def on_starting(server: Any) -> None:
    from flask_migrate import upgrade  # type: ignore[import-untyped]

    from companion.extensions import db

    app = server.app.wsgi()
    with app.app_context():
        upgrade()
        db.engine.dispose()  # no database connection is carried into the forked worker


def when_ready(server: Any) -> None:
    from companion.lan import lan_address

    port = server.LISTENERS[0].sock.getsockname()[1]
    print(
        "",
        "Card Table Companion is running.",
        f"  On this computer:        http://127.0.0.1:{port}",
        f"  On phones (same Wi-Fi):  http://{lan_address()}:{port}",
        "Press Ctrl+C to stop.",
        "",
        sep="\n",
        flush=True,
    )
