#!/usr/bin/env python3
"""Global-memory traffic of the GPU mappings on the GPU simulator (no GPU needed): the example
suite of bench/gpu.py at small sizes, naive `gpu-map{naive}` against tiled `gpu-map` with tiles
staged in shared memory and with `staging=false`. Prints bytes read and written in global
memory per point update (the simulator counts every access; no caches are modelled, so these
are the accesses a kernel issues, not DRAM traffic) and records the table in bench/results/.
Every run is checked bit-exactly against the reference interpreter (`--check`).

Usage: bench/sim_traffic.py [--only NAME[,NAME...]]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import BLOCKS, ROOT, SUITE, build_release, only_arg, params_of, record, stencil_run  # noqa: E402

SIZES = {2: (64, 8), 3: (16, 4)}
TILES = {2: 8, 3: 4}


def run(binary, example, params, pipeline):
    return stencil_run(binary, example, params, pipeline, ["--target=sim", "--check"])


def main():
    only = only_arg()
    binary = build_release()
    lines = []

    def say(line=""):
        print(line, flush=True)
        lines.append(line)

    say(f"{'example':<22} {'mapping':<26} {'read B/update':>14} {'written B/update':>17} {'launches':>9}  check")
    for example, dims in SUITE:
        if only and example not in only:
            continue
        space, steps = SIZES[dims]
        tile = TILES[dims]
        params = params_of(os.path.join(ROOT, "examples", example + ".mlir"), space, steps)
        tiled = f"poly-schedule,poly-tile{{sizes={tile}}},gpu-map{{block={BLOCKS[dims]}"
        configs = [
            ("naive", "builtin.module(gpu-map{naive})"),
            (f"tiled {tile} global", f"builtin.module({tiled} staging=false}})"),
            (f"tiled {tile} shared", f"builtin.module({tiled} staging=true}})"),
        ]
        for name, pipeline in configs:
            report, error = run(binary, example, params, pipeline)
            if report is None:
                say(f"{example:<22} {name:<26} {'-':>14} {'-':>17} {'-':>9}  {error}")
                continue
            sim = report["target_stats"]["sim"]
            updates = report["point_updates"]
            check = "bit-exact" if report.get("check", {}).get("passed") else "FAILED"
            say(f"{example:<22} {name:<26} {sim['global_bytes_read'] / updates:>14.2f} "
                f"{sim['global_bytes_written'] / updates:>17.2f} {sim['launches']:>9}  {check}")

    record("bench/sim_traffic.py (global-memory accesses on the GPU simulator, stencil-run --target sim --json)",
           [f"sizes: 2-D {SIZES[2][0]}^2 T={SIZES[2][1]}, 3-D {SIZES[3][0]}^3 T={SIZES[3][1]}; f64"], lines,
           "sim-traffic")
    return 0


if __name__ == "__main__":
    sys.exit(main())
