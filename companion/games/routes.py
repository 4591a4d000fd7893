"""The pages of games played in rounds: games list, new game, game page, round entry and corrections,
undo, rematch, delete, and the pot's ledger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response

from companion.bounds import page_number
from companion.errors import Conflict, ServiceError, error_page, sentence
from companion.games.forms import (
    POINTS_PATTERN,
    ActionForm,
    BuyForm,
    ImportForm,
    RoundForm,
    buy_in_fields,
    form_refusal,
    new_game_form,
    round_form,
    set_dealer_ways,
)
from companion.keys import KEY_COOKIE, forget_key_cookie, group_cookie, load_for_edit, load_game, with_key_cookie
from companion.keys import can_edit as key_held
from companion.models import Game
from companion.services import contract, groups, kinds, pool, pot, rummy, seating, store, transfer
from companion.services.store import PRESETS, RUMMY_PRESETS
from companion.sharing.links import share_url
from companion.viewer_pages import viewer_page

bp = Blueprint("games", __name__)
bp.add_app_template_filter(pot.format_cents, "cents")


IMPORT_FORM_OVERHEAD = 16 * 1024
"""Room for the multipart form around an imported file (its CSRF token, boundaries, headers)."""

MAX_PAGES = 100_000
"""A page number past any list's end (the lists clamp it to their last page)."""

FORM_PAGES = frozenset(
    {"games.game_page", "games.new_game", "games.new_round", "games.edit_round", "games.confirm_delete"}
)
"""Pages holding a form: never kept by the browser, so Back shows the game as it is now and a form
that was already saved cannot be sent again from a stale copy (its version is checked too). The game
page of a phone without the key holds no form: it is tagged by the game's state instead, and asked
again each time (companion.viewer_pages)."""


@bp.after_request
def _no_store_forms(response: Response) -> Response:
    tagged = response.get_etag()[0] is not None
    if request.endpoint in FORM_PAGES and response.mimetype == "text/html" and not tagged:
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.record_once
def _template_globals(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals["trademark_line"] = store.trademark_line  # new-game and rules pages


@bp.get("/")
def index() -> str:
    """The home page: the games and groups this phone started, joined or opened are listed from the
    phone's own memory (static/js/my-games.js); the server lists no one else's."""
    return render_template("games/index.html", import_form=ImportForm())


THEME_COLORS = {"light": "#ffffff", "dark": "#0b0b0b"}
"""The page background of each colour scheme (static/app.css --bg): the phone's bars match it."""


@bp.record_once
def _theme_colors(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals["theme_colors"] = THEME_COLORS


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: a phone can put the companion on its home screen."""
    icons = [
        {"src": url_for("static", filename=f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    body = {
        "name": "Card Table Companion",
        "short_name": "Card Table",
        "description": "Score sheets for rummy games played with real cards.",
        "start_url": url_for("games.index"),
        "scope": url_for("games.index"),
        "display": "standalone",
        "background_color": THEME_COLORS["light"],
        "theme_color": THEME_COLORS["light"],
        "icons": icons,
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


def _import_body_limit() -> None:
    if request.endpoint == "games.import_game":
        request.max_content_length = transfer.MAX_IMPORT_BYTES + IMPORT_FORM_OVERHEAD


@bp.record_once
def _raise_import_limit_before_csrf(state: BlueprintSetupState) -> None:
    """The import form's body may be as large as an import: its limit is raised before any other
    hook runs, since CSRFProtect reads the form (under the app's 64 KiB) before the view would."""
    state.app.before_request_funcs.setdefault(None, []).insert(0, _import_body_limit)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (static/sw.js) from the site root, so its scope is every page (issue 24)."""
    response = send_from_directory(current_app.static_folder or "static", "sw.js", mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/games/import")
def import_game() -> Any:
    """A game exported as JSON, started again on this phone with a new edit key in its cookie."""
    # Counted against RATELIMIT_CREATE like starting a game: security.CREATE_ENDPOINTS names this endpoint.
    form = ImportForm()
    if not form.validate_on_submit():
        field_errors = form.document.errors or ["Choose the exported JSON file of a game."]
        return error_page(400, str(field_errors[0]))
    try:
        game, key = transfer.import_bytes(form.document.data.read(transfer.MAX_IMPORT_BYTES + 1))
    except ServiceError as failure:
        return error_page(failure.status, f"Not imported: {failure.message}.")
    return with_key_cookie(redirect(url_for("games.game_page", game_id=game.id), 303), game, key)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Any:
    variant = request.values.get("variant") or RUMMY_PRESETS[0]
    in_pool = store.preset_kind(variant) == pool.KIND
    if variant not in RUMMY_PRESETS and not in_pool:
        variant = RUMMY_PRESETS[0]
    preset = PRESETS[variant]
    group = _group_asked()
    if in_pool:  # pool rummy: its house options in its own numbers, and the buy-in
        form = new_game_form(
            pool.preset_defaults(variant), preset.max_players, pool.option_specs(variant), buy_in_fields()
        )
    else:
        form = new_game_form(rummy.preset_defaults(variant), preset.max_players, rummy.preset_option_specs(variant))
    ways = store.first_dealer_ways(preset)
    set_dealer_ways(form, ways, preset.max_players)
    if group is not None and request.method == "GET":
        form.players.data = "\n".join(group.players)
    error = None
    if form.validate_on_submit():
        try:
            dealer, method, scorekeeper = form.checked_dealer_choice()
            options = form.option_values()
            if in_pool:
                options[pool.BUY_IN_KEY] = pool.money_cents(form.buy_in.data or "0", form.buy_in.label.text)
            chosen = (variant, form.player_names(), options, dealer, method, scorekeeper)
            if group is None:
                game, key = kinds.create_game(*chosen)
            else:  # the group's key, held in this phone's cookie, is checked by the service
                game, key = groups.start_game(group, request.cookies.get(group_cookie(group.id)), *chosen)
        except ServiceError as failure:
            error = failure.message
        else:
            return with_key_cookie(redirect(url_for("games.game_page", game_id=game.id), 303), game, key)
    elif form.errors:
        error = form_refusal(form)
    status = 400 if request.method == "POST" else 200
    page = render_template(
        "games/new_game.html",
        form=form,
        preset=preset,
        variants=(*rummy.variant_choices(), *pool.variant_choices()),
        ways=ways,
        error=error,
        group=group,
    )
    return page, status


def _group_asked() -> Any:
    """The group a new game is started in (?group=…, from the group's page), or None."""
    group_id = request.values.get("group")
    if not group_id:
        return None
    try:
        return groups.get_group(group_id)
    except ServiceError:
        abort(404, description="There is no group at this address.")


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> Any:
    game = load_game(game_id)
    if pool.is_pool(game):  # a game of deals with a knock-out: its page is the pool page (companion.pool)
        return redirect(url_for("pool.pool_page", game_id=game.id), 303)
    if not kinds.of(game).in_rounds:  # a game of hands: its page is the hand screen (companion.play_or_pay)
        return redirect(url_for("play_or_pay.hand_page", game_id=game.id), 303)
    return render_game(game)


def render_game(game: Game, status: int = 200, **extra: Any) -> Any:
    """The game page; `extra` is context for its panels (a refused change of players and what was typed)."""
    editing = key_held(game)

    def render() -> str:
        entry = None
        if editing and not game.finished:
            entry = round_form(game.players, data={"version": game.version, "round_number": len(game.rounds) + 1})
        return render_template(
            "games/game.html",
            game=rummy.build_view(game, page_number(request.args.get("history"), MAX_PAGES)),
            dealt_first=store.first_dealer_text(game),
            can_edit=editing,
            action_form=ActionForm(data={"version": game.version}),
            share_url=share_url(game.id),
            round_form=entry,
            edit_key=request.cookies.get(KEY_COOKIE, "") if editing else "",
            points_pattern=POINTS_PATTERN,
            played_at=game.updated_at,
            **extra,
        )

    if editing or extra or status != 200:
        return render(), status
    return viewer_page(game, render)


def _round_page(game: Game, form: Any, number: int, error: str | None, status: int) -> tuple[str, int]:
    view = rummy.build_view(game)
    plan = view.next_round if number > view.last_round else view.rounds[number - 1].plan
    return (
        render_template(
            "games/round_form.html",
            game=view,
            form=form,
            plan=plan,
            correcting=number <= view.last_round,
            entry_players=seating.players_of_round(game, number),
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
        return redirect(url_for("games.game_page", game_id=game.id), 303)
    form = round_form(game.players, data={"version": game.version, "round_number": number})

    def save() -> None:
        rummy.add_round(
            game,
            form.went_out.data,
            form.score_values(game.players),
            form.expected_version(),
            second_discards=form.second_discard_values(game.players),
            exact_cut=form.exact_cut.data or None,
        )

    return _submit_round(game, form, number, save, lambda: "result" if game.finished else "standings")


@bp.route("/games/<game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: str, number: int) -> Any:
    game = load_for_edit(game_id)
    stored = next((item for item in game.rounds if item.number == number), None)
    if stored is None:
        abort(404, description=f"Round {number} has not been played in this game.")
    players = seating.players_of_round(game, number)  # those at the table that round (issue 27)
    data = {
        "version": game.version,
        "went_out": stored.went_out,
        "scores": [str(stored.scores[name]) for name in players],
        "second_discards": [(stored.second_discards or {}).get(name, 0) for name in players],
        "exact_cut": stored.exact_cut or "",
    }
    form = round_form(players, data=data)

    def save() -> None:
        rummy.correct_round(
            game,
            number,
            form.went_out.data,
            form.score_values(players),
            form.expected_version(),
            second_discards=form.second_discard_values(players),
            exact_cut=form.exact_cut.data or "",
        )

    return _submit_round(game, form, number, save, lambda: f"round-{number}")


def _submit_round(game: Game, form: RoundForm, number: int, save: Callable[[], None], anchor: Callable[[], str]) -> Any:
    """Save a round form (post-redirect-get) and land where the eye needs it (`anchor`, asked after
    saving), or show the form again with what went wrong."""
    if form.validate_on_submit():
        try:
            save()
        except Conflict:
            return _conflict_page(game.id, form, number)
        except ServiceError as failure:
            return _round_page(game, form, number, failure.message, failure.status)
        return redirect(url_for("games.game_page", game_id=game.id, _anchor=anchor()), 303)
    if request.method == "POST":
        return _round_page(game, form, number, _missing(form, game), 400)
    return _round_page(game, form, number, None, 200)


def _conflict_page(game_id: str, form: RoundForm, number: int) -> Any:
    """Another phone saved first: show what is stored now and keep this phone's entries, with the
    current version, so saving again is a deliberate choice. When the other phone saved the very
    round this phone was adding, its entries are only shown: saving them as the next round would
    record one hand twice."""
    store.forget_reads()
    game = load_for_edit(game_id)
    adding = form.posted_round()
    if adding is not None and adding <= len(game.rounds) and request.endpoint == "games.new_round":
        number = adding
    stored = next((item for item in game.rounds if item.number == number), None)
    if stored is None and game.rounds:
        stored = game.rounds[-1]
    noun = rummy.round_noun(game)  # "deal" in Contract Rummy
    now = f"Nothing is stored for that {noun}."
    if stored is not None:
        now = f"{noun.capitalize()} {stored.number} now reads: {_round_words(game, stored.went_out, stored.scores)}."
    message = f"Not saved: another phone changed this game meanwhile. {now} Check your entries and save again."
    if number == adding:
        mine = _round_words(game, form.went_out.data, form.score_values(game.players))
        return error_page(
            409,
            f"Not saved: another phone saved {noun} {number} first. {now} Your entries were: {mine}. "
            f"If {noun} {number} is wrong, correct it from the game page.",
        )
    if game.finished and number > len(game.rounds):
        return error_page(409, message)
    form.version.data = str(game.version)
    target = number if number <= len(game.rounds) else len(game.rounds) + 1
    return _round_page(game, form, target, message, 409)


def _round_words(game: Game, went_out: object, scores: dict[str, Any]) -> str:
    points = ", ".join(f"{name} {'?' if scores.get(name) in (None, '') else scores[name]}" for name in game.players)
    return f"{went_out or 'nobody'} {rummy.out_verb(game.variant)}; {points}"


def _missing(form: RoundForm, game: Game) -> str:
    """Say which entries of a round form are missing, by player."""
    if form.went_out.errors and form.went_out.data:
        return f'Not saved: "{form.went_out.data}" is not a player in this game.'
    parts = []
    if form.went_out.errors:
        parts.append(f"who {rummy.out_verb(game.variant)}")
    names = [name for name, field in zip(game.players, form["scores"], strict=True) if field.errors]
    if names:
        parts.append("points for " + ", ".join(names))
    return "Not saved. Missing: " + " and ".join(parts) + "." if parts else "Not saved: check the form."


def _action(game_id: str, action: Any) -> Any:
    """Run a one-button write (undo, rematch, delete) after checking the key and the CSRF token."""
    game = load_for_edit(game_id)
    form = ActionForm()  # its CSRF token was checked by CSRFProtect before the view ran
    try:
        return action(game, form.expected_version())
    except ServiceError as failure:
        abort(failure.status, description=sentence(failure.message))


@bp.post("/games/<game_id>/rounds/last/undo")
def undo_round(game_id: str) -> Any:
    _action(game_id, rummy.undo_last_round)
    # The undone round is the one to enter again: land on its entry form.
    return redirect(url_for("games.game_page", game_id=game_id, _anchor="round"), 303)


@bp.post("/games/<game_id>/buys")
def change_buys(game_id: str) -> Any:
    """Contract Rummy: one buy more or less for a player (the page's form; static/js/buys.js uses the API)."""
    game = load_for_edit(game_id)
    form = BuyForm()  # its CSRF token was checked by CSRFProtect before the view ran
    try:
        contract.change_buys(game, form.player.data, form.change_value(), form.expected_version())
    except Conflict:
        return error_page(409, "Not counted: another phone changed this game meanwhile. Go back, reload and tap again.")
    except ServiceError as failure:
        return error_page(failure.status, f"Not counted: {sentence(failure.message)}")
    return redirect(url_for("games.game_page", game_id=game.id, _anchor="buys"), 303)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> Any:
    new, key = _action(game_id, lambda game, _version: rummy.rematch(game))
    return with_key_cookie(redirect(url_for("games.game_page", game_id=new.id), 303), new, key)


@bp.get("/games/<game_id>/delete")
def confirm_delete(game_id: str) -> Any:
    game = load_for_edit(game_id)
    if pool.is_pool(game):  # its delete button is on the pool page (companion.pool)
        return redirect(url_for("pool.pool_page", game_id=game.id, _anchor="delete"), 303)
    if not kinds.of(game).in_rounds:  # its delete button is on the hand screen (companion.play_or_pay)
        return redirect(url_for("play_or_pay.hand_page", game_id=game.id, _anchor="delete"), 303)
    form = ActionForm(data={"version": game.version})
    return render_template("games/confirm_delete.html", game=rummy.build_view(game), form=form)


@bp.post("/games/<game_id>/delete")
def delete_game(game_id: str) -> Any:
    _action(game_id, store.delete_game)
    return forget_key_cookie(redirect(url_for("games.index"), 303), game_id)


@bp.get("/games/<game_id>/pot")
def ledger_page(game_id: str) -> str:
    game = load_game(game_id)
    if pool.is_pool(game):
        abort(404, description="A pool game's pot and who paid it are on its page.")
    if not kinds.of(game).in_rounds:
        abort(404, description="Play or Pay keeps chips, not a pot: the chip ledger is on the hand screen.")
    view = rummy.build_view(game)
    if view.pot is None:
        abort(404, description="This game is played without a pot.")
    return render_template("games/ledger.html", game=view, pot=view.pot)
