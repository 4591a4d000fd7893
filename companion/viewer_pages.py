"""A game's pages as the phones without its edit key read them: named by the game's state, and
rendered once per state in each worker (issue 28).

Six clients reading the heaviest game back to back kept both workers' cores busy rendering the same
page again and again, and another table's page waited its turn. A page for a phone without the key
holds no key, no CSRF token and nothing of the browser's own, so while the game's state is the same
it is the same page for everyone. That state is: the address asked (path and query), the address
the page shares, the game's version (every change to a game moves it), its log of checks (a check
moves no version: their count and the latest id), and its group. Its digest is the page's ETag
and the key under which this worker keeps the page rendered (the latest MEMO_PAGES pages, none
over MEMO_BYTES). A browser that sends the ETag back (``If-None-Match``) gets an empty 304; any
other reader gets the page kept, without a render. A phone holding the key gets a page rendered
for it every time.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path

from flask import current_app, make_response, request
from werkzeug.wrappers import Response

from companion.models import Game
from companion.services import disputes, groups
from companion.sharing.links import share_url

ROOT = Path(__file__).resolve().parent.parent  # the checkout (not `companion.ROOT`: no import cycle)

MEMO_PAGES = 64
"""Pages kept rendered by one worker (the latest used)."""
MEMO_BYTES = 400_000
"""A page larger than this is rendered every time (no page of a game is over 300 KB)."""

_BUILD_LOCK = threading.Lock()
_build: str | None = None


def build_stamp() -> str:
    """What the rendered pages depend on besides the game: the code and templates as installed (their
    names, sizes and times), so a new release never answers 304 for a page it renders otherwise."""
    global _build
    with _BUILD_LOCK:
        if _build is None:
            digest = hashlib.sha256()
            for folder in ("templates", "companion", "engine"):
                for path in sorted(Path(ROOT, folder).rglob("*")):
                    if path.suffix in (".py", ".html"):
                        status = path.stat()
                        digest.update(f"{path.relative_to(ROOT)} {status.st_size} {status.st_mtime_ns}\n".encode())
            _build = digest.hexdigest()[:16]
        return _build


class PageMemo:
    """The latest pages rendered, by ETag; shared by a worker's threads."""

    def __init__(self, pages: int = MEMO_PAGES, most_bytes: int = MEMO_BYTES) -> None:
        self._pages: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._most = pages
        self._most_bytes = most_bytes

    def get(self, etag: str) -> str | None:
        with self._lock:
            page = self._pages.get(etag)
            if page is not None:
                self._pages.move_to_end(etag)
            return page

    def keep(self, etag: str, page: str) -> None:
        if len(page) > self._most_bytes:
            return
        with self._lock:
            self._pages[etag] = page
            self._pages.move_to_end(etag)
            while len(self._pages) > self._most:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


def page_memo() -> PageMemo:
    """This app's pages kept (one per app, so test apps never share them)."""
    memo: PageMemo = current_app.extensions.setdefault("viewer_pages", PageMemo())
    return memo


def game_state(game: Game) -> Hashable:
    """What a game's pages for a phone without the key show of it, besides the address asked."""
    group = groups.group_of_game(game.id)
    return (game.id, game.version, share_url(game.id), group and (group.id, group.name), disputes.log_stamp(game.id))


def page_etag(state: Hashable) -> str:
    """The ETag (unquoted) of the page at this address for a game in `state` (see the module's docstring)."""
    digest = hashlib.sha256(repr((build_stamp(), request.full_path, state)).encode()).hexdigest()
    return f"p-{digest[:32]}"


def viewer_page(game: Game, render: Callable[[], str]) -> Response:
    """The page for a phone without the key: 304 when it holds the page of the game's state, else the
    page kept for that state, rendered (and kept) only when there is none."""
    etag = page_etag(game_state(game))
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        memo = page_memo()
        page = memo.get(etag)
        if page is None:
            page = render()
            memo.keep(etag, page)
        response = make_response(page)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"  # kept by the browser, asked again each time (a 304)
    response.vary.add("Cookie")  # a phone holding the key gets another page at the same address
    return response
