"""PDF sheets without starving the other requests (issue 16): rendered away from the request
threads, one at a time per server process, at a lower priority, and kept in the database.

- WeasyPrint runs in one child process per server process (a ``ProcessPoolExecutor`` of one,
  started with "spawn" on first use, its priority lowered with ``os.nice`` in the initializer).
  The request thread renders the sheet's HTML (quick), hands it over and waits; while it waits it
  holds neither the GIL nor a core, so the state reads go on.
- At most ``PDF_QUEUE`` sheets (default 3: one rendering, two waiting) are pending per server
  process; past that, or after ``PDF_TIMEOUT`` seconds (default 20, under gunicorn's 30 s), the
  answer is 503 with ``Retry-After``.
- A blank sheet is kept in ``blank_sheet_pdfs`` by the HTML its parameters make (the latest
  ``KEPT_BLANK_SHEETS``), so asking for the same one again keeps no renderer busy.
- The renderer never outlives its server process, even one killed with SIGKILL (_die_with_parent).
- A game's sheet is kept in the ``sheet_pdfs`` table by game, version and paper, where every
  server sees it (the instance folder is not shared between machines; the database is). A write
  raises the version, so a kept sheet is never stale; older versions of the game's sheets are
  dropped when a newer one is kept.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from flask import current_app
from sqlalchemy.exc import IntegrityError

from companion.errors import ServiceError
from companion.extensions import db
from companion.models import BlankSheetPdf, Game, SheetPdf
from companion.services import kinds, play_or_pay, pool, sheets

DEFAULT_QUEUE = 3
DEFAULT_TIMEOUT = 20.0
TESTING_TIMEOUT = 180.0
RETRY_AFTER = 5
NICENESS = 10
PARENT_POLL_SECONDS = 1.0
KEPT_BLANK_SHEETS = 200
BUSY = "The server is printing other sheets right now; try again in a few seconds."


class Busy(ServiceError):
    """Too many sheets are waiting to be rendered in this server process (503, Retry-After)."""

    status = 503

    def __init__(self, message: str = BUSY, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _start_child(parent: int | None = None) -> None:
    """The child's initializer: follow its server process (`parent`) in death, let request threads
    have the cores first, load WeasyPrint now."""
    _die_with_parent(os.getppid() if parent is None else parent)
    os.nice(NICENESS)
    sheets.load_weasyprint()


def _die_with_parent(parent: int) -> None:
    """A worker killed outright (SIGKILL by an operator, the OOM killer, gunicorn after a timeout)
    cannot shut its renderer down: the renderer then ends itself, as a thread of it sees its parent
    gone. (Not PR_SET_PDEATHSIG: it fires when the *thread* that spawned the child ends, and the
    development server spawns it from a request's thread.)"""
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)


class Renderer:
    """One rendering process per server process, with a bounded number of sheets pending."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._pool_pid = 0
        self.pending = 0

    def _executor(self) -> ProcessPoolExecutor:
        # A gunicorn worker is a fork of the master: each process starts its own child.
        if self._pool is None or self._pool_pid != os.getpid():
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_start_child, initargs=(os.getpid(),))
            self._pool_pid = os.getpid()
        return self._pool

    def run(self, call: Callable[[str], bytes], html: str, limit: int, timeout: float) -> bytes:
        with self._lock:
            if self.pending >= limit:
                raise Busy()
            self.pending += 1
            pool = self._executor()
        try:
            return pool.submit(call, html).result(timeout)
        except FutureTimeout as error:
            raise Busy() from error
        except BrokenProcessPool as error:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            raise Busy() from error
        finally:
            with self._lock:
                self.pending -= 1

    def shutdown(self) -> None:
        with self._lock:
            if self._pool is not None and self._pool_pid == os.getpid():
                self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


RENDERER = Renderer()


def render(html: str) -> bytes:
    """A sheet's HTML as a PDF, in the rendering process (Busy when too many are pending)."""
    config = current_app.config
    limit = int(config.get("PDF_QUEUE", DEFAULT_QUEUE))
    # Tests share a loaded machine, and the child's first start (imports, WeasyPrint) at a low
    # priority can take long there: a generous default, unless a test sets its own.
    timeout = float(config.get("PDF_TIMEOUT", TESTING_TIMEOUT if current_app.testing else DEFAULT_TIMEOUT))
    return RENDERER.run(sheets.html_to_pdf, html, limit, timeout)


def _kept(game: Game, paper: str) -> bytes | None:
    query = db.select(SheetPdf.data).filter_by(game_id=game.id, version=game.version, paper=paper)
    data = db.session.scalar(query)
    return bytes(data) if data is not None else None


def _keep(game: Game, paper: str, data: bytes) -> None:
    """Keep a rendered sheet; another server may have kept the same one a moment ago (no matter)."""
    game_id, version = game.id, game.version
    try:
        db.session.execute(db.delete(SheetPdf).where(SheetPdf.game_id == game_id, SheetPdf.version < version))
        db.session.add(SheetPdf(game_id=game_id, version=version, paper=paper, data=data))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()


def game_sheet(game: Game, paper: str) -> bytes:
    """A game's score sheet (a Play or Pay game: its chip tally) as a PDF, kept by version and paper."""
    kept = _kept(game, paper)
    if kept is not None:
        return kept
    if pool.is_pool(game):
        html = sheets.pool_sheet_pdf_html(pool_sheet_state(game), paper)
    elif kinds.of(game).in_rounds:
        html = sheets.game_sheet_pdf_html(sheet_state(game), paper)
    else:
        html = sheets.chip_tally_pdf_html(
            game.players, paper, results=play_or_pay.final_results(game), played=play_or_pay.tally(game)
        )
    data = render(html)
    _keep(game, paper, data)
    return data


def blank_sheet(preset: str, names: list[str] | None, paper: str) -> bytes:
    """A blank sheet as a PDF (the HTML first, so its errors come from this process), kept by the
    HTML its parameters make, so that asking for the same sheet again never renders it again."""
    html = sheets.blank_sheet_pdf_html(preset, names, paper)
    html_hash = hashlib.sha256(html.encode()).hexdigest()
    kept = db.session.scalar(db.select(BlankSheetPdf.data).filter_by(html_hash=html_hash))
    if kept is not None:
        return bytes(kept)
    data = render(html)
    _keep_blank(html_hash, data)
    return data


def _keep_blank(html_hash: str, data: bytes) -> None:
    """Keep a blank sheet, and only the latest KEPT_BLANK_SHEETS of them (they are few in use)."""
    try:
        db.session.add(BlankSheetPdf(html_hash=html_hash, data=data))
        db.session.flush()
        oldest_kept = db.select(BlankSheetPdf.id).order_by(BlankSheetPdf.id.desc()).offset(KEPT_BLANK_SHEETS).limit(1)
        cutoff = db.session.scalar(oldest_kept)
        if cutoff is not None:
            db.session.execute(db.delete(BlankSheetPdf).where(BlankSheetPdf.id <= cutoff))
        db.session.commit()
    except IntegrityError:  # another request kept the same sheet a moment ago
        db.session.rollback()


def sheet_state(game: Game) -> dict[str, Any]:
    """The API state of the game, with its date for the sheet."""
    state = kinds.state_json(game)
    state["options"] = dict(game.options)  # the rule options only: a pot's amounts are not rules
    state["created_at"] = game.created_at.isoformat()
    return state


def pool_sheet_state(game: Game) -> dict[str, Any]:
    """A pool game's state (companion.services.pool), with its date for the sheet."""
    state = pool.state_json(game)
    state["created_at"] = game.created_at.isoformat()
    return state
