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
- Reads of a game's or group's pages (READ_LIMITED_PAGES) are limited per client address by a
  token bucket in each worker's memory (``RATELIMIT_PAGE_READS``, default ``"30/10 seconds"``: 30 at
  once, then 3 a second, enough for the phones of a table behind one address): a client reading
  pages back to back is answered a small 429 with ``Retry-After`` past it, so it cannot keep the
  workers' cores from the other tables (issue 28). The 429 is answered by a WSGI middleware
  (ReadGate) before Flask builds a request: no session, no hook, no database, about a tenth of the
  CPU of a refusal through Flask. Counting them in
  the database would cost a write per read, the very cost being limited; with several workers each
  counts its own, so a client may read that many per worker.
- The client address is the connection's, unless ``PROXY_COUNT`` says how many reverse proxies
  stand in front: then it comes from their ``X-Forwarded-For`` (werkzeug's ProxyFix), and the
  scheme from ``X-Forwarded-Proto``.
- The app refuses to start in debug mode unless ``ALLOW_DEBUG`` is set (development only).

Settings (app config): ``RATELIMIT_ENABLED`` (default: on, except when ``TESTING``),
``RATELIMIT_CREATE`` (default ``"30/minute"``), ``RATELIMIT_CREATE_REFUSED`` (default ``"60/minute"``),
``RATELIMIT_WRONG_KEY`` (default ``"20/minute"``), ``RATELIMIT_PAGE_READS`` (default ``"30/10 seconds"``),
``CONTENT_SECURITY_POLICY``, ``REFERRER_POLICY``, ``ALLOW_DEBUG``, ``PROXY_COUNT`` (default 0).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import HTTPException, TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from companion.services import limits

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

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


TOO_MANY_READS = "This address asked for pages faster than a table reads them; wait a moment and reload."
READ_LIMITED_PAGES = frozenset(
    {
        "games.game_page",
        "disputes.game_checker",
        "disputes.layoffs",
        "play_or_pay.hand_page",
        "pool.pool_page",
        "groups.group_page",
    }
)
"""The pages a client may read only so often: those that read a game (or group) from the database
and render it. Redirects, forms, files and the JSON API (its live poll answers 304 from the version
alone) are outside the limit."""


class ReadBuckets:
    """Token buckets of page reads by client address, in this worker (the latest `most` addresses)."""

    def __init__(self, allowed: int, seconds: int, most: int = 10_000) -> None:
        self._capacity = float(allowed)
        self._rate = allowed / seconds
        self._most = most
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens left, when
        self._lock = threading.Lock()

    def take(self, client: str, now: float) -> float:
        """0 when `client` may read a page now (it spends one token), else the seconds until it may."""
        with self._lock:
            tokens, then = self._buckets.pop(client, (self._capacity, now))
            tokens = min(self._capacity, tokens + max(0.0, now - then) * self._rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self._rate
            self._buckets[client] = (tokens - 1 if wait == 0 else tokens, now)
            if len(self._buckets) > self._most:
                self._buckets.popitem(last=False)
        return wait


class ReadGate:
    """WSGI middleware: a page read past this address's RATELIMIT_PAGE_READS is answered its small 429
    here, before Flask builds a request, opens the session or runs a hook (issue 28).

    A client reading back to back is refused hundreds of times a second; every refusal that went
    through the whole of Flask cost the cores another table's page waits for. The page is rendered
    once per app, the headers are those every page carries (see _security_headers)."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.buckets = ReadBuckets(*parse_limit(app.config["RATELIMIT_PAGE_READS"]))
        self._page: bytes | None = None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        wait = self.wait(environ)
        if not wait:
            return self.wsgi_app(environ, start_response)
        page = self._page if self._page is not None else self.render(environ)
        start_response("429 TOO MANY REQUESTS", self.headers(len(page), wait))
        return [b"" if environ["REQUEST_METHOD"] == "HEAD" else page]

    def wait(self, environ: WSGIEnvironment) -> float:
        """0 when this request may go on (a page read spends a token), else the seconds until it may."""
        config = self.app.config
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or not config.get("RATELIMIT_ENABLED"):
            return 0.0
        try:
            endpoint, _ = self.app.url_map.bind_to_environ(environ).match()
        except HTTPException:  # not found, a redirect to add a slash, a method not allowed: Flask answers
            return 0.0
        if endpoint not in READ_LIMITED_PAGES:
            return 0.0
        return self.buckets.take(environ.get("REMOTE_ADDR") or "unknown", time.monotonic())

    def render(self, environ: WSGIEnvironment) -> bytes:
        with self.app.request_context(environ):
            self._page = render_template("sharing/too_many.html", message=TOO_MANY_READS).encode()
        return self._page

    def headers(self, length: int, wait: float) -> list[tuple[str, str]]:
        config = self.app.config
        return [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Length", str(length)),
            ("Retry-After", str(math.ceil(wait))),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", config["CONTENT_SECURITY_POLICY"]),
            ("X-Frame-Options", "DENY"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", config["REFERRER_POLICY"]),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Vary", "Accept-Encoding"),
        ]


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
    app.config.setdefault("RATELIMIT_PAGE_READS", "30/10 seconds")
    app.config.setdefault("CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)
    app.config.setdefault("REFERRER_POLICY", REFERRER_POLICY)
    app.config.setdefault("ALLOW_DEBUG", False)
    for name in ("RATELIMIT_CREATE", "RATELIMIT_CREATE_REFUSED", "RATELIMIT_WRONG_KEY", "RATELIMIT_PAGE_READS"):
        parse_limit(app.config[name])  # a typo in a limit fails at start, not on a request
    refuse_debug(app)
    # Inside ProxyFix (trust_proxies), so that the gate counts the client's address, not the proxy's.
    app.wsgi_app = ReadGate(app, app.wsgi_app)  # type: ignore[method-assign]
    trust_proxies(app)
    app.before_request(_limit_creation)
    app.after_request(_count_creation)
    app.after_request(_security_headers)
