"""What the app refuses, and how every refusal is answered: one place for pages and the API.

The services raise a `ServiceError` (one sentence, with its HTTP status); the engine raises an
`EngineError`. A request under ``/api/`` gets ``{"error": "<one sentence>"}``; a page gets the
error page with the sentence. A 409 of the API carries the game as stored now under ``"current"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, g, jsonify, make_response, render_template, request, url_for
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import (
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    InternalError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, TooManyRequests
from werkzeug.wrappers import Response

from companion.bounds import TOO_MANY_WRONG_KEYS
from engine.errors import EngineError

CurrentState = Callable[[str], dict[str, Any] | None]

FORM_EXPIRED = "This form has expired or was not sent from this app. Go back, reload and try again."


class ServiceError(Exception):
    """A request the app refuses; `status` is the HTTP status, the message one sentence."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    status = 400


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class KeyReused(ServiceError):
    """An Idempotency-Key sent again with another request than the one it was first sent with."""

    status = 422


class Unavailable(Exception):
    """The database cannot be reached or cannot write now (503 with Retry-After); `page_message` is
    the sentence for a page (the API's sentence speaks of the Idempotency-Key, a page's does not).
    Not a ServiceError: the pages that show a refusal in their form must not show this one there."""

    status = 503

    def __init__(self, message: str, page_message: str) -> None:
        super().__init__(message)
        self.message = message
        self.page_message = page_message


RETRY_AFTER_SECONDS = 5
NOT_SAVED = "the database is unavailable for a moment, so the change was not saved; try again shortly"
NOT_SAVED_PAGE = "The database is unavailable for a moment, so the change was not saved. Go back and try again shortly."
NOT_READ = "the database is unavailable for a moment; try again shortly"
OUTCOME_UNKNOWN = (
    "the connection to the database broke while saving, so the change may or may not have been saved; "
    "sending it again with the same Idempotency-Key is safe"
)
OUTCOME_UNKNOWN_PAGE = (
    "The connection to the database broke while saving, so the change may or may not have been saved. "
    "Reload the game to see whether it is there before entering it again."
)
SAVED_THEN_FAILED = "the change was saved, then something went wrong on the server; reload to see it"


def database_unavailable(error: BaseException) -> bool:
    """Whether an error means that the database cannot be reached or cannot write now (connect or
    I/O errors, a full disk, read-only files, a lost connection, no pooled connection free), rather
    than a fault of the app's own statements."""
    if isinstance(error, OperationalError | InterfaceError | InternalError | DisconnectionError | PoolTimeout):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


def database_refused() -> Unavailable:
    """The 503 for a database that is unavailable; the change (if any) was rolled back for certain."""
    if request.method in ("GET", "HEAD"):
        return Unavailable(NOT_READ, sentence(NOT_READ))
    return Unavailable(NOT_SAVED, NOT_SAVED_PAGE)


def outcome_unknown() -> Unavailable:
    """The 503 for a commit whose outcome is unknown: the connection broke during or after it."""
    return Unavailable(OUTCOME_UNKNOWN, OUTCOME_UNKNOWN_PAGE)


class PreconditionRequired(ServiceError):
    """A write that must say which version of the game it was made on (an undo) did not."""

    status = 428


def sentence(message: str) -> str:
    """A message as a sentence for a page: capital first letter, closing full stop.

    >>> sentence("the game changed")
    'The game changed.'
    >>> sentence(" already one. ")
    'Already one.'
    """
    message = message.strip()
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else message + "."


def json_error(status: int, message: str) -> tuple[Response, int]:
    return jsonify({"error": message}), status


def error_heading(status: int) -> str:
    """The error page's title: what went wrong, in a few words."""
    if status == 400 and request.method in ("GET", "HEAD"):
        if request.path.startswith("/sheets"):
            return "No sheet for this address"
        return "Address not understood"
    headings = {
        404: "Not found",
        403: "View only",
        409: "Changed meanwhile",
        413: "File too large",
        503: "Database unavailable",
    }
    return headings.get(status, "Server error" if status >= 500 else "Not saved")


def error_page(status: int, message: str) -> Response:
    """The error page; inside a game (other than a 404) it links back to the game."""
    if request_ctx.url_adapter is None:  # a Host outside TRUSTED_HOSTS: no page address can be built
        return Response(message, status, mimetype="text/plain")
    game_id = (request.view_args or {}).get("game_id")
    back = url_for("games.game_page", game_id=game_id) if game_id and status != 404 else None
    page = render_template("error.html", status=status, heading=error_heading(status), message=message, back=back)
    return make_response(page, status)


def with_error_headers(response: Response, error: HTTPException) -> Response:
    """A 405 says which methods the address takes (Allow); a 413 closes the connection, as the
    unread body cannot be skipped safely (Connection: close instead of a keep-alive that is not kept)."""
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)
    if error.code == 413:
        response.headers["Connection"] = "close"
    return response


class CloseAfterTooLarge:
    """WSGI middleware: after a 413 the server closes the connection, and says so.

    The app's ``Connection: close`` reaches the client from werkzeug's server, but gunicorn drops
    an application's hop-by-hop headers and answers ``keep-alive``, then closes anyway (the body
    was never read). Its start_response is a method of its response object, whose force_close()
    makes it send ``Connection: close``.
    """

    def __init__(self, wsgi_app: Any) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        def starting(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if status.startswith("413"):
                force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
                if callable(force_close):
                    force_close()
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, starting)


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _api_sentence(error: HTTPException) -> str:
    sentences = {
        404: "there is nothing at this address",
        405: f"{request.method} is not allowed at this address",
        413: "the request body is too large",
        415: "the request body must be JSON, sent with Content-Type: application/json",
    }
    return sentences.get(error.code or 500, (error.name or "error").lower())


def install(app: Flask, current_state: CurrentState) -> None:
    """The app's error handlers; `current_state` reads a game's API state for a 409 answer."""
    app.wsgi_app = CloseAfterTooLarge(app.wsgi_app)  # type: ignore[method-assign]
    app.add_template_filter(sentence, "sentence")  # every error a page shows: a capital first, a full stop last

    @app.errorhandler(ServiceError)
    def refused(error: ServiceError) -> Any:
        if not _is_api():
            return error_page(error.status, sentence(error.message))
        game_id = (request.view_args or {}).get("game_id")
        if isinstance(error, Conflict) and isinstance(game_id, str):
            current = current_state(game_id)
            if current is not None:
                return jsonify({"error": error.message, "current": current}), error.status
        return json_error(error.status, error.message)

    @app.errorhandler(Unavailable)
    def unavailable(error: Unavailable) -> Response:
        if _is_api():
            response, _status = json_error(error.status, error.message)
            response.status_code = error.status
        else:
            response = error_page(error.status, error.page_message)
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.errorhandler(SQLAlchemyError)
    def database_failed(error: SQLAlchemyError) -> Any:
        if not database_unavailable(error) or g.get("committed"):
            return unexpected(error)
        app.logger.warning("the database is unavailable: %s", error.__class__.__name__, exc_info=error)
        return unavailable(database_refused())

    @app.errorhandler(EngineError)
    def engine_refused(error: EngineError) -> Any:
        message = " ".join(str(error).split())
        return json_error(400, message) if _is_api() else error_page(400, sentence(message))

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> Any:
        return json_error(400, "the request was refused") if _is_api() else error_page(400, FORM_EXPIRED)

    @app.errorhandler(TooManyRequests)
    def too_many(error: TooManyRequests) -> Any:
        message = error.description or TOO_MANY_WRONG_KEYS
        if _is_api():
            response = jsonify({"error": message[:1].lower() + message[1:].rstrip(".")})
        else:
            response = current_app.make_response(render_template("sharing/too_many.html", message=message))
        response.status_code = 429
        response.headers["Retry-After"] = "60"
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        original = error.original_exception if isinstance(error, InternalServerError) else None
        if isinstance(original, SQLAlchemyError) and database_unavailable(original):  # raised by an error handler
            return unavailable(database_refused())
        status = error.code or 500
        if _is_api():
            response, _status = json_error(status, _api_sentence(error))
            response.status_code = status
        else:
            response = error_page(status, error.description or error.name)
        return with_error_headers(response, error)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        app.logger.exception("unexpected error", exc_info=error)
        if g.get("committed"):  # "nothing was changed" only when it is certain
            if _is_api():
                return json_error(500, SAVED_THEN_FAILED)
            return error_page(500, sentence(SAVED_THEN_FAILED))
        if _is_api():
            return json_error(500, "something went wrong on the server; nothing was changed")
        return error_page(500, "Something went wrong on the server. Nothing was changed.")
