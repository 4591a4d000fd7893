"""The app's CPU for one page read refused past RATELIMIT_PAGE_READS, beside a static file's (issue 28).

Run from the repository root:  python benchmarks/refusal_cpu.py [--requests 3000] [--root DIR]

Calls the app's WSGI callable directly (no server, no socket: the app's own share of a request) on a
throwaway SQLite database, from one client address whose page-read limit is spent, and reports the
median over ``--runs`` of the CPU (process time) per request of: a refused read of a game's page,
and a small static file (``/static/icon.svg``). ``--root`` measures another checkout (a baseline).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve() if "--root" in sys.argv else HERE  # a baseline
sys.path.insert(0, str(ROOT))

from werkzeug.test import EnvironBuilder  # noqa: E402

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402


def per_request(app: Any, path: str, requests: int) -> tuple[float, str]:
    """CPU microseconds per request of GET `path` from 127.0.0.9, and the status answered."""
    environ = EnvironBuilder(path=path, environ_base={"REMOTE_ADDR": "127.0.0.9"}).get_environ()
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
        statuses.append(status)

    def call() -> None:
        body: Iterable[bytes] = app(dict(environ), start_response)
        b"".join(body)
        getattr(body, "close", lambda: None)()

    for _ in range(50):
        call()
    started = time.process_time()
    for _ in range(requests):
        call()
    return (time.process_time() - started) / requests * 1e6, statuses[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", help="measure another checkout (a baseline)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/refusal.sqlite3"}
        app = create_app({**config, "RATELIMIT_PAGE_READS": "1/day"}, instance_path=folder)
        with app.app_context():
            db.create_all()
        app.config["RATELIMIT_ENABLED"] = False
        game = app.test_client().post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob", "Cy"]})
        app.config["RATELIMIT_ENABLED"] = True
        print(f"| request ({ROOT.name}) | status | CPU per request, median of {args.runs} |\n|---|---|---:|")
        game_id = game.get_json()["id"]
        for path in (f"/games/{game_id}", "/static/icon.svg"):
            runs = [per_request(app, path, args.requests) for _ in range(args.runs)]
            status = runs[-1][1]
            median = statistics.median(cpu for cpu, _ in runs)
            print(f"| `{path.replace(game_id, '<id>')}` | {status} | {median:.0f} µs |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
