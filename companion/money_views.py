"""The money pages: a game's pot ledger, and Play or Pay (new game, the hand screen, quick mode, undo).

Every write is a CSRF-protected form that posts, calls `companion.money`, and redirects (PRG).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, NumberRange

from companion import money, services, views
from companion.forms import ActionForm, dealer_choices
from companion.models import Game
from engine.rules import PRESETS

bp = Blueprint("money", __name__)


class PlayOrPayForm(FlaskForm):
    players = TextAreaField(
        "Players, in seat order (clockwise), one name per line",
        validators=[InputRequired("Enter the players' names, one per line.")],
    )
    first_dealer = SelectField("First dealer", default="random")
    chips = IntegerField(
        "Starting chips, each player",
        default=money.DEFAULT_CHIPS,
        validators=[
            InputRequired("Enter the starting chips."),
            NumberRange(1, money.MAX_CHIPS, f"A whole number from 1 to {money.MAX_CHIPS}."),
        ],
    )

    def player_names(self) -> list[str]:
        return [line for line in (self.players.data or "").splitlines() if line.strip()]

    def dealer_name(self) -> str | None:
        choice = self.first_dealer.data or "random"
        names = [name.strip() for name in self.player_names()]
        if not (choice.isascii() and choice.isdigit()):
            return None
        seat = int(choice)
        return names[seat] if seat < len(names) else f"Player {seat + 1}"


class HandEventForm(ActionForm):
    """One tap on the hand screen: played, paid, or a lead (rank and suit)."""

    type = HiddenField()
    player = HiddenField()
    card = HiddenField()
    rank = StringField("Rank")
    suit = StringField()


def _new_game_form() -> PlayOrPayForm:
    form = PlayOrPayForm()
    preset = PRESETS[money.PLAY_OR_PAY]
    form.first_dealer.choices = dealer_choices(preset.max_players)
    return form


@bp.route("/games/new/chips", methods=["GET", "POST"])
def new_play_or_pay() -> Any:
    form = _new_game_form()
    error = None
    if form.validate_on_submit():
        try:
            game, key = services.create_game(
                money.PLAY_OR_PAY, form.player_names(), {"chips": form.chips.data}, form.dealer_name()
            )
        except services.ServiceError as failure:
            error = failure.message
        else:
            return views._with_key_cookie(redirect(url_for("money.hand_page", game_id=game.id), 303), game, key)
    elif form.errors:
        error = " ".join(f"{form[name].label.text}: {messages[0]}" for name, messages in form.errors.items())
    page = render_template(
        "money/new_play_or_pay.html",
        form=form,
        preset=PRESETS[money.PLAY_OR_PAY],
        variants=services.variant_choices(),
        error=error,
    )
    return page, 400 if request.method == "POST" else 200


@bp.get("/games/<game_id>/pot")
def ledger_page(game_id: str) -> str:
    game = views.load_game(game_id)
    if money.is_play_or_pay(game):
        abort(404, description="Play or Pay keeps chips, not a pot: the chip ledger is on the hand screen.")
    view = services.build_view(game)
    if view.pot is None:
        abort(404, description="This game is played without a pot.")
    return render_template("money/ledger.html", game=view, pot=view.pot)


def _play_or_pay(game_id: str, edit: bool = False) -> Game:
    game = views.load_for_edit(game_id) if edit else views.load_game(game_id)
    if not money.is_play_or_pay(game):
        abort(404, description="This game is played in rounds; its page is the score sheet.")
    return game


def _hand_page(game: Game, error: str | None = None, status: int = 200, quick: dict[str, Any] | None = None) -> Any:
    table = money.table(game)
    form = HandEventForm(data={"version": game.version})
    page = render_template(
        "money/hand.html",
        table=table,
        can_edit=views.can_edit(game),
        form=form,
        action_form=ActionForm(data={"version": game.version}),
        quick=quick or {},
        error=error,
        share_url=views._share_url(game.id),
    )
    return page, status


@bp.get("/games/<game_id>/hand")
def hand_page(game_id: str) -> Any:
    return _hand_page(_play_or_pay(game_id))


def _fail(game: Game, failure: services.ServiceError, quick: dict[str, Any] | None = None) -> Any:
    if isinstance(failure, services.Conflict):
        abort(409, description=views._sentence(failure.message))
    return _hand_page(game, views._sentence(failure.message), failure.status, quick)


@bp.post("/games/<game_id>/hand/event")
def hand_event(game_id: str) -> Any:
    game = _play_or_pay(game_id, edit=True)
    form = views.submitted(HandEventForm())
    kind = form.type.data
    body: dict[str, Any] = {"type": "pay" if kind == "pay" else "play", "player": form.player.data}
    if kind == "play":
        body["card"] = form.card.data
    elif kind == "lead":
        body["card"] = f"{form.rank.data or ''}{form.suit.data or ''}"
    elif kind != "pay":
        abort(400, description=views.FORM_INCOMPLETE)
    try:
        event, data = money.parse_event(game, body)
        money.add_event(game, event, data, form.expected_version())
    except services.ServiceError as failure:
        return _fail(game, failure)
    return redirect(url_for("money.hand_page", game_id=game.id, _anchor="hand"), 303)


@bp.post("/games/<game_id>/hand/quick")
def quick_hand(game_id: str) -> Any:
    game = _play_or_pay(game_id, edit=True)
    form = views.submitted(ActionForm())
    winner = request.form.get("winner", "")
    entered = {
        "winner": winner,
        "cards_left": {name: request.form.get(f"cards_left-{seat}", "") for seat, name in enumerate(game.players)},
        "paid": {name: request.form.get(f"paid-{seat}", "") for seat, name in enumerate(game.players)},
    }
    try:
        body = _quick_body(game, winner, entered)
        event, data = money.parse_event(game, body)
        money.add_event(game, event, data, form.expected_version())
    except services.ServiceError as failure:
        return _fail(game, failure, entered)
    return redirect(url_for("money.hand_page", game_id=game.id, _anchor="hands"), 303)


def _quick_body(game: Game, winner: str, entered: dict[str, Any]) -> dict[str, Any]:
    if winner not in game.players:
        raise services.InvalidInput("choose who went out first and won the hand")
    cards_left: dict[str, int] = {}
    paid: dict[str, int] = {}
    for name in game.players:
        held = entered["cards_left"][name].strip() or ("0" if name == winner else "")
        if not held:
            raise services.InvalidInput(f"enter the cards {name} still holds")
        chips = entered["paid"][name].strip() or "0"
        for text, what in ((held, "cards left"), (chips, "chips paid")):
            if not (text.isascii() and text.isdigit()):
                raise services.InvalidInput(f'{name}\'s {what} must be a whole number, not "{text}"')
        cards_left[name] = int(held)
        paid[name] = int(chips)
    return {"type": "settle", "winner": winner, "cards_left": cards_left, "paid": paid}


@bp.post("/games/<game_id>/hand/undo")
def undo_event(game_id: str) -> Any:
    game = _play_or_pay(game_id, edit=True)
    form = views.submitted(ActionForm())
    try:
        money.undo_last_event(game, form.expected_version())
    except services.ServiceError as failure:
        return _fail(game, failure)
    return redirect(url_for("money.hand_page", game_id=game.id, _anchor="hand"), 303)


def init_app(app: Flask) -> None:
    """Register the money pages and API, the money filters, and a page for refused requests."""
    from companion import money_api

    app.register_blueprint(bp)
    app.register_blueprint(money_api.bp)
    app.add_template_filter(money.format_cents, "cents")
    app.add_template_filter(money.format_chips, "chips")
    app.add_template_filter(money.card_symbol, "card")

    @app.errorhandler(services.ServiceError)
    def refused(error: services.ServiceError) -> Any:
        """A request the services refuse outside a form (a round page of a Play or Pay game): 4xx, not 500."""
        if request.path.startswith("/api/"):
            from companion.api import json_error

            return json_error(error.status, error.message)
        return views._error_page(error.status, views._sentence(error.message))

