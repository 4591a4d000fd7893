"""Real servers for the concurrency, durability and load tests: gunicorn or werkzeug on 127.0.0.1.

Not a test module: helpers shared by tests/app/test_concurrency.py, tests/app/test_durability.py,
tests/e2e/test_e2e_eight_phones.py and benchmarks/load.py.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")


def call(
    base_url: str,
    method: str,
    path: str,
    body: Any = None,
    key: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, Any]:
    """One HTTP request on a fresh connection; the status and the decoded JSON body (or None)."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
    sent = dict(headers or {})
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    if key:
        sent["X-Edit-Key"] = key
    try:
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        data = raw.decode("utf-8", "replace")
    return response.status, data


def wait_until_up(base_url: str, process: subprocess.Popen[Any] | None = None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            status, _ = call(base_url, "GET", "/healthz", timeout=5)
        except OSError:
            status = 0
        if status == 200:
            return
        time.sleep(0.1)
    raise RuntimeError(f"the server at {base_url} did not answer within {timeout} s")


def server_env(database_url: str) -> dict[str, str]:
    """The environment of a server subprocess: the database, a fixed secret, no rate limits."""
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url,
            "FLASK_SECRET_KEY": "server test secret",
            "FLASK_RATELIMIT_ENABLED": "false",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def start_gunicorn(
    instance: Path,
    database_url: str,
    workers: int = 2,
    threads: int = 1,
    app_spec: str | None = None,
    extra: tuple[str, ...] = (),
) -> tuple[subprocess.Popen[str], str]:
    """Start gunicorn on a free 127.0.0.1 port; returns the process and its base URL once it answers."""
    instance.mkdir(parents=True, exist_ok=True)
    spec = app_spec or f"companion:create_app(instance_path={str(instance)!r})"
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--bind",
        "127.0.0.1:0",
        "--log-level",
        "info",
        "--graceful-timeout",
        "2",
        *extra,
        spec,
    ]
    log = (instance / "gunicorn.log").open("w+", encoding="utf-8")
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env(database_url),
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, so kill_now can kill master and workers at once
    )
    deadline = time.monotonic() + 30
    port = None
    while port is None:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            log.seek(0)
            raise RuntimeError("gunicorn did not start:\n" + log.read()[-3000:])
        log.seek(0)
        match = LISTENING.search(log.read())
        if match:
            port = int(match.group(1))
        else:
            time.sleep(0.05)
    base_url = f"http://127.0.0.1:{port}"
    if app_spec is None:
        wait_until_up(base_url, process)
    return process, base_url


def stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGQUIT)  # gunicorn's quick shutdown
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def kill_now(process: subprocess.Popen[Any]) -> None:
    """SIGKILL the server and its workers at once, as a power cut or the OOM killer would."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


@contextmanager
def gunicorn(instance: Path, database_url: str, **options: Any) -> Iterator[str]:
    process, base_url = start_gunicorn(instance, database_url, **options)
    try:
        yield base_url
    finally:
        stop(process)


@contextmanager
def threaded_server(app: Flask) -> Iterator[str]:
    """The app in this process behind werkzeug's threaded server (one thread per request)."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
