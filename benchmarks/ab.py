"""Interleaved A/B of the round-scoring benchmark: a baseline engine and this checkout's, in turn.

Run from the repository root, with a baseline unpacked somewhere (e.g. main before a change):

    mkdir -p /tmp/base && git archive d3735a8 | tar -x -C /tmp/base
    python benchmarks/ab.py /tmp/base --alternations 6

Each alternation runs `benchmarks/solver.py --rounds N --rounds-only --passes P` once on the
baseline's engine and once on this checkout's (which goes first alternates too), each in a child
process, and reads the CPU-time medians it prints: whole rounds with lay-offs ("all rounds") and
without ("no lay-offs"). The figure to judge is the ratio of the median of those medians (this
checkout / baseline). On a machine shared with other work one run beside another can differ by
5-10 %; alternating runs many times spreads that load over both engines alike.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = {
    "round scoring (cpu)": re.compile(r"^all rounds\s+\d+ rounds median ([\d.]+) ms"),
    "no lay-offs (cpu)": re.compile(r"^no lay-offs \(cpu\)\s+\d+ rounds median ([\d.]+) ms"),
}


def run_once(engine_root: Path, args: argparse.Namespace) -> dict[str, float]:
    """One run of the round benchmark on the engine under `engine_root`: its CPU-time medians, in ms."""
    command = [sys.executable, str(ROOT / "benchmarks" / "solver.py"), "--rounds", str(args.rounds)]
    command += ["--rounds-only", "--passes", str(args.passes)]
    env = {**os.environ, "BENCHMARK_ENGINE_ROOT": str(engine_root)}
    output = subprocess.run(command, check=True, env=env, capture_output=True, text=True).stdout
    found: dict[str, float] = {}
    in_cpu = False
    for line in output.splitlines():
        in_cpu = in_cpu or line.startswith("(cpu time)")
        for name, pattern in FIGURES.items():
            match = pattern.match(line)
            if match and (in_cpu or name != "round scoring (cpu)"):
                found[name] = float(match.group(1))
    missing = set(FIGURES) - set(found)
    if missing:
        raise SystemExit(f"no {', '.join(sorted(missing))} in the output of {engine_root}:\n{output}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path, help="a checkout or unpacked archive of the baseline")
    parser.add_argument("--alternations", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--passes", type=int, default=7)
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve(), "this checkout": ROOT}
    if not (trees["baseline"] / "engine").is_dir():
        raise SystemExit(f"{args.baseline}: no engine package there.")
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    loads = []
    for turn in range(args.alternations):
        order = list(trees) if turn % 2 == 0 else list(reversed(trees))
        for name in order:
            loads.append(os.getloadavg()[0])
            runs[name].append(run_once(trees[name], args))
        line = "  ".join(f"{name}: {runs[name][-1]['round scoring (cpu)']:.3f} ms" for name in trees)
        print(f"alternation {turn + 1}: {line}", flush=True)
    print(f"\n{args.alternations} alternations, load average {min(loads):.1f}-{max(loads):.1f}")
    for figure in FIGURES:
        base = statistics.median(run[figure] for run in runs["baseline"])
        now = statistics.median(run[figure] for run in runs["this checkout"])
        print(f"{figure:<22} baseline {base:.3f} ms  this checkout {now:.3f} ms  ratio {now / base:.3f}")


if __name__ == "__main__":
    main()
