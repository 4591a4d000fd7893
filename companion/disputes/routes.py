"""Pages that settle disputes at the table (issue 5): the meld checker (standalone and in a
game), the declarer check and lay-off chain of a round, scoring a round from the cards, and
Views parse the input, call `companion.services.disputes`, and redirect (PRG).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from companion.bounds import CHECKS_PAGE, page_number, pages_for, whole_number
from companion.errors import Conflict, InvalidInput, ServiceError, sentence
from companion.keys import can_edit, load_for_edit, load_game
from companion.models import Game
from companion.services import disputes, pool, rummy
from companion.services.disputes import pool_checks
from companion.services.rules import option_keys
from companion.services.store import PRESETS, RUMMY_PRESETS
from companion.viewer_pages import viewer_page

bp = Blueprint("disputes", __name__)
bp.add_app_template_filter(disputes.for_people, "for_people")  # card codes in the engine's reasons, as cards

MELD_FIELDS = 4
DECLARER_FIELDS = 6
POOL_PRESETS = tuple(key for key in PRESETS if pool_checks.is_pool_variant(key))
CHECKER_PRESETS = (*RUMMY_PRESETS, *POOL_PRESETS)
NO_CARDS_ROUND = "A pool rummy deal is scored from each player's result; count a losing hand on the game's checker."
NO_LAYOFFS = (
    "A pool rummy game has no lay-offs: a valid show ends the deal and every other player counts "
    "their cards. Check the show, or count a hand, on the game's checker."
)


# ---------------------------------------------------------------- helpers


def _load_for_edit(game_id: str) -> Game:
    return load_for_edit(
        game_id, "Only the phone that started this game can record checks. The log stays visible here."
    )


def _round_number(game: Game, value: object, *, played_only: bool = False) -> int:
    """A round of the game that can be checked: a played one or the one being played."""
    view = rummy.build_view(game)
    last = view.last_round if played_only or view.finished else view.last_round + 1
    if isinstance(value, str) and value.strip():
        wanted = whole_number(value, 4)
        if wanted is None or not 1 <= wanted <= max(last, 1):
            wrong = value[:12]
            abort(404, description=f"Round {wrong} cannot be checked in this game: choose a round from 1 to {last}.")
        return wanted
    return max(last, 1)


def _texts(prefix: str, count: int) -> list[str]:
    source = request.form if request.method == "POST" else request.args
    return [source.get(f"{prefix}-{index}", "") for index in range(count)]


def _entry_or_none(game: Game, entry_id: int, number: int) -> disputes.LogEntry | None:
    try:
        entry = disputes.get_entry(game.id, entry_id)
    except ServiceError:
        return None
    return entry if entry.round == number else None


# ---------------------------------------------------------------- standalone checker


@bp.get("/check")
def checker() -> Any:
    """Check melds and score a hand under any preset and round; nothing is stored (a GET form)."""
    variant = request.args.get("variant") or RUMMY_PRESETS[0]
    if variant not in CHECKER_PRESETS:
        abort(404, description=f'There is no preset "{variant[:40]}". Choose one from the list.')
    if variant in POOL_PRESETS:
        return _pool_checker(variant)
    round_text = (request.args.get("round") or "1").strip()
    if disputes.is_contract_game(variant):
        return _contract_checker(variant, round_text)
    melds = _texts("meld", MELD_FIELDS)
    hand = request.args.get("hand", "")
    error = None
    checked: tuple[disputes.MeldView, ...] = ()
    valid = None
    best = None
    at = None
    try:
        number = whole_number(round_text, 4) if round_text.isdecimal() else None
        if number is None:
            raise InvalidInput(f'round must be a whole number, not "{round_text[:20]}"')
        at = disputes.table(variant, None, number)
        texts = disputes.clean_melds(melds)
        if texts:
            verdicts = disputes.check_melds(at, texts)
            checked = disputes.meld_views(verdicts, texts, at.info)
            valid = all(verdict.valid for verdict in verdicts)
        if hand.strip():
            best = disputes.hand_view(disputes.best_hand(at, hand), at.info)
    except ServiceError as failure:
        error = sentence(failure.message)
    return _checker_page(
        "disputes/checker.html",
        at or disputes.table(variant, None, 1),
        round_text,
        error,
        melds=melds,
        hand=hand,
        checked=checked,
        valid=valid,
        best=best,
        asked=bool(request.args),
    )


def _contract_checker(variant: str, round_text: str) -> Any:
    """The checker of a game played in deals with contracts: going down against the deal's contract,
    a lay-off onto any meld on the table, the points of the cards held; nothing is stored."""
    melds = _texts("meld", MELD_FIELDS)
    table = _texts("table", MELD_FIELDS)
    onto = request.args.get("onto", "1")
    when_down = request.args.get("down", "earlier")
    already = request.args.get("already", "not-yet")
    cards = request.args.get("cards", "")
    hand = request.args.get("hand", "")
    error = None
    down = layoff = best = None
    at = None
    try:
        at = disputes.checker_table(variant, round_text, request.args)
        texts = disputes.clean_melds(melds)
        if texts:
            down = disputes.going_down(at, texts, already)
        if cards.strip() or any(text.strip() for text in table):
            layoff = disputes.table_layoff(at, table, onto, cards, when_down)
        if hand.strip():
            best = disputes.hand_view(disputes.best_hand(at, hand), at.info, at.rules)
    except ServiceError as failure:
        error = sentence(failure.message)
    if at is None:
        at = disputes.table(variant, None, 1)
    return _checker_page(
        "disputes/contract_checker.html",
        at,
        round_text,
        error,
        contract=disputes.deal_contract(at),
        melds=melds,
        table=table,
        onto=onto,
        when_down=when_down,
        already=already,
        cards=cards,
        hand=hand,
        hand_cards=at.most_held,
        down=down,
        layoff=layoff,
        best=best,
        asked=bool(request.args.keys() - {"variant", "round"}),
    )


def _pool_checker(variant: str) -> Any:
    """Pool rummy's checker: a show judged as laid out and a losing hand's count, under the deal's cut
    typed on the form (and the house rules in the query); nothing is stored."""
    kept = {key: request.args[key][:40] for key in option_keys(variant) if key in request.args}
    melds = _texts("meld", pool_checks.SHOW_FIELDS)
    hand = request.args.get("hand", "")
    error = None
    show = count = None
    at = None
    try:
        at = pool_checks.pool_table(variant, kept, request.args.get("cut", ""))
        if disputes.clean_melds(melds):
            show = pool_checks.check_show(at, melds)
        if hand.strip():
            count = pool_checks.count_of(at, hand)[1]
        if at.deal is None and request.args.keys() - {"variant", *kept}:
            raise InvalidInput(pool_checks.NO_CUT)
    except ServiceError as failure:
        error = sentence(failure.message)
    if at is None:
        try:
            at = pool_checks.bare_table(variant, kept, request.args.get("cut", ""))
        except ServiceError:
            kept = {}
            at = pool_checks.bare_table(variant, {})
    page = render_template(
        "disputes/pool_checker.html",
        at=at,
        presets=[PRESETS[key] for key in CHECKER_PRESETS],
        kept_options=kept,
        error=error,
        melds=melds,
        hand=hand,
        show=show,
        count=count,
        asked=bool(request.args.keys() - {"variant"}),
    )
    return page, 400 if error else 200


def _checker_page(template: str, at: disputes.Table, round_text: str, error: str | None, **values: Any) -> Any:
    """A checker page with the game and round chosen; 400 when what was asked was refused."""
    presets = [PRESETS[key] for key in CHECKER_PRESETS]
    page = render_template(template, at=at, presets=presets, round_text=round_text, error=error, **values)
    return page, 400 if error else 200


# ---------------------------------------------------------------- in-game checker and log


@bp.get("/games/<game_id>/check")
def game_checker(game_id: str) -> Any:
    game = load_game(game_id)
    editing = can_edit(game)
    page = _pool_game_checker_page if pool.is_pool(game) else _game_checker_page
    return page(game, editing) if editing else viewer_page(game, lambda: page(game, False))


def _deal_number(game: Game, value: object) -> int:
    try:
        return pool_checks.deal_number(game, value)
    except ServiceError as failure:
        abort(404, description=sentence(failure.message))


def _pool_game_checker_page(
    game: Game,
    editing: bool,
    number: int | None = None,
    error: str | None = None,
    melds: list[str] | None = None,
    hand: str = "",
    cut: str | None = None,
) -> str:
    """A pool game's checker for one deal: the show and the count, with the deal's cut when known."""
    if number is None:
        number = _deal_number(game, request.args.get("round"))
    typed = pool_checks.known_cut(game, number) if cut is None else cut
    try:
        at = pool_checks.game_pool_table(game, typed)
    except ServiceError:
        at = pool_checks.bare_table(game.variant, game.options, typed)
    log, checks, page = disputes.log_page(game.id, number, page_number(request.args.get("page"), 100_000))
    latest = None
    wanted = whole_number(request.args.get("entry", ""))
    if wanted is not None and 0 < wanted < 2**31:
        latest = next((entry for entry in log if entry.id == wanted), None) or _entry_or_none(game, wanted, number)
    played = pool.replay(game)
    return render_template(
        "disputes/pool_game_check.html",
        game=played,
        at=at,
        number=number,
        last_deal=len(played.deals) + (0 if played.finished else 1),
        log=log,
        log_pages=pages_for(checks, CHECKS_PAGE),
        log_page=page,
        latest=latest,
        can_edit=editing,
        error=error,
        melds=melds or [""] * pool_checks.SHOW_FIELDS,
        hand=hand,
    )


def _pool_game_check(game: Game) -> Any:
    """A show or a count in a pool game, kept in its log under the deal's number."""
    number = _deal_number(game, request.form.get("round"))
    melds = _texts("meld", pool_checks.SHOW_FIELDS)
    hand = request.form.get("hand", "")
    cut = request.form.get("cut", "")
    try:
        if request.form.get("action") == "hand":
            entry = pool_checks.log_count(game, number, cut, request.form.get("player") or None, hand)
        else:
            entry = pool_checks.log_show(game, number, cut, melds)
    except ServiceError as failure:
        page = _pool_game_checker_page(game, True, number, sentence(failure.message), melds, hand, cut)
        return page, failure.status
    target = url_for("disputes.game_checker", game_id=game.id, round=number, entry=entry.id, _anchor="result")
    return redirect(target, 303)


def _game_checker_page(game: Game, editing: bool) -> str:
    number = _round_number(game, request.args.get("round"))
    at = disputes.game_table(game, number)
    log, checks, page = disputes.log_page(game.id, number, page_number(request.args.get("page"), 100_000))
    latest = None
    wanted = whole_number(request.args.get("entry", ""))
    if wanted is not None and 0 < wanted < 2**31:
        latest = next((entry for entry in log if entry.id == wanted), None) or _entry_or_none(game, wanted, number)
    return render_template(
        "disputes/game_check.html",
        game=rummy.build_view(game),
        at=at,
        number=number,
        log=log,
        log_pages=pages_for(checks, CHECKS_PAGE),
        log_page=page,
        latest=latest,
        can_edit=editing,
        meld_fields=MELD_FIELDS,
        error=None,
        melds=[""] * MELD_FIELDS,
        hand="",
    )


@bp.post("/games/<game_id>/check")
def game_check(game_id: str) -> Any:
    """Check melds or score a hand with the round's wilds and the game's house rules; keep it in the log."""
    game = _load_for_edit(game_id)
    if pool.is_pool(game):
        return _pool_game_check(game)
    number = _round_number(game, request.form.get("round"))
    melds = _texts("meld", MELD_FIELDS)
    hand = request.form.get("hand", "")
    try:
        if request.form.get("action") == "hand":
            entry = disputes.log_hand(game, number, request.form.get("player") or None, hand)
        else:
            entry = disputes.log_melds(game, number, melds)
    except ServiceError as failure:
        at = disputes.game_table(game, number)
        page = render_template(
            "disputes/game_check.html",
            game=rummy.build_view(game),
            at=at,
            number=number,
            log=disputes.log_page(game.id, number)[0],
            log_pages=1,
            log_page=1,
            latest=None,
            can_edit=True,
            meld_fields=MELD_FIELDS,
            error=sentence(failure.message),
            melds=melds,
            hand=hand,
        )
        return page, failure.status
    target = url_for("disputes.game_checker", game_id=game.id, round=number, entry=entry.id, _anchor="result")
    return redirect(target, 303)


# ---------------------------------------------------------------- declarer check and lay-off chain


def _chain_page(game: Game, number: int, error: str | None = None, status: int = 200, **kept: Any) -> Any:
    at = disputes.game_table(game, number)
    chain = disputes.current_chain(game, number)
    entries = disputes.game_log(game.id, number)
    declarer_checks = [entry for entry in entries if entry.kind == "declarer"]
    view = rummy.build_view(game)
    plan = view.next_round if number > view.last_round else view.rounds[number - 1].plan
    page = render_template(
        "disputes/layoffs.html",
        game=view,
        plan=plan,
        at=at,
        number=number,
        chain=chain,
        last_declarer=declarer_checks[-1] if declarer_checks else None,
        can_edit=can_edit(game),
        declarer_fields=DECLARER_FIELDS,
        error=error,
        kept=kept,
    )
    return page, status


def _chain_game(game: Game) -> Game:
    """The game, or a 404 page in one sentence where it has no lay-off chain (Contract Rummy, pool rummy)."""
    if pool.is_pool(game):
        abort(404, description=NO_LAYOFFS)
    try:
        disputes.verify_chain(game)
    except ServiceError as failure:
        abort(failure.status, description=sentence(failure.message))
    return game


@bp.get("/games/<game_id>/rounds/<int:number>/layoffs")
def layoffs(game_id: str, number: int) -> Any:
    game = _chain_game(load_game(game_id))
    number = _round_number(game, str(number))
    return _chain_page(game, number)


@bp.post("/games/<game_id>/rounds/<int:number>/declarer")
def declarer_check(game_id: str, number: int) -> Any:
    """The declarer check: each meld, then the whole hand; legal melds start the round's lay-off chain."""
    game = _chain_game(_load_for_edit(game_id))
    number = _round_number(game, str(number))
    melds = _texts("meld", DECLARER_FIELDS)
    try:
        disputes.start_chain(game, number, request.form.get("declarer"), melds, request.form.get("discard", ""))
    except ServiceError as failure:
        return _chain_page(game, number, sentence(failure.message), failure.status, melds=melds)
    return redirect(url_for("disputes.layoffs", game_id=game.id, number=number, _anchor="declarer-result"), 303)


@bp.post("/games/<game_id>/rounds/<int:number>/layoffs")
def add_layoff(game_id: str, number: int) -> Any:
    """One lay-off in turn order; a legal one extends the melds the next player sees (D6)."""
    game = _chain_game(_load_for_edit(game_id))
    number = _round_number(game, str(number))
    cards = request.form.get("cards", "")
    try:
        disputes.add_layoff(game, number, request.form.get("player"), request.form.get("onto", ""), cards)
    except ServiceError as failure:
        return _chain_page(game, number, sentence(failure.message), failure.status, cards=cards)
    return redirect(url_for("disputes.layoffs", game_id=game.id, number=number, _anchor="table"), 303)


# ---------------------------------------------------------------- scoring a round from the cards


def _cards_page(game: Game, values: dict[str, Any], error: str | None, status: int, results: Any = None) -> Any:
    view = rummy.build_view(game)
    plan = view.next_round
    assert plan is not None
    at = disputes.game_table(game, plan.number)
    page = render_template(
        "disputes/cards.html",
        game=view,
        plan=plan,
        at=at,
        values=values,
        declarer_fields=DECLARER_FIELDS,
        error=error,
        results=results or {},
        version=game.version,
    )
    return page, status


def _chain_melds(game: Game, number: int) -> tuple[str | None, list[str]]:
    chain = disputes.current_chain(game, number)
    if chain is None:
        return None, []
    return chain.declarer, chain.declared


@bp.route("/games/<game_id>/rounds/cards", methods=["GET", "POST"])
def score_from_cards(game_id: str) -> Any:
    """Who went out, the declarer's melds, and each player's cards (or points): the engine scores them."""
    game = _load_for_edit(game_id)
    if pool.is_pool(game):
        abort(404, description=NO_CARDS_ROUND)
    view = rummy.build_view(game)
    if view.finished or view.next_round is None:
        return redirect(url_for("games.game_page", game_id=game.id), 303)
    number = view.next_round.number
    if request.method == "GET":
        declarer, melds = _chain_melds(game, number)
        values: dict[str, Any] = {
            "went_out": declarer or "",
            "melds": melds + [""] * (DECLARER_FIELDS - len(melds)),
            "hands": {name: "" for name in game.players},
            "points": {name: "" for name in game.players},
        }
        return _cards_page(game, values, None, 200)
    values = {
        "went_out": request.form.get("went_out", ""),
        "melds": _texts("meld", DECLARER_FIELDS),
        "hands": {name: request.form.get(f"hand-{seat}", "") for seat, name in enumerate(game.players)},
        "points": {name: request.form.get(f"points-{seat}", "") for seat, name in enumerate(game.players)},
        "exact_cut": request.form.get("exact_cut", ""),  # Contract Rummy with the exact cut
    }
    entered = disputes.CardsRound(**values | {"melds": tuple(values["melds"])})
    try:
        results = disputes.score_entries(game, number, entered)
        if request.form.get("action") == "preview":
            return _cards_page(game, values, None, 200, results)
        rummy.add_round(
            game,
            entered.went_out,
            entered.scores_typed,
            _version(request.form.get("version")),
            hands=entered.hands_entered,
            declarer=entered.melds_entered,
            exact_cut=entered.exact_cut or None,
        )
    except Conflict as failure:
        abort(409, description=sentence(failure.message))
    except ServiceError as failure:
        return _cards_page(game, values, sentence(failure.message), failure.status)
    return redirect(url_for("games.game_page", game_id=game.id, _anchor="standings"), 303)


def _version(text: str | None) -> int | None:
    """The game version the form was loaded with (a stale form is a 409)."""
    return whole_number(text) if text and text.isdecimal() else None


@bp.app_context_processor
def dispute_helpers() -> dict[str, Any]:
    """The game page's dispute log (templates/disputes/_game_log.html) reads the log through this, and
    the dispute links ask whether the game has a lay-off chain."""
    return {"dispute_log": disputes.log_by_round, "has_layoff_chain": disputes.has_chain}
