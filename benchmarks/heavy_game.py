"""Issue 28, section 1: the largest allowed import, and the heaviest allowed game beside another table.

Run from the repository root:  python benchmarks/heavy_game.py [--seconds 15] [--readers 6]

1. The CPU (process time) of importing the largest import the limits allow (companion.bounds):
   8 players, one round, the most history entries, each keeping every hand's cards, and a dispute
   log of 16-card hand checks up to the re-judging budget; in this process, on a fresh SQLite file.
2. gunicorn (``--workers 2 --threads 4``, as the systemd unit, with the rate limits on as served) on
   that database, with the heaviest game a key holder can make (the most history entries and checks
   an import takes, written straight to the tables) and another table's game (Pay Me, 3 players,
   5 rounds). The other table's game page is read by one client for ``--seconds`` alone, then for
   ``--seconds`` in each phase (``--phases``, all by default) beside ``--readers`` closed-loop clients:
   - back-to-back: they read the heavy game's page, its check page and its history, back to back;
   - paced: the same, pausing ``--pause`` s after each answer (phones at a table reloading it);
   - etag: back to back, sending each page's ETag back (``If-None-Match``) as a browser reloading does;
   - floor: back to back, a bare static file (FLOOR_PATH: no database, no template). What any six
     back-to-back clients cost the other table on this machine, whatever they read.
   Each client reads from a loopback address of its own (127.0.0.2 and on for the other table's
   ``--phones``, 127.0.N.10 and on for the readers of phase N), as phones have theirs; each of the
   other table's phones reads its page every ``--probe-pause`` s (5 a second), under the page-read
   limit, and the readers never wait as a 429's Retry-After asks (their 429s are counted apart).

With ``--nginx`` the phases are served through nginx and deploy/nginx-limits.conf (its per-address
limits answer 429 before gunicorn). With ``--readers-apart``, the environment variable READERS_CORES
(e.g. ``1``) pins the readers' process to those cores; run the script under ``taskset -c 0`` to keep
the server and the other table's client on the other core.

Prints Markdown tables: the import's CPU, the heavy pages' sizes and times, and the other table's
p50/p95 alone and beside the readers, with their ratio (the goal: at most 2x), and the server's CPU
(its processes' user and system time, from /proc) per request answered in each phase: unlike the
times, a figure that other work on a busy machine does not inflate much.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load import percentile  # noqa: E402
from tests.servers import start_gunicorn, stop  # noqa: E402

PLAYERS = [f"Player number {seat}" for seat in range(8)]
BIG_HAND = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S JK"
KEPT = "10H 10D 10S 10C QH QD QS QC JK JK 2H 2D 2S 2C"
FLOOR_PATH = "/static/icon.svg"
"""The cheapest answer the app gives: a small static file, no database, no template."""
PHASES = ("alone", "back-to-back", "paced", "etag", "floor")


def build(database_url: str, instance: Path, time_import: bool = True) -> tuple[float, int, str, str]:
    """The import's CPU seconds and body size (0 and 0 without `time_import`), the heavy game's id and
    the other table's id."""
    from companion import bounds, create_app
    from companion.extensions import db
    from companion.models import Dispute, RoundRevision
    from companion.services import disputes, store

    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database_url}, instance_path=str(instance))
    app.config["RATELIMIT_ENABLED"] = False
    client = app.test_client()
    with app.app_context():
        db.create_all()
    game = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS, "first_dealer": PLAYERS[0]})
    state = game.get_json()
    scores = {name: 0 if name == PLAYERS[0] else 999 for name in PLAYERS}
    headers = {"X-Edit-Key": state["edit_key"]}
    client.post(f"/api/games/{state['id']}/rounds", json={"went_out": PLAYERS[0], "scores": scores}, headers=headers)
    with app.app_context():
        stored = store.get_game(state["id"])
        entry = disputes.log_hand(stored, 1, PLAYERS[1], BIG_HAND)
        row = db.session.get(Dispute, entry.id)
        assert row is not None
        values = {name: getattr(row, name) for name in ("round_number", "kind", "player", "cards", "valid", "reason")}
        result = row.result
        db.session.add_all(
            Dispute(game_id=state["id"], result=result, **values) for _ in range(bounds.MAX_IMPORT_CHECKS - 1)
        )
        revision = {"number": 1, "action": "corrected", "went_out": PLAYERS[0], "scores": scores}
        db.session.add_all(
            RoundRevision(game_id=state["id"], hands={name: KEPT for name in PLAYERS[1:]}, **revision)
            for _ in range(bounds.MAX_IMPORT_REVISIONS)
        )
        db.session.commit()
    cpu, size = import_cpu(app, state["id"]) if time_import else (0.0, 0)
    other = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob", "Cy"]}).get_json()
    for _ in range(5):
        body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5, "Cy": 10}}
        client.post(f"/api/games/{other['id']}/rounds", json=body, headers={"X-Edit-Key": other["edit_key"]})
    return cpu, size, state["id"], other["id"]


def import_cpu(app: Any, game_id: str) -> tuple[float, int]:
    """The CPU seconds of importing the heaviest game's export, its dispute log cut to the re-judging
    budget, and the body's size."""
    from companion import bounds
    from companion.services import transfer

    document = app.test_client().get(f"/api/games/{game_id}/export").get_json()
    document["tables"]["disputes"] = document["tables"]["disputes"][: bounds.REJUDGE_BUDGET_CARDS // 16]
    raw = json.dumps(document).encode()
    with app.app_context():
        started = time.process_time()
        transfer.import_bytes(raw)
        return time.process_time() - started, len(raw)


def get(port: int, path: str, etags: dict[str, str] | None = None, source: str = "127.0.0.1") -> tuple[int, int, float]:
    """Status, body size and milliseconds of one GET from the loopback address `source`; with `etags`,
    sent back as a browser does (If-None-Match) and kept from each answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    headers = {"If-None-Match": etags[path]} if etags and path in etags else {}
    started = time.perf_counter()
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        size = len(response.read())
    finally:
        connection.close()
    if etags is not None and response.getheader("ETag"):
        etags[path] = str(response.getheader("ETag"))
    return response.status, size, (time.perf_counter() - started) * 1000


def closed_loop(
    port: int,
    paths: list[str],
    end: float,
    times: list[float],
    errors: list[str],
    pause: float = 0.0,
    revalidate: bool = False,
    source: str = "127.0.0.1",
    refused: list[float] | None = None,
) -> None:
    """Read the paths in turn from `source` until `end`, waiting `pause` seconds after each answer; with
    `revalidate`, sending back each page's ETag as a browser reloading it does (a 304 is then an answer
    too). With `refused`, a 429 goes there (the reader does not wait as Retry-After asks) and is no error."""
    index = 0
    etags: dict[str, str] | None = {} if revalidate else None
    while time.monotonic() < end:
        path = paths[index % len(paths)]
        index += 1
        status, _, elapsed = get(port, path, etags, source)
        if status == 429 and refused is not None:
            refused.append(elapsed)
            continue
        if status != 200 and not (revalidate and status == 304):
            errors.append(f"{status} {path}")
        times.append(elapsed)
        time.sleep(pause)


def phase(
    port: int,
    other: str,
    heavy_paths: list[str],
    readers: int,
    seconds: float,
    pause: float = 0.0,
    revalidate: bool = False,
    probe_pause: float = 0.2,
    first: int = 0,
    apart: bool = False,
    phones: int = 1,
) -> dict[str, Any]:
    """The other table's reads (its `phones`, each from an address of its own, 127.0.0.2 and on, pausing
    `probe_pause` s after each answer) beside `readers` readers of the heavy game, each from an address
    of its own (127.0.`first`.10 and on), as phones are. With `apart`, the readers run in a process of
    their own, so the other table's client never waits for their interpreter (as a phone never does)."""
    end = time.monotonic() + seconds
    addresses = [f"127.0.{first}.{10 + reader}" for reader in range(readers)]
    reading = (port, heavy_paths, end, pause, revalidate, addresses)
    mine: list[float] = []
    errors: list[str] = []
    table = [f"127.0.0.{seat}" for seat in range(2, 2 + phones)]
    probing = (port, [f"/games/{other}"], end, mine, errors, probe_pause, False, table)
    if apart:
        context = multiprocessing.get_context("fork")
        receiving, sending = context.Pipe(duplex=False)
        process = context.Process(target=_readers_in_child, args=(sending, *reading))
        process.start()
        closed_loops(*probing)
        theirs: dict[str, list[Any]] = receiving.recv()
        process.join()
    else:
        collected: list[dict[str, list[Any]]] = []
        thread = threading.Thread(target=lambda: collected.append(read_heavy(*reading)))
        thread.start()
        closed_loops(*probing)
        thread.join()
        theirs = collected[0]
    return {"mine": mine, "heavy": theirs["heavy"], "errors": errors + theirs["errors"], "refused": theirs["refused"]}


def closed_loops(
    port: int,
    paths: list[str],
    end: float,
    times: list[float],
    errors: list[str],
    pause: float,
    revalidate: bool,
    addresses: list[str],
    refused: list[float] | None = None,
) -> None:
    """`closed_loop` from each of `addresses`, each in a thread of its own, until `end`."""
    threads = [
        threading.Thread(
            target=closed_loop, args=(port, paths, end, times, errors, pause, revalidate, address, refused)
        )
        for address in addresses
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def read_heavy(
    port: int, paths: list[str], end: float, pause: float, revalidate: bool, addresses: list[str]
) -> dict[str, list[Any]]:
    """One closed-loop reader of `paths` per address, each in a thread, until `end`."""
    heavy: list[float] = []
    errors: list[str] = []
    refused: list[float] = []
    closed_loops(port, paths, end, heavy, errors, pause, revalidate, addresses, refused)
    return {"heavy": heavy, "errors": errors, "refused": refused}


def _readers_in_child(sending: Any, *reading: Any) -> None:
    cores = os.environ.get("READERS_CORES")
    if cores:
        os.sched_setaffinity(0, {int(core) for core in cores.split(",")})
    sending.send(read_heavy(*reading))
    sending.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--readers", type=int, default=6)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds a paced reader waits between reads")
    parser.add_argument(
        "--phases",
        default=",".join(PHASES),
        help=f"the phases to run, in this order, comma-separated (of {', '.join(PHASES)}; 'alone' always runs)",
    )
    parser.add_argument(
        "--readers-apart",
        action="store_true",
        help="run the readers in a process of their own, not as threads beside the other table's client",
    )
    parser.add_argument("--gunicorn-config", help="a gunicorn config file for the server (its --config)")
    parser.add_argument("--json", help="also write each phase's times (ms) to this file, to pool several runs")
    parser.add_argument("--no-import", action="store_true", help="skip timing the largest import (its CPU)")
    parser.add_argument(
        "--nginx",
        action="store_true",
        help="serve through nginx with deploy/nginx-limits.conf (its per-address limits) in front of gunicorn",
    )
    parser.add_argument(
        "--probe-pause", type=float, default=0.2, help="seconds the other table's reader waits between reads"
    )
    parser.add_argument(
        "--phones", type=int, default=1, help="the other table's phones reading its page, each from its own address"
    )
    args = parser.parse_args()
    wanted = [name for name in args.phases.split(",") if name and name != "alone"]
    unknown = set(wanted) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))} (choose from {', '.join(PHASES)})")
    with tempfile.TemporaryDirectory() as folder:
        database_url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        cpu, size, heavy, other = build(database_url, Path(folder) / "instance", not args.no_import)
        if not args.no_import:
            print("| largest allowed import | body | CPU (process time) |\n|---|---:|---:|")
            print(f"| 2,000 history entries with cards, 500 checks of 16 cards | {size / 1e6:.1f} MB | {cpu:.2f} s |\n")
        served = Path(folder) / "gunicorn"  # with the rate limits on, as served (tests.servers turns them off)
        settings = "{'RATELIMIT_ENABLED': True, 'PROXY_COUNT': 1}" if args.nginx else "{'RATELIMIT_ENABLED': True}"
        spec = f"companion:create_app({settings}, instance_path={str(served)!r})"
        extra = ("--config", args.gunicorn_config) if args.gunicorn_config else ()
        process, base_url = start_gunicorn(served, database_url, workers=2, threads=4, app_spec=spec, extra=extra)
        port = int(base_url.rsplit(":", 1)[1])
        proxy = start_nginx(Path(folder) / "nginx", port) if args.nginx else None
        direct = port  # the warm-up reads go straight to gunicorn, past nginx's limits
        heavy_paths = [f"/games/{heavy}", f"/games/{heavy}/check?round=1", f"/games/{heavy}?history=20"]
        try:
            print("| heavy page | bytes | median time |\n|---|---:|---:|")
            for path in heavy_paths:
                samples = [get(direct, path) for _ in range(10)]
                assert all(status == 200 for status, _, _ in samples), samples
                median = statistics.median(elapsed for *_, elapsed in samples)
                print(f"| `{path.replace(heavy, '<id>')}` | {samples[0][1]:,} | {median:.0f} ms |")
            for _ in range(20):
                get(direct, f"/games/{other}")
            served_at = proxy[1] if proxy is not None else port
            results = run_phases(served_at, process.pid, other, heavy_paths, ["alone", *wanted], args)
        finally:
            if proxy is not None:
                proxy[0].terminate()
                proxy[0].wait(10)
            stop(process)
    print(
        "\n| another table's game page | requests | p50 | p95 | p95 / alone | heavy reads | refused (429) | errors "
        "| server CPU per request |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    alone = results[0][1]
    for name, result in results:
        mine = result["mine"]
        ratio = percentile(mine, 0.95) / percentile(alone["mine"], 0.95)
        print(
            f"| {name} | {len(mine)} | {percentile(mine, 0.5):.1f} ms | {percentile(mine, 0.95):.1f} ms "
            f"| {ratio:.2f}x | {len(result['heavy'])} | {len(result['refused'])} | {len(result['errors'])} "
            f"| {per_request_cpu(result):.2f} ms |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps({name: result for name, result in results}))
    return 0 if not any(result["errors"] for _, result in results) else 1


NGINX_CONF = """worker_processes 1;
error_log {folder}/error.log;
pid {folder}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {limits};
    upstream companion {{ server 127.0.0.1:{upstream}; keepalive 16; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://companion;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


def start_nginx(folder: Path, upstream: int) -> tuple[subprocess.Popen[bytes], int]:
    """nginx (one worker) on a free port in front of gunicorn's `upstream` port, with the limits of
    deploy/nginx-limits.conf as deploy/nginx.conf includes them; returns it and its port once it answers."""
    folder.mkdir(parents=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    limits = ROOT / "deploy" / "nginx-limits.conf"
    config = folder / "nginx.conf"
    config.write_text(NGINX_CONF.format(folder=folder, limits=limits, upstream=upstream, port=port))
    process = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(config), "-g", "daemon off;"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            get(port, FLOOR_PATH)
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"nginx did not answer: {(folder / 'error.log').read_text()}")


def server_cpu(group: int) -> float:
    """The CPU seconds (user and system) used so far by the server's processes (its process group)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that has just ended
            continue
        if int(fields[2]) == group:  # fields from the state on: state ppid pgrp ... utime (11) stime (12)
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def per_request_cpu(result: dict[str, Any]) -> float:
    """The server's CPU milliseconds per request answered in a phase (the readers' and the other table's)."""
    answered = len(result["mine"]) + len(result["heavy"]) + len(result["refused"])
    return 1000 * result["server_cpu"] / answered


def run_phases(
    port: int, group: int, other: str, heavy_paths: list[str], names: list[str], args: argparse.Namespace
) -> list[tuple[str, dict[str, Any]]]:
    """Each phase named, in turn, for ``args.seconds``; the readers of each from addresses of their own."""
    readers, seconds = args.readers, args.seconds
    titles = {
        "alone": "alone",
        "back-to-back": f"beside {readers} readers of the heavy game, back to back",
        "paced": f"beside {readers} readers of the heavy game, each pausing {args.pause:g} s",
        "etag": f"beside {readers} readers of the heavy game, back to back, sending the ETag back",
        "floor": f"beside {readers} readers of a bare static file (`{FLOOR_PATH}`), back to back: the floor",
    }
    results = []
    for number, name in enumerate(names):
        options: dict[str, Any] = {
            "probe_pause": args.probe_pause,
            "first": number,
            "apart": args.readers_apart,
            "phones": args.phones,
        }
        paths = [FLOOR_PATH] if name == "floor" else heavy_paths
        count = 0 if name == "alone" else readers
        pause = args.pause if name == "paced" else 0.0
        used = server_cpu(group)
        result = phase(port, other, paths, count, seconds, pause, revalidate=name == "etag", **options)
        result["server_cpu"] = server_cpu(group) - used
        results.append((titles[name], result))
    return results


if __name__ == "__main__":
    raise SystemExit(main())
