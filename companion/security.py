"""Security settings shared by every response: headers, rate limits, debug guard.

The bounds on input (cards in a hand, rows of an import, digits of a number) are in companion.bounds.

- Every response carries a Content-Security-Policy without inline script or style,
  ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` and a ``Referrer-Policy``
  that never sends an address (a join link carries an edit key).
- Starting games and groups is counted per client address (those started, and apart from them the
  attempts refused), wrong edit keys per game and client address,
  in fixed one-minute (or other) windows kept in the database (companion.services.limits), so
  every worker and every server counts together. Past the limit the answer is 429
  (companion.errors): a one-sentence JSON error under ``/api/``, a page otherwise. The wrong edit
  keys are counted by companion.keys; a right key is never refused.
- The client address is the connection's, unless ``PROXY_COUNT`` says how many reverse proxies
  stand in front: then it comes from their ``X-Forwarded-For`` (werkzeug's ProxyFix), and the
  scheme from ``X-Forwarded-Proto``.
- The app refuses to start in debug mode unless ``ALLOW_DEBUG`` is set (development only).

Settings (app config): ``RATELIMIT_ENABLED`` (default: on, except when ``TESTING``),
``RATELIMIT_CREATE`` (default ``"30/minute"``), ``RATELIMIT_CREATE_REFUSED`` (default ``"60/minute"``),
``RATELIMIT_WRONG_KEY`` (default ``"20/minute"``),
``CONTENT_SECURITY_POLICY``, ``REFERRER_POLICY``, ``ALLOW_DEBUG``, ``PROXY_COUNT`` (default 0).
"""

from __future__ import annotations

import re

from flask import Flask, current_app, request
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from companion.services import limits

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; worker-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
REFERRER_POLICY = "no-referrer"
DOCUMENTS_WITHOUT_POLICY = frozenset({"application/pdf"})
"""Chrome shows a PDF in a page of its own that a page policy would break (crbug.com/271452);
a PDF runs no script of ours, so it gets no Content-Security-Policy and no X-Frame-Options."""

CREATE_ENDPOINTS = frozenset(
    {
        "games.new_game",
        "api.create_game",
        "games.rematch",
        "play_or_pay.new_play_or_pay",
        "api.import_game",
        "games.import_game",
        "groups.new_group",
        "groups.start_game",
        "api.create_group",
    }
)
"""Endpoints whose POST starts a game or a group (counted against RATELIMIT_CREATE when it does)."""

CREATE_BUCKETS = (("create", "RATELIMIT_CREATE"), ("create-refused", "RATELIMIT_CREATE_REFUSED"))
"""The counters of creating POSTs: those that created something, and those refused."""

TOO_MANY_CREATED = "Too many games were started from this address; wait a minute and try again."

_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_LIMIT = re.compile(r"\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*", re.IGNORECASE)


def parse_limit(text: str) -> tuple[int, int]:
    """A limit such as ``"30/minute"``, ``"20 per minute"`` or ``"100/10 minutes"`` as (count, seconds).

    >>> parse_limit("30/minute")
    (30, 60)
    >>> parse_limit("100 per 10 minutes")
    (100, 600)
    """
    match = _LIMIT.fullmatch(text)
    if not match:
        raise ValueError(f"not a rate limit: {text!r} (write it like 30/minute)")
    count, multiple, period = match.groups()
    return int(count), int(multiple or 1) * _PERIODS[period.lower()]


def hit_limit(bucket: str, client: str, limit: str) -> bool:
    """Count one event of `client` against `limit`; False when it goes past (refuse the event).

    The counts are in the database (companion.services.limits), so every worker and every
    server behind a proxy counts together.
    """
    allowed, seconds = parse_limit(limit)
    return limits.hit(f"{bucket}|{client}", allowed, seconds)


def limits_enabled() -> bool:
    return bool(current_app.config.get("RATELIMIT_ENABLED"))


def client_address() -> str:
    return request.remote_addr or "unknown"


def _creating() -> bool:
    return request.method == "POST" and request.endpoint in CREATE_ENDPOINTS and limits_enabled()


def _limit_creation() -> None:
    """Refuse a creating POST once this address has created its limit of games and groups, or had
    its limit of creations refused; nothing is counted yet (see _count_creation)."""
    if not _creating():
        return
    for bucket, setting in CREATE_BUCKETS:
        allowed, _ = parse_limit(current_app.config[setting])
        if limits.exhausted(f"{bucket}|{client_address()}", allowed):
            raise TooManyRequests(TOO_MANY_CREATED)


def _count_creation(response: Response) -> Response:
    """Count a creating POST once answered: a game or group made (2xx, or a redirect to it) against
    RATELIMIT_CREATE, a refusal (4xx) against RATELIMIT_CREATE_REFUSED; a 429 is not counted."""
    if _creating() and response.status_code != TooManyRequests.code and response.status_code < 500:
        bucket, setting = CREATE_BUCKETS[0] if response.status_code < 400 else CREATE_BUCKETS[1]
        hit_limit(bucket, client_address(), current_app.config[setting])
    return response


def _security_headers(response: Response) -> Response:
    config = current_app.config
    headers = response.headers
    if response.mimetype not in DOCUMENTS_WITHOUT_POLICY:
        headers.setdefault("Content-Security-Policy", config["CONTENT_SECURITY_POLICY"])
        headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", config["REFERRER_POLICY"])
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


def refuse_debug(app: Flask) -> None:
    """Debug mode shows code and a console to anyone: only for development, when asked for."""
    if app.debug and not app.config.get("ALLOW_DEBUG"):
        raise RuntimeError(
            "refusing to start in debug mode: unset FLASK_DEBUG, or set FLASK_ALLOW_DEBUG=true on a development machine"
        )


def trust_proxies(app: Flask) -> None:
    """Behind PROXY_COUNT reverse proxies, take the client's address and scheme from the
    X-Forwarded-For and X-Forwarded-Proto headers they add (werkzeug's ProxyFix); without the
    setting those headers are ignored, as any client can send them. The edit-key cookie is then
    Secure whenever the proxy was reached over HTTPS."""
    count = int(app.config.get("PROXY_COUNT") or 0)
    if count < 0:
        raise ValueError(f"PROXY_COUNT must be 0 or more, not {count}")
    if count:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]


def install(app: Flask) -> None:
    """Install the headers, the rate limits and the debug guard (the 429 answers are in companion.errors)."""
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.config.setdefault("RATELIMIT_CREATE", "30/minute")
    app.config.setdefault("RATELIMIT_CREATE_REFUSED", "60/minute")
    app.config.setdefault("RATELIMIT_WRONG_KEY", "20/minute")
    app.config.setdefault("CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)
    app.config.setdefault("REFERRER_POLICY", REFERRER_POLICY)
    app.config.setdefault("ALLOW_DEBUG", False)
    for name in ("RATELIMIT_CREATE", "RATELIMIT_CREATE_REFUSED", "RATELIMIT_WRONG_KEY"):
        parse_limit(app.config[name])  # a typo in a limit fails at start, not on a request
    refuse_debug(app)
    trust_proxies(app)
    app.before_request(_limit_creation)
    app.after_request(_count_creation)
    app.after_request(_security_headers)
