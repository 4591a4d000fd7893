"""Issue 28, section 4: a PDF renderer never outlives its gunicorn worker, even one killed with SIGKILL."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

from flask import Flask

from tests.servers import call, start_gunicorn, stop


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ask_for_a_sheet(base_url: str) -> None:
    with contextlib.suppress(OSError):  # its worker is killed meanwhile
        call(base_url, "GET", "/sheets/three-thirteen.pdf?players=Ann,Bob,Cy")


def test_a_worker_killed_during_a_render_leaves_no_renderer(app: Flask, database_url: str, tmp_path: Path) -> None:
    process, base_url = start_gunicorn(tmp_path / "gunicorn", database_url, workers=1, threads=2)
    try:
        status, _ = call(base_url, "GET", "/sheets/pay-me.pdf?players=Ann,Bob", timeout=120)
        assert status == 200
        (worker,) = children(process.pid)
        renderers = children(worker)
        assert renderers, "the worker has started its renderer"
        rendering = threading.Thread(target=ask_for_a_sheet, args=(base_url,), daemon=True)
        rendering.start()
        time.sleep(0.3)  # the request reaches the worker: the kill lands before or during the render
        os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in renderers):
            time.sleep(0.2)
        assert not [pid for pid in renderers if alive(pid)], "a renderer outlived its worker"
    finally:
        stop(process)
