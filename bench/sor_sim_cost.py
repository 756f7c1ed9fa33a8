#!/usr/bin/env python3
"""GPU cost of one SOR sweep on the GPU simulator, per method, and the cost to a tolerance.

Maps `examples/sor-2d-5pt.mlir` for each method the way it runs on a GPU today —

* SOR, dependence-preserving: `poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8}` (tiles
  staged in shared memory);
* RBSOR: `stencil-rbsor,gpu-map{naive}` (one kernel per colour and step) and tiled
  (`poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8}` after it);
* MLSOR as pipelined wavefronts: `stencil-mlsor{…},poly-schedule[{intra-balance=false}],
  poly-tile{sizes=16},gpu-map{block=32,8 staging=false}` (the masked kernels scheduled like any
  DOACROSS nest);
* MLSOR's own kernels: `stencil-mlsor{…},gpu-map{strategy=mlsor}` (thesis Fig. 6.6: one launch
  per kernel and sweep, each tile's K layers in its own threads — by default several running
  its anti-diagonals, or the thesis' one thread per tile — each block's region staged in shared
  memory or not; docs/passes.md);

Rows marked "at grid" run at the convergence run's grid size instead (`--size` is for the
others) and take the cost report's estimate *at that size* — idle SMs and launch overhead
included — rather than the large-problem limit: one thread per tile leaves most of an H100
idle at 1024² for large subdomains (P = 16: 4 096 threads per launch), and the limit would
hide that. RBSOR is measured both ways for comparison.

runs one step on the simulator (`stencil-run --target sim --json`, every run checked race-free)
at a small size, and reports per SOR sweep and grid point: warp-level instructions (the
simulator counts one per thread per instruction executed), global-memory bytes, launches and
barriers. With a convergence result of bench/sor_convergence.py (--convergence FILE.json) it
multiplies the per-sweep cost by the sweeps each method needed there (scaled to that grid):
instructions to tolerance, the simulator's stand-in for time when no GPU is lent, and the cost
report's estimate of the time to tolerance on an H100 (`--cost`: the large-problem limit
`filled`, in which every launch fills the GPU, per grid point and sweep, times the sweeps and
the grid; docs/cost-model.md).

Usage: bench/sor_sim_cost.py [--size N] [--convergence bench/results/DATE-sor-convergence.json] [--binary PATH]
                             [--timeout SECONDS]
"""

import argparse
import datetime
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import ROOT, build_release  # noqa: E402

EXAMPLE = os.path.join(ROOT, "examples", "sor-2d-5pt.mlir")
TILED = "poly-tile{sizes=16},gpu-map{block=32,8}"
UNSTAGED = "poly-tile{sizes=16},gpu-map{block=32,8 staging=false}"

# (name in the convergence table, pipeline, SOR sweeps per step, run at the convergence grid)
CONFIGS = [
    ("SOR", f"builtin.module(poly-schedule,{TILED})", 1, False),
    ("RBSOR", "builtin.module(stencil-rbsor,gpu-map{naive block=32,8})", 1, False),
    ("RBSOR tiled", f"builtin.module(stencil-rbsor,poly-schedule,{TILED})", 1, False),
    ("MLSOR 2x4x4 forward", f"builtin.module(stencil-mlsor{{K=2 P=4 directions=forward}},poly-schedule,{UNSTAGED})",
     2, False),
    ("MLSOR 4x8x8 forward",
     f"builtin.module(stencil-mlsor{{K=4 P=8 directions=forward}},poly-schedule{{intra-balance=false}},{UNSTAGED})",
     4, False),
    ("MLSOR 2x4x4 alternate",
     f"builtin.module(stencil-mlsor{{K=2 P=4}},poly-schedule{{intra-balance=false}},{UNSTAGED})", 4, False),
    ("MLSOR 4x8x8 alternate",
     f"builtin.module(stencil-mlsor{{K=4 P=8}},poly-schedule{{intra-balance=false}},{UNSTAGED})", 8, False),
    ("RBSOR", "builtin.module(stencil-rbsor,gpu-map{naive block=32,8})", 1, True),
]
# MLSOR's own kernels, every size and direction mode of the convergence table, at its grid:
# the default (staged in shared memory, 96 KiB of dynamic shared memory per block at most, and
# several threads per tile running its anti-diagonals), the thesis' one thread per tile
# (staged), and one thread per tile on global memory.
for _k, _p in [(2, 4), (4, 8), (8, 16), (16, 32)]:
    for _d, _sweeps in [("alternate", 2 * _k), ("forward", _k)]:
        for _label, _map in [("kernels", "strategy=mlsor shared-memory=98304"),
                             ("kernels 1 thread/tile", "strategy=mlsor shared-memory=98304 tile-threads=1"),
                             ("kernels unstaged", "strategy=mlsor staging=false tile-threads=1")]:
            CONFIGS.append((f"MLSOR {_k}x{_p}x{_p} {_d} {_label}",
                            f"builtin.module(stencil-mlsor{{K={_k} P={_p} directions={_d}}},gpu-map{{{_map}}})",
                            _sweeps, True))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=64, help="interior points per dimension on the simulator")
    ap.add_argument("--convergence", default=None, help="a DATE-sor-convergence.json to scale by")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per simulated run")
    ap.add_argument("--binary", default=None, help="a stencil-run to use (default: build this checkout's release binaries)")
    args = ap.parse_args()
    binary = args.binary or build_release()
    sweeps_of, grid = {}, None
    if args.convergence:
        with open(args.convergence) as f:
            conv = json.load(f)
        grid = conv["arguments"]["size"]
        for r in conv["runs"]:
            if r["report"]:
                sweeps_of[r["method"]] = r["report"]["convergence"]["sweeps"]
    n = args.size
    lines = [f"simulator, {n}x{n} interior points, one step; per SOR sweep and grid point:"
             + (f" cost to tolerance scaled to the {grid}x{grid} convergence run" if grid else ""), "",
             f"{'method':<40} {'instr/pt':>9} {'global B/pt':>12} {'launches':>9} {'barriers':>9}"
             f" {'sweeps':>7} {'Ginstr to tol':>14} {'est. ms to tol':>15}  races"]
    print("\n".join(lines), flush=True)
    records = []
    for name, pipeline, per_step, at_grid in CONFIGS:
        if at_grid and not grid:
            continue
        size = grid if at_grid else n
        label = f"{name} (at grid)" if at_grid else name
        cmd = [binary, EXAMPLE, "--json", "--target=sim", "--cost", f"--pass-pipeline={pipeline}",
               f"--param=N={size + 2}", f"--param=M={size + 2}", "--param=T=1", "--scalar=omega=1.9"]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            done = None
        if done is None or done.returncode != 0:
            errors = [line for line in done.stderr.splitlines() if "error" in line] if done else []
            why = errors[0].split("error:")[-1].strip() if errors else f"no result within {args.timeout} s"
            line = f"{label:<40} {why}"
            records.append({"method": label, "pipeline": pipeline, "error": line})
        else:
            sim = json.loads(done.stdout)["target_stats"]["sim"]
            points = size * size * per_step
            instr = sim["instructions"] / points
            traffic = (sim["global_bytes_read"] + sim["global_bytes_written"]) / points
            key = name.split(" kernels")[0].replace(" tiled", "")
            sweeps = sweeps_of.get(key)
            to_tol = f"{instr * sweeps * grid * grid / 1e9:>14.1f}" if sweeps and grid else f"{'-':>14}"
            # The H100 model's time per grid point and sweep: at the grid's own size for rows run
            # there, else with every launch filling the GPU.
            seconds = sim["cost"]["estimate" if at_grid else "filled"]["seconds"] / points
            est = f"{seconds * sweeps * grid * grid * 1e3:>15.2f}" if sweeps and grid else f"{'-':>15}"
            line = (f"{label:<40} {instr:>9.1f} {traffic:>12.1f} {sim['launches'] / per_step:>9.1f} "
                    f"{sim['barriers'] / per_step:>9.1f} {sweeps if sweeps else '-':>7} {to_tol} {est}  {sim['races']}")
            records.append({"method": label, "pipeline": pipeline, "sweeps_per_step": per_step, "sim": sim,
                            "instructions_per_point_sweep": instr, "global_bytes_per_point_sweep": traffic,
                            "estimated_seconds_per_point_sweep": seconds, "sweeps_to_tolerance": sweeps})
        print(line, flush=True)
        lines.append(line)
    now = datetime.datetime.now(datetime.timezone.utc)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    base = os.path.join(ROOT, "bench", "results", f"{now:%Y-%m-%d}-sor-sim-cost")
    preamble = ["benchmark: bench/sor_sim_cost.py (stencil-run --target sim --cost --json, one step)",
                f"date: {now:%Y-%m-%dT%H:%MZ}", f"commit: {commit}", f"arguments: {' '.join(sys.argv[1:])}"]
    with open(base + ".txt", "w") as f:
        f.write("\n".join(preamble + [""] + lines) + "\n")
    with open(base + ".json", "w") as f:
        json.dump({"date": f"{now:%Y-%m-%dT%H:%MZ}", "commit": commit, "arguments": vars(args), "runs": records},
                  f, indent=1)
    print(f"recorded in {os.path.relpath(base, ROOT)}.{{txt,json}}")


if __name__ == "__main__":
    main()
