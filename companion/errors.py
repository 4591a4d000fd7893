"""What the app refuses, and how every refusal is answered: one place for pages and the API.

The services raise a `ServiceError` (one sentence, with its HTTP status); the engine raises an
`EngineError`. A request under ``/api/`` gets ``{"error": "<one sentence>"}``; a page gets the
error page with the sentence. A 409 of the API carries the game as stored now under ``"current"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, jsonify, make_response, render_template, request, url_for
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, TooManyRequests
from werkzeug.wrappers import Response

from companion.security import TOO_MANY_WRONG_KEYS
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
    headings = {404: "Not found", 403: "View only", 409: "Changed meanwhile", 413: "File too large"}
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
        if _is_api():
            return json_error(500, "something went wrong on the server; nothing was changed")
        return error_page(500, "Something went wrong on the server. Nothing was changed.")
