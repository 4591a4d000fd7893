"""Every write of the API happens once, and its answer tells the truth (issue 24).

`exactly_once` wraps each write view:

- The answer is built from the objects the write changed, before the commit (the services only
  flush inside `store.one_transaction`), so it holds the write and the version it made, never a
  later one read back after the commit; then one commit stores the write and its answer together.
- With an ``Idempotency-Key`` header (1 to 255 characters), a repeat of the same request (method,
  address, keys sent, body) gets the first answer again, with ``Idempotent-Replayed: true``, and
  writes nothing; the same key with another request is 422. Only successful writes are kept: a
  refused one stored nothing, so its repeat is judged again.
- When the connection breaks during the commit, the answer is 503 with Retry-After saying that the
  change may or may not have been saved (companion.errors.OUTCOME_UNKNOWN): sending it again with
  the same key is safe.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Response, make_response, request

from companion.errors import Conflict
from companion.services import answers, store

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEPT_HEADERS = ("Location", "Cache-Control")
CREDENTIAL_HEADERS = ("X-Edit-Key", "X-Group-Key", "If-Match")
"""Part of what was asked: a repeat must carry the same keys, so it learns no more than the first."""

_V = TypeVar("_V", bound=Callable[..., Any])


def exactly_once(max_body: int | None = None) -> Callable[[_V], _V]:
    """Make an API write view answer from its own transaction and honour Idempotency-Key.
    `max_body` raises the body limit for this view (it is read before the view runs)."""

    def wrap(view: _V) -> _V:
        @wraps(view)
        def run(**kwargs: Any) -> Response:
            if max_body is not None:
                request.max_content_length = max_body
            asked = _asked()
            if asked is not None and (kept := answers.find(asked)) is not None:
                return _replay(kept)
            with store.one_transaction():
                try:
                    response = make_response(view(**kwargs))
                    if asked is not None and response.status_code < 300:
                        headers = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
                        answers.keep(asked, response.status_code, headers, response.get_data())
                    store.commit()
                    store.commit_now()
                except Conflict:
                    if asked is not None and (kept := _kept_after_conflict(asked)) is not None:
                        return _replay(kept)
                    raise
            if asked is not None:
                answers.prune()
            return response

        return run  # type: ignore[return-value]

    return wrap


def _asked() -> answers.Asked | None:
    key = answers.read_key(request.headers.get(IDEMPOTENCY_HEADER))
    if key is None:
        return None
    parts = [request.method.encode(), request.full_path.encode()]
    parts += [request.headers.get(name, "").encode() for name in CREDENTIAL_HEADERS]
    parts.append(request.get_data())
    return answers.Asked(_scope(), key, answers.request_hash(parts))


def _scope() -> str:
    """Keys are kept per game; a write that is not a game's, per route (and group)."""
    view_args = request.view_args or {}
    if "game_id" in view_args:
        return f"game:{view_args['game_id']}"[:100]
    return f"{request.endpoint}:{view_args.get('group_id', '')}"[:100]


def _kept_after_conflict(asked: answers.Asked) -> answers.Answer | None:
    """After a conflict, the answer of the same request made at the same moment, if it won."""
    store.forget_safely()
    return answers.find(asked)


def _replay(kept: answers.Answer) -> Response:
    response = Response(kept.body, kept.status, mimetype="application/json")
    for name, value in kept.headers.items():
        response.headers[name] = value
    response.headers[REPLAYED_HEADER] = "true"
    return response
