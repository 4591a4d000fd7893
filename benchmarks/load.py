"""Load test: 50 tables of 8 phones against gunicorn on 127.0.0.1, and a bare Flask "hello" baseline.

Run from the repository root:  python benchmarks/load.py [--tables 50] [--phones 8] [--seconds 30]

Each table has one game (Pay Me, 8 players) and 8 phones. Every phone polls the game the way
static/js/live.js does: ``GET /api/games/<id>/version`` with ``If-None-Match`` (an empty 304 while
nothing changed) every ``--poll`` seconds, and when the version moved, ``GET /api/games/<id>`` for
the full state. One phone per table is the scorer: every ``--write`` seconds it enters the next
round (``POST .../rounds`` with the version it holds); after round 11 it undoes the last round
and goes on. The schedule is open-loop (each phone keeps its own clock, with random offsets), so
a slow answer does not lower the offered load; the latency is measured from the moment a request
was due.

The same gunicorn settings then serve benchmarks/hello_app.py, and the same number of requests per
second is sent to its ``GET /hello`` (as many clients, each sending at a fixed interval).

With ``--reads``, a phase between the two sends the same request rate as reads only, on the games
the companion phase played: each phone alternates a poll (``If-None-Match``: 304) and a full state
read (200), so its "server CPU per request" is the cost of a state or poll request alone.

Errors: any answer other than 200/201/304, or a failed connection. Only 127.0.0.1; stops by itself
(default 30 s per phase plus start-up). Prints a Markdown table.
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
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import call, start_gunicorn, stop  # noqa: E402

PLAYERS = [f"P{seat}" for seat in range(1, 9)]


@dataclass
class Results:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    error_samples: list[str] = field(default_factory=list)
    slow_at: list[float] = field(default_factory=list)

    def add(self, kind: str, seconds: float, due: float = 0.0) -> None:
        self.latencies[kind].append(seconds)
        if seconds > 0.1:
            self.slow_at.append(due)

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{kind}: {detail}")


async def http(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on its own connection (Connection: close)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split()[1])
    received = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        received[name.strip().lower()] = value.strip()
    return status, received, payload


async def timed(
    results: Results, kind: str, due: float, request: Any, ok: tuple[int, ...]
) -> tuple[int, dict[str, str], bytes] | None:
    try:
        status, headers, payload = await request
    except (OSError, ValueError, IndexError) as error:
        results.error(kind, repr(error))
        return None
    elapsed = time.perf_counter() - due
    if status not in ok:
        results.error(kind, f"{status} {payload[:120]!r}")
        return None
    results.add(kind, elapsed, due)
    return status, headers, payload


async def hello_client(port: int, interval: float, end: float, results: Results) -> None:
    """The baseline: GET /hello every `interval` seconds, open-loop like a phone."""
    due = time.perf_counter() + random.uniform(0, interval)
    while due < end:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        await timed(results, "hello", due, http(port, "GET", "/hello"), (200,))
        due += interval


async def phone(
    port: int, game_id: str, key: str | None, args: argparse.Namespace, end: float, results: Results
) -> None:
    """One phone: poll every args.poll s; the scorer also enters a round every args.write s."""
    rng = random.Random()
    etag = ""
    version = 1
    next_poll = time.perf_counter() + rng.uniform(0, args.poll)
    next_write = time.perf_counter() + rng.uniform(0, args.write) if key else float("inf")
    played = 0
    while True:
        due = min(next_poll, next_write)
        if due >= end:
            return
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if due == next_write:
            scorer = PLAYERS[played % len(PLAYERS)]
            # At most 45: what 3 cards can score in Pay Me's first round, so every round's scores are possible.
            scores = {name: 0 if name == scorer else rng.randrange(0, 46) for name in PLAYERS}
            if played >= 11:
                last = f"/api/games/{game_id}/rounds/last?version={version}"
                request = http(port, "DELETE", last, headers={"X-Edit-Key": key or ""})
                answer = await timed(results, "write", due, request, (200,))
            else:
                body = json.dumps({"went_out": scorer, "scores": scores, "version": version}).encode()
                request = http(port, "POST", f"/api/games/{game_id}/rounds", body, {"X-Edit-Key": key or ""})
                answer = await timed(results, "write", due, request, (201,))
            if answer:
                state = json.loads(answer[2])
                version, played = state["version"], len(state["rounds"])
        else:
            headers = {"If-None-Match": etag} if etag else {}
            answer = await timed(
                results, "poll", due, http(port, "GET", f"/api/games/{game_id}/version", headers=headers), (200, 304)
            )
            if answer and answer[0] == 200:
                etag = answer[1].get("etag", "")
                state_due = time.perf_counter()
                state = await timed(results, "state", state_due, http(port, "GET", f"/api/games/{game_id}"), (200,))
                if state and key:
                    data = json.loads(state[2])
                    version, played = data["version"], len(data["rounds"])
        if due == next_write:
            next_write += args.write
        else:
            next_poll += args.poll


async def reading_phone(port: int, game_id: str, interval: float, end: float, results: Results) -> None:
    """The "reads" phase: no writes; the phone alternates a poll (304 with its ETag) and a full state read."""
    etag = ""
    due = time.perf_counter() + random.uniform(0, interval)
    turn = random.randrange(2)
    while due < end:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if turn % 2:
            answer = await timed(results, "state", due, http(port, "GET", f"/api/games/{game_id}"), (200,))
            if answer:
                etag = answer[1].get("etag", etag)
        else:
            headers = {"If-None-Match": etag} if etag else {}
            request = http(port, "GET", f"/api/games/{game_id}/version", headers=headers)
            await timed(results, "poll", due, request, (200, 304))
        turn += 1
        due += interval


async def run_phase(
    port: int, games: list[tuple[str, str]], args: argparse.Namespace, hello_rate: float, reads: bool = False
) -> tuple[Results, float]:
    """The tables' phones, or (hello_rate > 0) as many clients sending GET /hello at that total rate,
    or (reads) the phones reading at that rate without writes."""
    results = Results()
    start = time.perf_counter()
    end = start + args.seconds
    clients = args.tables * args.phones
    if reads:
        interval = clients / hello_rate
        await asyncio.gather(
            *(reading_phone(port, game_id, interval, end, results) for game_id, _ in games for _ in range(args.phones))
        )
    elif hello_rate:
        await asyncio.gather(*(hello_client(port, clients / hello_rate, end, results) for _ in range(clients)))
    else:
        phones = [
            phone(port, game_id, key if seat == 0 else None, args, end, results)
            for game_id, key in games
            for seat in range(args.phones)
        ]
        await asyncio.gather(*phones)
    return results, time.perf_counter() - start


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def warm_up(port: int, games: list[tuple[str, str]], args: argparse.Namespace, rate: float) -> None:
    """Reads (or hellos) for --warmup seconds before the measure: every worker has booted (a worker
    importing the app takes a second or two of CPU) and the caches hold what a running server holds."""
    if args.warmup <= 0:
        return
    warm = argparse.Namespace(**{**vars(args), "seconds": args.warmup})
    asyncio.run(run_phase(port, games, warm, rate, reads=bool(games)))


def played_games(base_url: str, tables: int) -> list[str]:
    """The games the companion phase played (the same database): for the reads phase."""
    status, listing = call(base_url, "GET", "/api/games")  # the open list: PUBLIC_GAME_LIST, set in main()
    assert status == 200, listing
    return [game["id"] for game in listing["games"][:tables]]


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the gunicorn master and its workers so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == str(pid) or fields[1] == str(pid):  # the master, or one of its workers
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def report(name: str, results: Results, seconds: float, cpu_ms: float) -> list[str]:
    rows = []
    everything = [value for values in results.latencies.values() for value in values]
    kinds = [*sorted(results.latencies), "all"] if len(results.latencies) > 1 else ["all"]
    for kind in kinds:
        values = everything if kind == "all" else results.latencies[kind]
        errors = sum(results.errors.values()) if kind == "all" else results.errors.get(kind, 0)
        cells = [
            name,
            kind,
            f"{len(values):,}",
            f"{len(values) / seconds:.0f}",
            f"{statistics.median(values) * 1000:.1f} ms",
            f"{percentile(values, 0.95) * 1000:.1f} ms",
            f"{percentile(values, 0.99) * 1000:.1f} ms",
            f"{max(values) * 1000:.0f} ms",
            str(errors),
            f"{cpu_ms:.2f} ms" if kind == "all" else "",
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def main() -> int:
    os.environ["PUBLIC_GAME_LIST"] = "true"  # the reads phase lists the games played (a private server's open list)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    parser.add_argument("--poll", type=float, default=2.5, help="seconds between a phone's polls (live.js: 2.5)")
    parser.add_argument("--write", type=float, default=5.0, help="seconds between a table's rounds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--database-url", default="", help="default: a temporary SQLite file")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of unmeasured reads before each phase")
    parser.add_argument(
        "--reads",
        action="store_true",
        help="add a phase of reads only (polls and full states, half each) at the companion's request rate",
    )
    args = parser.parse_args()

    from flask_migrate import upgrade

    from companion import create_app
    from companion.extensions import db

    gunicorn_options: dict[str, Any] = {"workers": args.workers, "threads": args.threads}
    print(f"gunicorn: {args.workers} workers x {args.threads} threads (gthread), 127.0.0.1; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        database_url = args.database_url or f"sqlite:///{base / 'load.sqlite3'}"
        app = create_app(
            {"SECRET_KEY": "load", "SQLALCHEMY_DATABASE_URI": database_url}, instance_path=str(base / "app")
        )
        with app.app_context():
            upgrade()
            db.engine.dispose()
        table = [
            "| server | requests | count | req/s | median | p95 | p99 | max | errors | server CPU per request |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        phases = [("companion", None), ("hello", "benchmarks.hello_app:app")]
        if args.reads:
            phases.insert(1, ("reads", None))
        notes = []
        hello_rate = 0.0
        for name, spec in phases:
            process, base_url = start_gunicorn(base / name, database_url, app_spec=spec, **gunicorn_options)
            port = int(base_url.rsplit(":", 1)[1])
            try:
                deadline = time.monotonic() + 30
                while call(base_url, "GET", "/hello" if spec else "/healthz")[0] != 200:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{name} did not start")
                    time.sleep(0.1)
                games: list[tuple[str, str]] = []
                if spec is None and name == "reads":
                    games = [(game_id, "") for game_id in played_games(base_url, args.tables)]
                elif spec is None:
                    for _ in range(args.tables):
                        status, game = call(base_url, "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS})
                        assert status == 201, game
                        games.append((game["id"], game["edit_key"]))
                else:
                    games = [("", "")] * args.tables
                warm_up(port, games if spec is None else [], args, hello_rate if spec else 260.0)
                load_before = os.getloadavg()[0]
                cpu_before = server_cpu_seconds(process.pid)
                rate = hello_rate if spec or name == "reads" else 0.0
                results, seconds = asyncio.run(run_phase(port, games, args, rate, reads=name == "reads"))
                cpu = server_cpu_seconds(process.pid) - cpu_before
                notes.append(f"{name}: load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
            finally:
                stop(process)
            requests = sum(map(len, results.latencies.values())) + sum(results.errors.values())
            table += report(name, results, seconds, 1000 * cpu / max(1, requests))
            if name == "companion":  # the baselines get the same request rate as the companion got
                hello_rate = sum(map(len, results.latencies.values())) / seconds
            notes += [f"error sample: {sample}" for sample in results.error_samples]
            if results.slow_at:
                start = min(results.slow_at)
                windows = sorted({int(moment - start) for moment in results.slow_at})
                notes.append(
                    f"{name}: {len(results.slow_at)} answers over 100 ms, due in {len(windows)} distinct seconds"
                    f" of the {seconds:.0f} s run"
                )
            print(f"{name}: done", flush=True)
    print()
    print("\n".join(table))
    for note in notes:
        print("-", note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
