"""The Play or Pay pages: new game, the hand screen, quick mode, undo.

Every write is a CSRF-protected form that posts, calls `companion.services.play_or_pay`, and
redirects (PRG).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from companion.bounds import whole_number
from companion.errors import Conflict, InvalidInput, ServiceError, sentence
from companion.games.forms import ActionForm, dealer_choices, field_refusal, form_refusal, set_dealer_ways
from companion.keys import KEY_COOKIE, can_edit, load_for_edit, load_game, with_key_cookie
from companion.models import Game
from companion.play_or_pay.forms import HandEventForm, PlayOrPayForm, purchase_form
from companion.services import kinds, play_or_pay, pool, rummy, store
from companion.services.store import PRESETS
from companion.sharing.links import share_url

bp = Blueprint("play_or_pay", __name__)
bp.add_app_template_filter(play_or_pay.format_chips, "chips")
bp.add_app_template_filter(play_or_pay.card_symbol, "card")

FORM_INCOMPLETE = "The form was incomplete; reload the page and try again."


def _new_game_form() -> PlayOrPayForm:
    form = PlayOrPayForm()
    preset = PRESETS[play_or_pay.PLAY_OR_PAY]
    form.first_dealer.choices = dealer_choices(preset.max_players)
    set_dealer_ways(form, store.first_dealer_ways(preset), preset.max_players)
    return form


@bp.route("/games/new/chips", methods=["GET", "POST"])
def new_play_or_pay() -> Any:
    form = _new_game_form()
    error = None
    if form.validate_on_submit():
        try:
            dealer, method, scorekeeper = form.checked_dealer_choice()
            game, key = kinds.create_game(
                play_or_pay.PLAY_OR_PAY, form.player_names(), {"chips": form.chips.data}, dealer, method, scorekeeper
            )
        except ServiceError as failure:
            error = failure.message
        else:
            return with_key_cookie(redirect(url_for("play_or_pay.hand_page", game_id=game.id), 303), game, key)
    elif form.errors:
        error = form_refusal(form)
    page = render_template(
        "play_or_pay/new_play_or_pay.html",
        form=form,
        preset=PRESETS[play_or_pay.PLAY_OR_PAY],
        variants=(*rummy.variant_choices(), *pool.variant_choices()),
        ways=store.first_dealer_ways(PRESETS[play_or_pay.PLAY_OR_PAY]),
        error=error,
    )
    return page, 400 if request.method == "POST" else 200


def _play_or_pay(game_id: str, edit: bool = False) -> Game:
    game = load_for_edit(game_id) if edit else load_game(game_id)
    if kinds.of(game).in_rounds:
        abort(404, description="This game is played in rounds; its page is the score sheet.")
    return game


def _hand_page(
    game: Game, error: str | None = None, status: int = 200, quick: dict[str, Any] | None = None, **extra: Any
) -> Any:
    table = play_or_pay.table(game)
    form = HandEventForm(data={"version": game.version})
    editing = can_edit(game)
    page = render_template(
        "play_or_pay/hand.html",
        table=table,
        can_edit=editing,
        edit_key=request.cookies.get(KEY_COOKIE, "") if editing else "",
        form=form,
        action_form=ActionForm(data={"version": game.version}),
        purchase_form=purchase_form(game.players, game.version),
        max_chips=play_or_pay.MAX_CHIPS,
        quick=quick or {},
        error=error,
        share_url=share_url(game.id),
        played_at=game.updated_at,
        **extra,
    )
    return page, status


def hand_page_with(game: Game, status: int, **extra: Any) -> Any:
    """The hand screen with context for its panels (a refused change of players and what was typed)."""
    return _hand_page(game, status=status, **extra)


@bp.get("/games/<game_id>/hand")
def hand_page(game_id: str) -> Any:
    return _hand_page(_play_or_pay(game_id))


def _fail(game: Game, failure: ServiceError, quick: dict[str, Any] | None = None) -> Any:
    if isinstance(failure, Conflict):
        abort(409, description=sentence(failure.message))
    return _hand_page(game, sentence(failure.message), failure.status, quick)


@bp.post("/games/<game_id>/hand/event")
def hand_event(game_id: str) -> Any:
    game = _play_or_pay(game_id, edit=True)
    form = HandEventForm()
    kind = form.type.data
    body: dict[str, Any] = {"type": "pay" if kind == "pay" else "play", "player": form.player.data}
    if kind in ("play", "lead") and form.card.data:  # the card needed, or a tap on the lead's card grid
        body["card"] = form.card.data
    elif kind != "pay":
        abort(400, description=FORM_INCOMPLETE)
    try:
        play_or_pay.record_event(game, body, form.expected_version())
    except ServiceError as failure:
        return _fail(game, failure)
    return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="hand"), 303)


@bp.post("/games/<game_id>/hand/quick")
def quick_hand(game_id: str) -> Any:
    game = _play_or_pay(game_id, edit=True)
    form = ActionForm()
    winner = request.form.get("winner", "")
    entered = {
        "winner": winner,
        "cards_left": {name: request.form.get(f"cards_left-{seat}", "") for seat, name in enumerate(game.players)},
        "paid": {name: request.form.get(f"paid-{seat}", "") for seat, name in enumerate(game.players)},
        "replace": request.form.get("replace", ""),
    }
    try:
        body = _quick_body(game, winner, entered)
        play_or_pay.record_event(game, body, form.expected_version())
    except ServiceError as failure:
        return _fail(game, failure, entered)
    return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="hands"), 303)


def _quick_body(game: Game, winner: str, entered: dict[str, Any]) -> dict[str, Any]:
    if winner not in game.players:
        raise InvalidInput("choose who went out first and won the hand")
    cards_left: dict[str, int] = {}
    paid: dict[str, int] = {}
    for name in game.players:
        held = entered["cards_left"][name].strip() or ("0" if name == winner else "")
        if not held:
            raise InvalidInput(f"enter the cards {name} still holds")
        chips = entered["paid"][name].strip() or "0"
        for text, what in ((held, "cards left"), (chips, "chips paid")):
            if not (text.isascii() and text.isdigit()) or whole_number(text, 6) is None:
                raise InvalidInput(f'{name}\'s {what} must be a whole number, not "{text[:20]}"')
        cards_left[name] = int(held)
        paid[name] = int(chips)
    body: dict[str, Any] = {"type": "settle", "winner": winner, "cards_left": cards_left, "paid": paid}
    replace = entered["replace"]
    if replace:  # the box "Replace the N cards and chips recorded so far", ticked: the engine checks N
        if not (replace.isascii() and replace.isdigit()) or whole_number(replace, 6) is None:
            raise InvalidInput(FORM_INCOMPLETE)
        body["replaces"] = int(replace)
    return body


@bp.post("/games/<game_id>/hand/undo")
def undo_event(game_id: str) -> Any:
    game = _play_or_pay(game_id, edit=True)
    form = ActionForm()
    try:
        play_or_pay.undo_last_event(game, form.expected_version())
    except ServiceError as failure:
        return _fail(game, failure)
    return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="hand"), 303)


@bp.post("/games/<game_id>/hand/purchase")
def purchase(game_id: str) -> Any:
    """A player buys chips between hands (D17): a ledger event, taken back by undo."""
    game = _play_or_pay(game_id, edit=True)
    form = purchase_form(game.players)
    if not form.validate_on_submit():
        if "player" in form.errors:
            return _hand_page(game, "Choose who buys the chips.", 400)
        message = next((messages[0] for messages in form.errors.values()), FORM_INCOMPLETE)
        return _hand_page(game, sentence(field_refusal(form.chips.label.text, message)), 400)
    body = {"type": "purchase", "player": form.player.data, "chips": form.chips.data}
    try:
        play_or_pay.record_event(game, body, form.expected_version())
    except ServiceError as failure:
        return _fail(game, failure)
    return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="buy"), 303)


@bp.post("/games/<game_id>/hand/end")
def end_game(game_id: str) -> Any:
    """The table ends the game (D17); the page then shows each player's result."""
    game = _play_or_pay(game_id, edit=True)
    form = ActionForm()
    try:
        play_or_pay.end_game(game, form.expected_version())
    except ServiceError as failure:
        return _fail(game, failure)
    return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="results"), 303)
