#!/usr/bin/env python3
"""Speed of the GPU simulator (issue 16 item 8): every example program through the standard GPU
pipelines — naive `gpu-map{naive}` (DOALL programs), and the wavefront tiles
`poly-schedule,poly-tile{sizes=S},gpu-map{block=B}` staged in shared memory and on global memory
(`staging=false`) — on `stencil-run --target sim --check --cost --json` (race detection on,
every run checked bit-exactly against the reference interpreter). Prints, per run, the simulated seconds
(the run only, not compilation or the check), point updates per second and simulated
instructions per second, then the totals; writes every run's simulator counters and cost report
to a JSON file so two builds can be compared counter for counter (`--compare OLD.json`).

Usage: bench/sim_speed.py [--binary PATH] [--only NAME[,NAME...]] [--json OUT.json]
                          [--compare OLD.json] [--against OLD_BINARY] [--repeat N] [--no-record]
  --binary   a stencil-run to time (default: build the release binaries of this checkout)
  --repeat   time each run N times and keep the fastest (default 1)
  --compare  fail unless every run's counters equal those in OLD.json (a --json of another build;
             the cost report is compared too where both builds had ptxas registers, i.e. MLIR)
  --against  time OLD_BINARY too, interleaved run by run (old, new, new, old, ... for --repeat
             pairs, the fastest of each kept), so that both see the same load on a shared
             machine; prints the old and new speed and their ratio per run and in total, and
             fails unless every run's counters are identical in both
"""

import glob
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import ROOT, build_release, only_arg, params_of, record  # noqa: E402

# Problem sizes (space, time steps) per dimensionality: a few seconds per run before issue 16.
SIZES = {1: (1024, 8), 2: (64, 8), 3: (16, 4)}
# Tile sizes and thread blocks: what bench/gpu.py and the tests use for 2-D and 3-D.
TILES = {1: 16, 2: 16, 3: 4}
BLOCKS = {1: "32", 2: "32,8", 3: "32,4,2"}


def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def stencil_run(binary, example, params, pipeline):
    """`stencil-run EXAMPLE PARAMS --target=sim --check --cost --json`: the JSON report and None,
    or None and the error's message (with --json, errors are JSON on stdout too)."""
    cmd = [binary, os.path.join(ROOT, "examples", example + ".mlir"), *params, "--target=sim", "--check", "--cost",
           "--json", f"--pass-pipeline={pipeline}"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None, (done.stderr.strip().splitlines() or ["failed"])[-1]
    if done.returncode != 0 or "error" in report:
        message = report.get("error", {}).get("message", "failed")
        return None, "refused: DOACROSS (no naive mapping)" if "DOALL applies only" in message else message
    return report, None


def same_counters(a, b):
    """Whether two runs' simulator reports agree: every counter, and the cost report too when both
    builds had ptxas registers for it (a build without MLIR has none, so its occupancy and time
    estimates differ from a build with MLIR for that reason alone)."""
    if a is None or b is None:
        return a == b
    known = [r.get("cost", {}).get("registers", {}).get("known") for r in (a, b)]
    if known[0] and known[1]:
        return a == b
    strip = lambda r: {k: v for k, v in r.items() if k != "cost"}  # noqa: E731
    return strip(a) == strip(b)


def dimensionality(text):
    match = re.search(r"!stencil\.field<\[([^\]]*)\]", text)
    return len(match.group(1).split(",")) if match else 0


def suite():
    """(name, dims) of every example program (stencil.program files with a field)."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        text = open(path).read()
        if "stencil.program" not in text:
            continue
        dims = dimensionality(text)
        if dims in SIZES:
            out.append((os.path.basename(path)[:-5], dims))
    return out


def pipelines(dims):
    tiled = f"poly-schedule,poly-tile{{sizes={TILES[dims]}}},gpu-map{{block={BLOCKS[dims]}"
    return [
        ("naive", "builtin.module(gpu-map{naive})"),
        (f"tiled {TILES[dims]} shared", f"builtin.module({tiled} staging=true}})"),
        (f"tiled {TILES[dims]} global", f"builtin.module({tiled} staging=false}})"),
    ]


def main():
    only = only_arg()
    binary = arg("--binary") or build_release()
    repeat = int(arg("--repeat", "1"))
    old = json.load(open(arg("--compare"))) if arg("--compare") else None
    lines, runs = [], {}
    mismatches = []

    def say(line=""):
        print(line, flush=True)
        lines.append(line)

    say(f"{'example':<22} {'mapping':<18} {'seconds':>8} {'updates':>9} {'M upd/s':>8} {'M instr/s':>9}  check")
    total_seconds, total_updates, total_old = 0.0, 0, 0.0
    against = arg("--against")
    started = time.time()
    for example, dims in suite():
        if only and example not in only:
            continue
        space, steps = SIZES[dims]
        params = params_of(os.path.join(ROOT, "examples", example + ".mlir"), space, steps)
        for name, pipeline in pipelines(dims):
            best, best_old = None, None
            for k in range(repeat):
                # With --against, the two binaries alternate which runs first.
                order = [against, binary] if against and k % 2 == 0 else [binary, against] if against else [binary]
                for which in order:
                    report, error = stencil_run(which, example, params, pipeline)
                    if report is None:
                        break
                    if which == binary and (best is None or report["seconds"] < best["seconds"]):
                        best = report
                    if which == against and (best_old is None or report["seconds"] < best_old["seconds"]):
                        best_old = report
                if report is None:
                    break
            key = f"{example} {name}"
            if best is None:
                say(f"{example:<22} {name:<18} {'-':>8} {'-':>9} {'-':>8} {'-':>9}  {error}")
                runs[key] = {"error": error}
                continue
            sim = best["target_stats"]["sim"]
            seconds, updates = best["seconds"], best["point_updates"]
            check = "bit-exact" if best.get("check", {}).get("passed") else "FAILED"
            counters = sim  # every counter and the whole cost report (--cost)
            runs[key] = {"seconds": seconds, "point_updates": updates, "check": check, "counters": counters}
            previous = old.get("runs", {}).get(key, {}).get("counters") if old is not None else None
            if previous is not None and not same_counters(previous, counters):
                mismatches.append(key)
            total_seconds += seconds
            total_updates += updates
            versus = ""
            if best_old is not None:
                if not same_counters(best_old["target_stats"]["sim"], counters):
                    mismatches.append(key)
                total_old += best_old["seconds"]
                versus = (f"  against {updates / best_old['seconds'] / 1e6:.3f} M upd/s: "
                          f"{best_old['seconds'] / seconds:.2f}x")
            say(f"{example:<22} {name:<18} {seconds:>8.3f} {updates:>9} {updates / seconds / 1e6:>8.3f} "
                f"{sim['instructions'] / seconds / 1e6:>9.1f}  {check}{versus}")
    say()
    say(f"total: {total_updates} point updates in {total_seconds:.2f} s of simulation = "
        f"{total_updates / total_seconds / 1e6:.3f} M point updates/s "
        f"(wall {time.time() - started:.0f} s including compilation and checks)")
    if against and total_old > 0:
        say(f"against {against} (interleaved): {total_old:.2f} s of simulation = "
            f"{total_updates / total_old / 1e6:.3f} M point updates/s; this binary {total_old / total_seconds:.2f}x")
    if old is not None or against:
        reference = " and ".join(r for r in (arg("--compare"), against) if r)
        say(f"counters: {'identical to ' + reference if not mismatches else 'DIFFER in ' + ', '.join(mismatches)}")
    if arg("--json"):
        with open(arg("--json"), "w") as f:
            json.dump({"binary": binary, "total_seconds": total_seconds, "total_updates": total_updates,
                       "runs": runs}, f, indent=1)
    if "--no-record" not in sys.argv:
        cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                   "unknown")
        record("bench/sim_speed.py (stencil-run --target sim --check --cost --json, race detection on; seconds of the "
               "simulated run only)",
               [f"machine: {cpu}, {os.cpu_count()} cores", f"binary: {os.path.relpath(binary, ROOT)}",
                f"sizes: 1-D {SIZES[1][0]} T={SIZES[1][1]}, 2-D {SIZES[2][0]}^2 T={SIZES[2][1]}, "
                f"3-D {SIZES[3][0]}^3 T={SIZES[3][1]}; repeat {repeat}, fastest kept"],
               lines, "sim-speed")
    return 1 if mismatches or any(r.get("check") == "FAILED" for r in runs.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
