"""The group pages (issue 14): /groups/new, /groups/<id> (figures, games, sharing), starting a game in
the group, joining it from a scanned code, replacing its key, and the statistics as CSV.

The group's join link, ``/groups/<id>/join#key=<group key>``, carries the key in its fragment, as a
game's does (companion.sharing.routes): the browser never sends it, so it stays out of access logs.
static/js/join.js posts it with the join form (CSRF) to ``POST /groups/<id>/join``; without script the
key is pasted into the same form. An old ``?key=`` link is redirected to the fragment, unread.

A browser holding the group's key keeps it in a cookie named for the group (companion.keys.group_cookie),
sent to every page: it starts games in the group and edits every game of the group.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from companion.errors import NotFound, ServiceError, sentence
from companion.groups.forms import JoinGroupForm, NewGroupForm, StartGameForm
from companion.keys import KEY_MAX_AGE, check_group_key, group_cookie, with_key_cookie
from companion.models import Group
from companion.services import groups as service
from companion.services import pool, rummy
from companion.services.play_or_pay import PLAY_OR_PAY
from companion.sharing.forms import MAX_KEY_LENGTH
from companion.sharing.links import JOIN_PARAMETER, join_url, public_base, qr_svg

bp = Blueprint("groups", __name__)
bp.add_app_template_global(service.group_of_game, "group_of_game")  # templates/groups/_game_link.html

NO_KEY = "Only a phone with this group's key can start games in it. The figures stay visible here."


def _load(group_id: str) -> Group:
    try:
        return service.get_group(group_id)
    except NotFound:
        abort(404, description="There is no group at this address.")


def _held_key(group: Group) -> str | None:
    key = request.cookies.get(group_cookie(group.id))
    return key if key and service.group_key_matches(group, key) else None


def _with_group_cookie(response: BaseResponse, group: Group, key: str) -> BaseResponse:
    response.set_cookie(
        group_cookie(group.id),
        key,
        max_age=KEY_MAX_AGE,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _share_url(group: Group) -> str:
    """The group page's address for the other phones: PUBLIC_URL, else this computer's LAN address."""
    return public_base() + url_for("groups.group_page", group_id=group.id)


def _variant_choices() -> list[tuple[str, str]]:
    games = (*rummy.variant_choices(), *pool.variant_choices())
    return [(choice.id, choice.name) for choice in games] + [(PLAY_OR_PAY, "Play or Pay")]


def _start_form(group: Group) -> StartGameForm:
    form = StartGameForm(data={"players": "\n".join(service.members_of(group))} if request.method == "GET" else None)
    form.variant.choices = _variant_choices()
    return form


def _error_text(form: Any) -> str:
    return " ".join(messages[0] for messages in form.errors.values())


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> Any:
    form = NewGroupForm()
    error = None
    if form.validate_on_submit():
        try:
            group, key = service.create_group(form.name.data, form.member_names())
        except ServiceError as failure:
            error = sentence(failure.message)
        else:
            return _with_group_cookie(redirect(url_for("groups.group_page", group_id=group.id), 303), group, key)
    elif form.errors:
        error = _error_text(form)
    status = 400 if request.method == "POST" else 200
    return render_template("groups/new_group.html", form=form, error=error), status


def _group_page(group: Group, form: StartGameForm, error: str | None, status: int) -> Response:
    view = service.group_view(group)
    key = _held_key(group)
    share_url = _share_url(group)
    edit_url = join_url(share_url, key) if key else None
    page = render_template(
        "groups/group.html",
        view=view,
        chart=Markup(service.rating_chart(view)),  # built by our chart code; names are escaped there
        can_edit=key is not None,
        form=form,
        error=error,
        share_url=share_url,
        view_svg=qr_svg(share_url, "QR code of the group page"),
        edit_url=edit_url,
        edit_svg=qr_svg(edit_url, "QR code of the group's key") if edit_url else None,
    )
    response = make_response(page, status)
    if key:
        response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/groups/<group_id>")
def group_page(group_id: str) -> Response:
    group = _load(group_id)
    return _group_page(group, _start_form(group), None, 200)


@bp.post("/groups/<group_id>/games")
def start_game(group_id: str) -> Any:
    group = _load(group_id)
    key = _held_key(group)
    if key is None:
        abort(403, description=NO_KEY)
    form = _start_form(group)
    if not form.validate_on_submit():
        return _group_page(group, form, _error_text(form) or "Choose a game and its players.", 400)
    try:
        game, game_key = service.start_game(group, key, form.variant.data, form.player_names())
    except ServiceError as failure:  # refused before anything was stored
        return _group_page(group, form, sentence(failure.message), failure.status)
    return with_key_cookie(redirect(url_for("games.game_page", game_id=game.id), 303), game, game_key)


def _join_page(group: Group, form: JoinGroupForm, error: str | None, status: int) -> Response:
    response = make_response(render_template("groups/join.html", group=group, form=form, error=error), status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/groups/<group_id>/join")
def join(group_id: str) -> Any:
    """The join page: its script posts the group's key from the address's fragment (#key=...)."""
    group = _load(group_id)
    old_key = request.args.get(JOIN_PARAMETER)
    if old_key is not None:  # a link made before the key moved to the fragment: never read, never counted
        fragment = urlencode({JOIN_PARAMETER: old_key[:MAX_KEY_LENGTH]})
        response = redirect(url_for("groups.join", group_id=group.id, _anchor=fragment), 303)
        response.headers["Cache-Control"] = "no-store"
        return response
    return _join_page(group, JoinGroupForm(), None, 200)


@bp.post("/groups/<group_id>/join")
def join_with_key(group_id: str) -> Any:
    """Take the group's key into this browser's cookie (wrong keys are counted: 429 past the limit)."""
    group = _load(group_id)
    form = JoinGroupForm()  # its CSRF token was checked by CSRFProtect before the view ran
    key = (form.key.data or "").strip()
    if not form.validate() or not key:
        error = next(iter(form.key.errors), "Paste the group key from the other phone.")
        return _join_page(group, form, error, 400)
    if not check_group_key(group, key):
        error = "This key does not work for this group; it may have been replaced. Ask again."
        return _join_page(group, JoinGroupForm(formdata=None), error, 403)
    return _with_group_cookie(redirect(url_for("groups.group_page", group_id=group.id), 303), group, key)


@bp.post("/groups/<group_id>/key")
def new_key(group_id: str) -> Any:
    """Replace the group's key; this browser gets the new one, every other phone loses it."""
    group = _load(group_id)
    if _held_key(group) is None:  # the CSRF token is checked for every form (companion.extensions)
        abort(403, description="Only a phone with this group's key can replace it.")
    key = service.regenerate_group_key(group)
    response = redirect(url_for("groups.group_page", group_id=group.id, _anchor="share-edit"), 303)
    return _with_group_cookie(response, group, key)


@bp.get("/groups/<group_id>/statistics.csv")
def statistics_csv(group_id: str) -> Response:
    group = _load(group_id)
    response = make_response(service.statistics_csv(service.group_view(group)))
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="group-{group.id}-statistics.csv"'
    return response
