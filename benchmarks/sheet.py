"""Benchmark of the printable score sheet (companion.services.sheets.game_sheet_pdf): 8 players, 23 rounds.

Run from the repository root:  python benchmarks/sheet.py [--runs 5] [--paper a4]

One untimed warm-up run loads WeasyPrint, the fonts and the templates; then each run renders the
finished full-cycle Pay Me game (score table, chart, options) to a PDF. Prints the median and the
worst wall-clock time, and the same for CPU time (less sensitive to other processes on the machine).
Goal: a median under 1.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.services.sheets import game_sheet_pdf  # noqa: E402
from engine.rules import rule_set  # noqa: E402
from engine.schedule import schedule  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
GOAL_SECONDS = 1.5


def full_cycle_state() -> dict[str, Any]:
    """A finished 8-player, 23-round Pay Me game (full cycle), as GET /api/games/<id> returns it."""
    rules = rule_set("pay-me", {"full_cycle": True})
    rounds, totals = [], dict.fromkeys(PLAYERS, 0)
    for info in schedule(rules):
        went_out = PLAYERS[(info.number * 3) % len(PLAYERS)]
        points = {
            name: 0 if name == went_out else (seat * 7 + info.number * 5) % 41 + 1 for seat, name in enumerate(PLAYERS)
        }
        totals = {name: totals[name] + points[name] for name in PLAYERS}
        dealer = PLAYERS[(info.number - 1) % len(PLAYERS)]
        rounds.append({**info.as_json(), "dealer": dealer, "went_out": went_out, "scores": points, "points": points})
    lowest = min(totals.values())
    return {
        "id": "benchmark",
        "variant": "pay-me",
        "options": rules.options.as_json(),
        "players": PLAYERS,
        "rounds": rounds,
        "totals": totals,
        "next_round": None,
        "finished": True,
        "winners": [name for name in PLAYERS if totals[name] == lowest],
        "created_at": "2026-11-21T10:00:00+00:00",
    }


def time_runs(state: dict[str, Any], paper: str, runs: int) -> tuple[list[float], list[float], int]:
    """Wall-clock and CPU seconds of each run, and the size of the last PDF in bytes."""
    game_sheet_pdf(state, paper)  # warm-up
    wall, cpu, size = [], [], 0
    for _ in range(runs):
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        size = len(game_sheet_pdf(state, paper))
        wall.append(time.perf_counter() - wall_start)
        cpu.append(time.process_time() - cpu_start)
    return wall, cpu, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--paper", default="a4", choices=["a4", "letter"])
    args = parser.parse_args()
    wall, cpu, size = time_runs(full_cycle_state(), args.paper, args.runs)
    print(f"game_sheet_pdf, 8 players x 23 rounds, {args.paper}, {args.runs} runs, PDF {size / 1024:.0f} KiB")
    print(f"wall: median {statistics.median(wall):.3f} s, worst {max(wall):.3f} s")
    print(f"cpu:  median {statistics.median(cpu):.3f} s, worst {max(cpu):.3f} s")
    verdict = "meets" if statistics.median(wall) < GOAL_SECONDS else "misses"
    print(f"{verdict} the goal: median under {GOAL_SECONDS} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
