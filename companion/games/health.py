"""``GET /healthz``: whether this server can reach its database, for a proxy or a monitor.

200 ``{"status": "ok", "database": "ok"}`` when one query answers, else 503
``{"status": "unavailable", "database": "unreachable"}``. Never cached. On the games blueprint
(the site's own pages), so that the app keeps a small, fixed number of blueprints.
"""

from __future__ import annotations

from flask import Response, jsonify

from companion.games.routes import bp
from companion.services import store


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    healthy = store.database_answers()
    body = {"status": "ok" if healthy else "unavailable", "database": "ok" if healthy else "unreachable"}
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response, 200 if healthy else 503
