"""``GET /healthz``: whether this server can read and write its database, for a proxy or a monitor.

200 ``{"status": "ok", "database": "ok"}`` when a query answers and a write probe (a row written
in a transaction that is rolled back; for SQLite, room on its disk) succeeds. Else 503 with
Retry-After: ``{"status": "unavailable", "database": "unreachable"}`` when no query answers,
``"cannot write"`` when reads work but writes would fail (read-only files, a full disk), so that a
proxy stops sending writes to this server. Never cached. On the games blueprint (the site's own
pages), so that the app keeps a small, fixed number of blueprints.
"""

from __future__ import annotations

from flask import Response, jsonify

from companion.errors import RETRY_AFTER_SECONDS
from companion.games.routes import bp
from companion.services import store


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    database = "ok"
    if not store.database_answers():
        database = "unreachable"
    elif not store.database_takes_writes():
        database = "cannot write"
    healthy = database == "ok"
    response = jsonify({"status": "ok" if healthy else "unavailable", "database": database})
    response.headers["Cache-Control"] = "no-store"
    if not healthy:
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response, 200 if healthy else 503
