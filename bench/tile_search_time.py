#!/usr/bin/env python3
"""Time of the tile-size search (thesis Alg. 5.1, docs/tile-models.md) per example, in release.

Usage: bench/tile_search_time.py [--repeat N] [--timeout SECONDS] [--record FILE]
       bench/tile_search_time.py --every-example [--repeat N] [--record FILE]

For 1-D, 2-D and 3-D SOR and 2-D and 3-D Jacobi, at four problem sizes each (the example's
declared defaults, the simulator sweep's sizes of bench/tile_model_sweep.py, the GPU sizes of
bench/calibrate.py, and a long run of 10 000 sweeps), both models, staged and unstaged: `stencil-opt --explain-tile-sizes-json`
with `poly-tile{sizes=auto}`, and reports

  search   the search's own time (its `elapsed_s`: from the band shape to the ranked layouts;
           the smallest of --repeat runs, default 3; one run when it takes over 1 s; a search
           still running after --timeout seconds, default 20, is stopped and listed)
  sizes    tile sizes in the grid, and layouts (size x block) the model evaluated
  total    the wall time of the whole stencil-opt process (parse, schedule, tile, search, print;
           without --explain-tile-sizes-json, whose explanation searches once more),
           the smallest of the runs, and the same pipeline with fixed sizes for comparison

--every-example instead runs `poly-tile{sizes=auto}` on every example of examples/ at its
declared defaults (what `stencil-opt examples/X.mlir` searches without --param): the searches
of the pass itself (its choice only, the sum of their times from its debug log, so staged and
global with `staging=auto`), on one thread and on the default threads; an example the pass
cannot tile is listed with its error.

--record FILE writes the table with the date, commit and machine.
"""

import datetime
import json
import glob
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibrate  # noqa: E402  (the GPU problem sizes)
import tile_model_sweep  # noqa: E402  (the simulator sweep's problem sizes)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = [("sor-1d-3pt", 1), ("sor-2d-5pt", 2), ("sor-3d-7pt", 3), ("jacobi-2d-5pt", 2), ("jacobi-3d-7pt", 3)]
FIXED = {1: "16,32", 2: "8,16,16", 3: "2,4,4,4"}
# Long runs: SOR and Jacobi are run for thousands of sweeps, and every band row grows with the
# time, so a direct count of the tiles grows with its square (the counts by period of
# tilemodel/src/period.rs are what keeps these searches short).
LONG_RUN = {1: {"T": 10000, "N": 4096}, 2: {"T": 10000, "N": 512, "M": 512},
            3: {"T": 10000, "N": 64, "M": 64, "L": 64}}


def run(stencil_opt, example, pipeline, params, explain=None, timeout=None):
    """(wall seconds, explanation JSON or None) of one stencil-opt run; (None, None) when it
    takes longer than `timeout` seconds."""
    command = [stencil_opt, os.path.join(ROOT, "examples", example + ".mlir"), f"--pass-pipeline={pipeline}",
               *[f"--param={k}={v}" for k, v in params.items()], "-o", os.devnull]
    if explain:
        command.append(f"--explain-tile-sizes-json={explain}")
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{example} {pipeline} {params}: {done.stderr.strip()[-400:]}")
    report = None
    if explain:
        with open(explain) as f:
            report = json.load(f)["programs"][0]["report"]
    return wall, report


def pass_searches(stencil_opt, path, threads):
    """The summed search times (seconds) of one `poly-tile{sizes=auto}` run on `path` at its
    declared defaults, read from the pass's debug log; raises with the error when it fails."""
    pipeline = f"builtin.module(poly-schedule,poly-tile{{sizes=auto search-threads={threads}}})"
    env = dict(os.environ, RUST_LOG="stencil_passes=debug")
    done = subprocess.run([stencil_opt, path, f"--pass-pipeline={pipeline}", "-o", os.devnull],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "error:" in line] or ["(no message)"]
        raise RuntimeError(errors[0].split("error:", 1)[-1].strip()[:100])
    return sum(float(ms) for ms in re.findall(r"tile-size search .*elapsed_ms=([0-9.]+)", done.stderr)) / 1e3


def every_example(stencil_opt, repeat, say):
    """The --every-example table; the slowest search time on the default threads."""
    say(f"{'example':<28} {'one thread':>11} {'default':>11}  (the pass's searches, least of {repeat} runs)")
    worst = 0.0
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        name = os.path.basename(path)[:-len(".mlir")]
        try:
            one, default = (min(pass_searches(stencil_opt, path, t) for _ in range(repeat)) for t in (1, 0))
        except RuntimeError as e:
            say(f"{name:<28} not tiled: {e}")
            continue
        worst = max(worst, default)
        say(f"{name:<28} {one * 1e3:>8.1f} ms {default * 1e3:>8.1f} ms")
    return worst


def main():
    args = sys.argv[1:]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    timeout = float(args[args.index("--timeout") + 1]) if "--timeout" in args else 20.0
    slow = []
    subprocess.run(["cargo", "build", "--release", "-q", "--bin", "stencil-opt"], cwd=ROOT, check=True)
    bins = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release")
    stencil_opt = os.path.join(bins, "stencil-opt")
    lines = []

    def say(line):
        print(line, flush=True)
        lines.append(line)

    if "--every-example" in args:
        worst = every_example(stencil_opt, repeat, say)
        say(f"slowest: {worst * 1e3:.1f} ms on the default threads (target < 100 ms per example)")
        record(args, lines, "# every example at its declared defaults: the searches of poly-tile{sizes=auto}"
               " (choice only; staging=auto's two), summed from its debug log\n")
        return

    say(f"{'example':<14} {'problem':<26} {'model':<9} {'mapping':<7} {'search':>9} {'sizes':>6} "
        f"{'layouts':>8} {'total':>9} {'fixed':>9}  choice")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        explain = os.path.join(tmp, "explain.json")
        for example, dims in EXAMPLES:
            problems = [("declared defaults", {}), ("sweep", tile_model_sweep.SIZES[dims]),
                        ("gpu", calibrate.SIZES["gpu"][dims]), ("long run", LONG_RUN[dims])]
            for what, params in problems:
                fixed = f"builtin.module(poly-schedule,poly-tile{{sizes={FIXED[dims]}}})"
                fixed_wall = min(run(stencil_opt, example, fixed, params)[0] for _ in range(repeat))
                for model in ("thesis", "prajapati"):
                    for staged in (True, False):
                        option = "" if staged else " staging=false"
                        pipeline = f"builtin.module(poly-schedule,poly-tile{{sizes=auto model={model}{option}}})"
                        walls, searches, report = [], [], None
                        for _ in range(repeat):
                            # The search's report from a run with the explanation, the wall time
                            # from one without (an explanation searches once more: its own search
                            # keeps the top layouts, the pass's only its choice).
                            explained, report = run(stencil_opt, example, pipeline, params, explain, timeout)
                            wall = explained and run(stencil_opt, example, pipeline, params, None, timeout)[0]
                            if wall is None:
                                break
                            walls.append(wall)
                            searches.append(report["elapsed_s"])
                            if wall > 1.0:  # one run of a slow search is enough
                                break
                        if not walls:
                            problem = ",".join(f"{k}={v}" for k, v in params.items()) or what
                            say(f"{example:<14} {problem:<26} {model:<9} {'staged' if staged else 'global':<7} "
                                f"> {timeout:.0f} s: stopped ({what})")
                            slow.append(f"{example} {problem} {model} {'staged' if staged else 'global'}")
                            continue
                        worst = max(worst, min(searches))
                        best = report["layouts"][0]
                        problem = ",".join(f"{k}={v}" for k, v in report["params"].items())
                        say(f"{example:<14} {problem:<26} {model:<9} {'staged' if staged else 'global':<7} "
                            f"{min(searches) * 1e3:>6.2f} ms {report['sizes_considered']:>6} {report['evaluated']:>8} "
                            f"{min(walls) * 1e3:>6.1f} ms {fixed_wall * 1e3:>6.1f} ms  "
                            f"{'x'.join(map(str, best['sizes']))} on {'x'.join(map(str, best['block']))} ({what})")
    say(f"slowest search that finished: {worst * 1e3:.2f} ms (issue target < 100 ms per example; --every-example: the examples at their declared defaults)")
    if slow:
        say(f"stopped after {timeout:.0f} s: {len(slow)} searches ({'; '.join(slow)})")
    record(args, lines, "# search: the search's own time (min of runs); total: the whole stencil-opt process (without"
           " the explanation, which searches once more); fixed: the same pipeline with fixed sizes\n")


def record(args, lines, legend):
    """Writes `lines` to --record's file (if given) after the run's date, commit, machine and `legend`."""
    if "--record" in args:
        path = args[args.index("--record") + 1]
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        with open(path, "w") as f:
            f.write(f"# bench/tile_search_time.py {' '.join(args)}\n")
            f.write(f"# {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit}"
                    f"{' (with uncommitted changes)' if dirty else ''}, {platform.node()} "
                    f"({os.cpu_count()} CPUs, {platform.processor() or platform.machine()}), release build\n")
            f.write(f"# load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
                    "(other builds shared the machine: times are inflated by about that over the CPUs)\n")
            f.write(legend)
            f.write("\n".join(lines) + "\n")
        print(f"recorded {path}")


if __name__ == "__main__":
    main()
