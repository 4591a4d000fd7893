"""State reads while PDF sheets render (issue 16): the same reads alone, then beside PDF clients.

Run from the repository root:  python benchmarks/pdf_load.py [--seconds 20] [--pdf-clients 8]

gunicorn on 127.0.0.1 (``--workers 2 --threads 4``, as benchmarks/load.py) on a fresh SQLite file.
Two phases of ``--seconds`` each, on the same server:

1. alone: ``--reads`` state reads per second (``GET /api/games/<id>``, full 200 answers) spread
   over ``--readers`` open-loop clients and 20 games;
2. with PDFs: the same reads, and ``--pdf-clients`` closed-loop clients, each on a game of its own
   (Pay Me, 8 players, 10 rounds): enter round 11 or undo it (so the version moves and no kept
   sheet can answer), then ``GET /games/<id>/sheet.pdf``. A 503 is counted as refused, and the
   client waits its Retry-After (at most 5 s) before the next try, as a browser would let a user.

Prints one Markdown table: the reads' latency in each phase, their p95 ratio, and the PDFs served.
Errors: any read answer other than 200, any PDF answer other than 200/503, a failed connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load import http, percentile  # noqa: E402
from tests.servers import call, start_gunicorn, stop  # noqa: E402

PLAYERS = [f"P{seat}" for seat in range(1, 9)]


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU time of gunicorn and every process under it (workers, rendering children)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
        times[int(stat.parent.name)] = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / ticks

    def under(process: int) -> bool:
        while process > 1:
            if process == pid:
                return True
            process = parents.get(process, 0)
        return False

    return sum(seconds for process, seconds in times.items() if under(process))


def scores(went_out: str, rng: random.Random) -> dict[str, int]:
    return {name: 0 if name == went_out else rng.randrange(0, 120) for name in PLAYERS}


def new_game(base_url: str, rounds: int, rng: random.Random) -> tuple[str, str, int]:
    status, game = call(base_url, "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS})
    assert status == 201, game
    version = game["version"]
    for number in range(rounds):
        went_out = PLAYERS[number % len(PLAYERS)]
        body = {"went_out": went_out, "scores": scores(went_out, rng), "version": version}
        status, state = call(base_url, "POST", f"/api/games/{game['id']}/rounds", body, key=game["edit_key"])
        assert status == 201, state
        version = state["version"]
    return game["id"], game["edit_key"], version


class Tally:
    def __init__(self) -> None:
        self.reads: list[float] = []
        self.pdfs: list[float] = []
        self.refused = 0
        self.errors: list[str] = []

    def error(self, detail: str) -> None:
        self.errors.append(detail)


async def reader(port: int, games: list[str], interval: float, end: float, tally: Tally) -> None:
    rng = random.Random()
    due = time.perf_counter() + rng.uniform(0, interval)
    while due < end:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        try:
            status, _, _ = await http(port, "GET", f"/api/games/{rng.choice(games)}")
        except (OSError, ValueError, IndexError) as error:
            tally.error(f"read: {error!r}")
        else:
            if status == 200:
                tally.reads.append(time.perf_counter() - due)
            else:
                tally.error(f"read: {status}")
        due += interval


async def pdf_client(port: int, game: tuple[str, str, int], end: float, tally: Tally) -> None:
    game_id, key, version = game
    rng = random.Random()
    added = False
    while time.perf_counter() < end:
        if added:
            request = http(
                port,
                "DELETE",
                f"/api/games/{game_id}/rounds/last?version={version}",
                headers={"X-Edit-Key": key, "If-Match": f'"v{version}"'},
            )
        else:
            body = json.dumps({"went_out": "P3", "scores": scores("P3", rng), "version": version}).encode()
            request = http(port, "POST", f"/api/games/{game_id}/rounds", body, {"X-Edit-Key": key})
        status, _, payload = await request
        if status not in (200, 201):
            tally.error(f"write: {status} {payload[:100]!r}")
            return
        version, added = json.loads(payload)["version"], not added
        started = time.perf_counter()
        try:
            status, headers, payload = await http(port, "GET", f"/games/{game_id}/sheet.pdf")
        except (OSError, ValueError, IndexError) as error:
            tally.error(f"pdf: {error!r}")
            continue
        if status == 200 and payload.startswith(b"%PDF"):
            tally.pdfs.append(time.perf_counter() - started)
        elif status == 503:
            tally.refused += 1
            await asyncio.sleep(min(5.0, float(headers.get("retry-after", "1"))))
        else:
            tally.error(f"pdf: {status} {payload[:100]!r}")


async def phase(port: int, games: list[str], pdf_games: list[tuple[str, str, int]], args: argparse.Namespace) -> Tally:
    tally = Tally()
    end = time.perf_counter() + args.seconds
    interval = args.readers / args.reads
    tasks = [reader(port, games, interval, end, tally) for _ in range(args.readers)]
    tasks += [pdf_client(port, game, end, tally) for game in pdf_games]
    await asyncio.gather(*tasks)
    return tally


def ms(value: float) -> str:
    return f"{value * 1000:,.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--reads", type=float, default=100.0, help="state reads per second")
    parser.add_argument("--readers", type=int, default=40)
    parser.add_argument("--pdf-clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()

    from flask_migrate import upgrade

    from companion import create_app
    from companion.extensions import db

    rng = random.Random(16)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        database_url = f"sqlite:///{base / 'pdf.sqlite3'}"
        config = {"SECRET_KEY": "pdf", "SQLALCHEMY_DATABASE_URI": database_url}
        app = create_app(config, instance_path=str(base / "app"))
        with app.app_context():
            upgrade()
            db.engine.dispose()
        process, base_url = start_gunicorn(base / "server", database_url, workers=args.workers, threads=args.threads)
        port = int(base_url.rsplit(":", 1)[1])
        rows = []
        try:
            games = [new_game(base_url, 6, rng)[0] for _ in range(20)]
            pdf_games = [new_game(base_url, 10, rng) for _ in range(args.pdf_clients)]
            for game_id, _, _ in pdf_games[: args.workers * 2]:  # each worker's first sheet loads WeasyPrint
                call(base_url, "GET", f"/games/{game_id}/sheet.pdf", timeout=120)
            for name, clients in (("alone", []), ("with PDFs", pdf_games)):
                load_before = os.getloadavg()[0]
                cpu_before = server_cpu_seconds(process.pid)
                started = time.perf_counter()
                tally = asyncio.run(phase(port, games, clients, args))
                seconds = time.perf_counter() - started
                cpu = server_cpu_seconds(process.pid) - cpu_before
                rows.append((name, tally, seconds, load_before, cpu))
                print(f"{name}: done", flush=True)
        finally:
            stop(process)
    print(
        f"\ngunicorn {args.workers} workers x {args.threads} threads; {args.reads:.0f} state reads/s; "
        f"{args.pdf_clients} PDF clients; {args.seconds:.0f} s per phase; {os.cpu_count()} cores\n"
    )
    print(
        "| phase | load average | reads | reads/s | median | p95 | p99 | max | PDFs served | median PDF "
        "| 503 | errors | server CPU |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, tally, _seconds, load, cpu in rows:
        pdf_median = ms(statistics.median(tally.pdfs)) if tally.pdfs else ""
        print(
            f"| {name} | {load:.1f} | {len(tally.reads):,} | {len(tally.reads) / args.seconds:.0f} "
            f"| {ms(statistics.median(tally.reads))} | {ms(percentile(tally.reads, 0.95))} "
            f"| {ms(percentile(tally.reads, 0.99))} | {ms(max(tally.reads))} | {len(tally.pdfs)} | {pdf_median} "
            f"| {tally.refused} | {len(tally.errors)} | {cpu:.1f} s |"
        )
    alone, loaded = rows[0][1], rows[1][1]
    ratio = percentile(loaded.reads, 0.95) / percentile(alone.reads, 0.95)
    print(f"\nstate-read p95 with PDFs / alone: {ratio:.1f}x")
    for _, tally, *_ in rows:
        for sample in tally.errors[:3]:
            print("- error sample:", sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())
