"""Printable sheets and exports (issue 7): pages that read a game, and the blank sheets.

- ``/games/<id>/sheet.pdf?paper=a4|letter``: the game's score sheet as a PDF (a Play or Pay game:
  its chip tally with the players' names); ``/games/<id>/sheet``: the same sheet as a page.
- ``/games/<id>/export.csv`` (one row per round) and ``/games/<id>/export.json`` (the whole game,
  companion.services.transfer).
- ``/sheets``: choose a preset, paper and names; ``/sheets/<preset>.pdf?players=Ann,Bob&paper=a4``:
  a blank sheet for pen and paper (Play or Pay: the chip tally); ``/sheets/<preset>``: the same as a page.

Reading needs no edit key, as the game page. The rendering is companion.services.sheets and .chart;
this module parses the request, loads the game and answers. Bad input is a 400 page with one sentence.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion.bounds import whole_number
from companion.errors import error_page, sentence
from companion.keys import load_game
from companion.models import Game
from companion.services import chart, kinds, pdfs, play_or_pay, pool, sheets, store, transfer
from companion.services.store import PRESETS

bp = Blueprint("sheets", __name__)

DEFAULT_PAPER = "a4"
DEFAULT_BLANKS = sheets.BLANK_COLUMNS
MAX_PLAYERS_PARAM = 500


# ---------------------------------------------------------------- helpers


def _bad(message: str) -> Any:
    abort(400, description=sentence(message))


def _paper() -> str:
    paper = request.args.get("paper", "").strip().lower() or DEFAULT_PAPER
    if paper not in sheets.PAPERS:
        _bad('paper must be "a4" or "letter"')
    return paper


def _state(game: Game) -> dict[str, Any]:
    """The API state of the game, with its date for the sheet."""
    return pdfs.sheet_state(game)


@bp.app_template_global("score_chart")
def page_chart(game: Any) -> Markup:
    """The score progression chart of a game view (rummy.GameView) for the game page."""
    width, height = chart.PHONE_SIZE
    return Markup(chart.score_chart_svg(game.as_json(), width, height))


def _busy(busy: pdfs.Busy) -> Response:
    response = error_page(503, sentence(busy.message))
    response.headers["Retry-After"] = str(busy.retry_after)
    return response


@bp.app_template_global("chart_short_names")
def chart_short_names(game: Any) -> list[tuple[str, str]]:
    """The legend's shortened names of a game view, with their whole names."""
    return chart.shortened_names(list(game.players))


def _pdf(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def _download(text: str, mimetype: str, filename: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


# ---------------------------------------------------------------- a game's sheet


@bp.get("/games/<game_id>/sheet.pdf")
def game_sheet_pdf(game_id: str) -> Response:
    game = load_game(game_id)
    paper = _paper()
    try:
        data = pdfs.game_sheet(game, paper)
    except pdfs.Busy as busy:
        return _busy(busy)
    return _pdf(data, transfer.export_filename(game, "pdf"))


@bp.get("/games/<game_id>/sheet")
def game_sheet(game_id: str) -> str:
    game = load_game(game_id)
    paper = _paper()
    stylesheet = url_for("static", filename="css/print.css")
    if pool.is_pool(game):
        pool_context = sheets.pool_sheet_context(pdfs.pool_sheet_state(game), paper)
        return render_template("sheets/pool_sheet.html", **pool_context, stylesheet_href=stylesheet)
    if not kinds.of(game).in_rounds:
        context = sheets.chip_tally_context(
            game.players, paper, results=play_or_pay.final_results(game), played=play_or_pay.tally(game)
        )
        return render_template("sheets/chip_tally.html", **context, stylesheet_href=stylesheet)
    state = _state(game)
    context = sheets.game_sheet_context(state, paper)
    context["chart"] = Markup(chart.score_chart_svg(state))
    return render_template("sheets/game_sheet.html", **context, stylesheet_href=stylesheet)


# ---------------------------------------------------------------- exports


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    game = load_game(game_id)
    return _download(transfer.export_csv(game), "text/csv", transfer.export_filename(game, "csv"))


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    game = load_game(game_id)
    text = json.dumps(transfer.export_game(game), ensure_ascii=False, indent=1)
    return _download(text + "\n", "application/json", transfer.export_filename(game, "json"))


# ---------------------------------------------------------------- blank sheets


def _names() -> list[str] | None:
    """The names of ?players=Ann,Bob,Cy: blanks allowed (",,," is four blank boxes); none: 4 blanks."""
    raw = request.args.get("players")
    if not raw:
        return None
    if len(raw) > MAX_PLAYERS_PARAM:
        _bad("the list of names is too long")
    names = [name.strip() for name in raw.split(",")]
    for name in names:
        if len(name) > store.MAX_NAME_LENGTH:
            _bad(f"a name can have at most {store.MAX_NAME_LENGTH} characters")
        if not name.isprintable():
            _bad("a name cannot hold a line break or another control character")
    return names


def _preset(preset: str) -> str:
    if preset not in PRESETS:
        _bad("there is no game called that; choose one of " + ", ".join(PRESETS))
    return preset


@bp.get("/sheets/<variant>.pdf")
def blank_sheet_pdf(variant: str) -> Response:
    preset = _preset(variant)
    paper = _paper()
    names = _names()
    try:
        data = pdfs.blank_sheet(preset, names, paper)  # an EngineError is a 400 page (companion.errors)
    except pdfs.Busy as busy:
        return _busy(busy)
    return _pdf(data, f"{preset}-blank-sheet.pdf")


@bp.get("/sheets/<variant>")
def blank_sheet_page(variant: str) -> str:
    """A blank sheet as a page (the PDF's HTML with the print stylesheet): to see it before printing."""
    preset = _preset(variant)
    names, paper = _names(), _paper()
    stylesheet = url_for("static", filename="css/print.css")
    if sheets.is_pool_variant(preset):
        blank = sheets.pool_blank_context(preset, names, paper)  # an EngineError is a 400 page
        return render_template("sheets/pool_blank.html", **blank, stylesheet_href=stylesheet)
    if not kinds.of_variant(preset).in_rounds:
        tally = sheets.chip_tally_context(names, paper)
        return render_template("sheets/chip_tally.html", **tally, stylesheet_href=stylesheet)
    context = sheets.blank_sheet_context(preset, names, paper)  # an EngineError is a 400 page (companion.errors)
    return render_template("sheets/blank_sheet.html", **context, stylesheet_href=stylesheet)


@bp.get("/sheets")
def blank_sheets() -> str:
    preset = request.args.get("preset", "")
    return render_template(
        "sheets/blank_sheets.html",
        presets=[PRESETS[key] for key in PRESETS],
        chosen=preset if preset in PRESETS else next(iter(PRESETS)),
        blanks=DEFAULT_BLANKS,
        papers=sheets.PAPERS,
    )


@bp.get("/sheets/print")
def print_blank_sheet() -> Response:
    """The /sheets form (a GET form, so no CSRF token): on to the PDF of the chosen preset."""
    preset = _preset(request.args.get("preset", ""))
    paper = _paper()
    names = _names()
    if not names or not any(names):
        count = request.args.get("blanks", str(DEFAULT_BLANKS)).strip()
        blanks = whole_number(count, 3) if count.isdecimal() else None
        if blanks is None or not 1 <= blanks <= 20:
            _bad("choose how many blank columns to print")
        names = [""] * (blanks or 0)
    target = url_for("sheets.blank_sheet_pdf", variant=preset, players=",".join(names), paper=paper)
    return redirect(target, 303)
