"""The pages: games list, new game, game page, round entry and corrections, delete."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Flask, abort, make_response, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion import money, services
from companion.extensions import db
from companion.forms import POINTS_PATTERN, ActionForm, RoundForm, new_game_form, round_form
from companion.lan import lan_address
from companion.models import Game
from engine.rules import PRESETS, RUMMY_PRESETS

FORM_INCOMPLETE = "The form was incomplete; reload the page and try again."
SubmittedForm = TypeVar("SubmittedForm", bound=FlaskForm)

bp = Blueprint("pages", __name__)

KEY_COOKIE = "edit_key"
KEY_MAX_AGE = 400 * 24 * 3600


def _game_path(game_id: str) -> str:
    return f"/games/{game_id}"


def _with_key_cookie(response: Response, game: Game, key: str) -> Response:
    """Keep a game's edit key in this browser: HttpOnly, SameSite=Lax, only sent for that game."""
    response.set_cookie(
        KEY_COOKIE,
        key,
        max_age=KEY_MAX_AGE,
        path=_game_path(game.id),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def load_game(game_id: str) -> Game:
    """The game at an address, or a 404 page (shared by the page blueprints)."""
    try:
        return services.get_game(game_id)
    except services.NotFound:
        abort(404, description="There is no game at this address. It may have been deleted.")


def can_edit(game: Game) -> bool:
    """Whether this browser holds the game's edit key."""
    return services.key_matches(game, request.cookies.get(KEY_COOKIE))


def load_for_edit(
    game_id: str, refusal: str = "Only the phone that started this game can change it. The scores stay visible here."
) -> Game:
    """The game, or a 403 page saying `refusal` when this browser does not hold the edit key."""
    game = load_game(game_id)
    if not can_edit(game):
        abort(403, description=refusal)
    return game


@bp.get("/")
def index() -> str:
    games = services.list_games()
    return render_template(
        "index.html",
        playing=[game for game in games if not game.finished],
        finished=[game for game in games if game.finished],
    )


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Any:
    variant = request.values.get("variant") or RUMMY_PRESETS[0]
    if variant not in RUMMY_PRESETS:
        variant = RUMMY_PRESETS[0]
    preset = PRESETS[variant]
    form = new_game_form(services.preset_defaults(variant), preset.max_players)
    error = None
    if form.validate_on_submit():
        try:
            game, key = services.create_game(variant, form.player_names(), form.option_values(), form.dealer_name())
        except services.ServiceError as failure:
            error = failure.message
        else:
            return _with_key_cookie(redirect(url_for("pages.game_page", game_id=game.id), 303), game, key)
    elif form.errors:
        error = " ".join(f"{form[name].label.text}: {messages[0]}" for name, messages in form.errors.items())
    status = 400 if request.method == "POST" else 200
    page = render_template(
        "new_game.html",
        form=form,
        preset=preset,
        variants=services.variant_choices(),
        error=error,
    )
    return page, status


def _share_url(game_id: str) -> str:
    """The game's address for the other phones: this computer's LAN address when opened locally."""
    parts = urlsplit(url_for("pages.game_page", game_id=game_id, _external=True))
    if parts.hostname in ("127.0.0.1", "localhost", "::1"):
        parts = parts._replace(netloc=lan_address() + (f":{parts.port}" if parts.port else ""))
    return urlunsplit(parts)


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> Any:
    game = load_game(game_id)
    if money.is_play_or_pay(game):  # a game of hands: its page is the hand screen (companion.money_views)
        return redirect(url_for("money.hand_page", game_id=game.id), 303)
    return render_template(
        "game.html",
        game=services.build_view(game),
        can_edit=can_edit(game),
        action_form=ActionForm(data={"version": game.version}),
        share_url=_share_url(game.id),
    )


def _round_page(game: Game, form: Any, number: int, error: str | None, status: int) -> tuple[str, int]:
    view = services.build_view(game)
    plan = view.next_round if number > view.last_round else view.rounds[number - 1].plan
    return (
        render_template(
            "round_form.html",
            game=view,
            form=form,
            plan=plan,
            correcting=number <= view.last_round,
            error=error,
            points_pattern=POINTS_PATTERN,
        ),
        status,
    )


@bp.route("/games/<game_id>/rounds/new", methods=["GET", "POST"])
def new_round(game_id: str) -> Any:
    game = load_for_edit(game_id)
    number = len(game.rounds) + 1
    if game.finished:
        return redirect(url_for("pages.game_page", game_id=game.id), 303)
    form = round_form(game.players, data={"version": game.version, "round_number": number})

    def save() -> None:
        services.add_round(
            game, form.went_out.data, form.score_values(game.players), form.expected_version(),
            second_discards=form.second_discard_values(game.players),
        )

    return _submit_round(game, form, number, save, "standings")


@bp.route("/games/<game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: str, number: int) -> Any:
    game = load_for_edit(game_id)
    stored = next((item for item in game.rounds if item.number == number), None)
    if stored is None:
        abort(404, description=f"Round {number} has not been played in this game.")
    data = {
        "version": game.version,
        "went_out": stored.went_out,
        "scores": [str(stored.scores[name]) for name in game.players],
        "second_discards": [(stored.second_discards or {}).get(name, 0) for name in game.players],
    }
    form = round_form(game.players, data=data)

    def save() -> None:
        services.correct_round(
            game, number, form.went_out.data, form.score_values(game.players), form.expected_version(),
            second_discards=form.second_discard_values(game.players),
        )

    return _submit_round(game, form, number, save, "history")


def _submit_round(game: Game, form: RoundForm, number: int, save: Callable[[], None], anchor: str) -> Any:
    """Save a round form (post-redirect-get), or show it again with what went wrong."""
    if form.validate_on_submit():
        try:
            save()
        except services.Conflict:
            return _conflict_page(game.id, form, number)
        except services.ServiceError as failure:
            return _round_page(game, form, number, failure.message, failure.status)
        return redirect(url_for("pages.game_page", game_id=game.id, _anchor=anchor), 303)
    if request.method == "POST":
        return _round_page(game, form, number, _missing(form, game.players), 400)
    return _round_page(game, form, number, None, 200)


def _conflict_page(game_id: str, form: RoundForm, number: int) -> Any:
    """Another phone saved first: show what is stored now and keep this phone's entries, with the
    current version, so saving again is a deliberate choice. When the other phone saved the very
    round this phone was adding, its entries are only shown: saving them as the next round would
    record one hand twice."""
    db.session.rollback()
    game = load_for_edit(game_id)
    adding = form.posted_round()
    if adding is not None and adding <= len(game.rounds) and request.endpoint == "pages.new_round":
        number = adding
    stored = next((item for item in game.rounds if item.number == number), None)
    if stored is None and game.rounds:
        stored = game.rounds[-1]
    now = "Nothing is stored for that round."
    if stored is not None:
        now = f"Round {stored.number} now reads: {_round_words(game.players, stored.went_out, stored.scores)}."
    message = f"Not saved: another phone changed this game meanwhile. {now} Check your entries and save again."
    if number == adding:
        mine = _round_words(game.players, form.went_out.data, form.score_values(game.players))
        return _error_page(
            409,
            f"Not saved: another phone saved round {number} first. {now} Your entries were: {mine}. "
            f"If round {number} is wrong, correct it from the game page.",
        )
    if game.finished and number > len(game.rounds):
        return _error_page(409, message)
    form.version.data = str(game.version)
    target = number if number <= len(game.rounds) else len(game.rounds) + 1
    return _round_page(game, form, target, message, 409)


def _round_words(players: list[str], went_out: object, scores: dict[str, Any]) -> str:
    points = ", ".join(f"{name} {'?' if scores.get(name) in (None, '') else scores[name]}" for name in players)
    return f"{went_out or 'nobody'} went out; {points}"


def _missing(form: RoundForm, players: list[str]) -> str:
    """Say which entries of a round form are missing, by player."""
    if form.went_out.errors and form.went_out.data:
        return f'Not saved: "{form.went_out.data}" is not a player in this game.'
    parts = []
    if form.went_out.errors:
        parts.append("who went out")
    names = [name for name, field in zip(players, form["scores"], strict=True) if field.errors]
    if names:
        parts.append("points for " + ", ".join(names))
    return "Not saved. Missing: " + " and ".join(parts) + "." if parts else "Not saved: check the form."


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:] + "."


def submitted(form: SubmittedForm) -> SubmittedForm:
    """The posted form, or a 400 page when its CSRF token or a hidden field is missing."""
    if not form.validate_on_submit():
        abort(400, description=FORM_INCOMPLETE)
    return form


def _action(game_id: str, action: Any) -> Any:
    """Run a one-button write (undo, rematch, delete) after checking the key and the CSRF token."""
    game = load_for_edit(game_id)
    form = submitted(ActionForm())
    try:
        return action(game, form.expected_version())
    except services.ServiceError as failure:
        abort(failure.status, description=_sentence(failure.message))


@bp.post("/games/<game_id>/rounds/last/undo")
def undo_round(game_id: str) -> Any:
    _action(game_id, services.undo_last_round)
    return redirect(url_for("pages.game_page", game_id=game_id, _anchor="history"), 303)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> Any:
    new, key = _action(game_id, lambda game, _version: services.rematch(game))
    return _with_key_cookie(redirect(url_for("pages.game_page", game_id=new.id), 303), new, key)


@bp.get("/games/<game_id>/delete")
def confirm_delete(game_id: str) -> Any:
    game = load_for_edit(game_id)
    if money.is_play_or_pay(game):  # its delete button is on the hand screen (companion.money_views)
        return redirect(url_for("money.hand_page", game_id=game.id, _anchor="delete"), 303)
    form = ActionForm(data={"version": game.version})
    return render_template("confirm_delete.html", game=services.build_view(game), form=form)


@bp.post("/games/<game_id>/delete")
def delete_game(game_id: str) -> Any:
    _action(game_id, services.delete_game)
    response = redirect(url_for("pages.index"), 303)
    response.delete_cookie(KEY_COOKIE, path=_game_path(game_id))
    return response


def init_app(app: Flask) -> None:
    """Template globals, and error handlers: pages answer with a page, anything under /api/ with JSON."""
    from companion.api import json_error

    app.jinja_env.globals["suits"] = services.SUITS

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> Any:
        if request.path.startswith("/api/"):
            return json_error(400, "the request was refused")
        return _error_page(400, "This form has expired or was not sent from this app. Go back, reload and try again.")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 500
        if request.path.startswith("/api/"):
            return json_error(status, _api_sentence(error))
        return _error_page(status, error.description or error.name)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        app.logger.exception("unexpected error", exc_info=error)
        if request.path.startswith("/api/"):
            return json_error(500, "something went wrong on the server; nothing was changed")
        return _error_page(500, "Something went wrong on the server. Nothing was changed.")


def _api_sentence(error: HTTPException) -> str:
    sentences = {
        404: "there is nothing at this address",
        405: f"{request.method} is not allowed at this address",
        413: "the request body is too large",
    }
    return sentences.get(error.code or 500, (error.name or "error").lower())


def _error_page(status: int, message: str) -> Any:
    game_id = (request.view_args or {}).get("game_id")
    back = url_for("pages.game_page", game_id=game_id) if game_id and status != 404 else None
    return make_response(render_template("error.html", status=status, message=message, back=back), status)
