#!/usr/bin/env python3
"""The tile models' calibration runs (docs/tile-models.md "Calibration"): the microbenchmarks of
thesis 5.3.3 and Prajapati et al. 5.2, run through the normal runtime, then `stencil-calibrate fit`.

Usage: bench/calibrate.py [--target sim|gpu] [--out DIR] [--only NAME,...] [--base FILE]

  --target sim   (default) no GPU needed: each configuration runs on the GPU simulator with
                 `stencil-run --target sim --cost --json` and its time is the cost report's
                 estimate (docs/cost-model.md); this is how the built-in H100 calibration is
                 derived until a GPU calibration exists
  --target gpu   on a GPU: `stencil-run --target gpu --json --warmup 1`, CUDA-event time
  --out DIR      where measurements.json and calibration.json go (default bench/results/calibration)

The GPU bundle (tools/gpu-bundle) ships this file beside run.py; `run.py RESULTS --calibrate` runs
the same configurations from precompiled PTX and fits with the bundled stencil-calibrate.

Each program gets configurations that stress one parameter each: many launches with little work
(sigma_blk, T_sync), long intra-tile wavefronts of few points (sigma_thd, tau_sync), wide ones
(alpha, C_iter), staged and unstaged tiles of different footprints (gamma, L), and different
blocks; all parameters are then fitted together by least squares over the runs.
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (program, band width) -> configurations: (tile sizes, block, staged).
CONFIGS = {
    "sor-1d-3pt": [
        ((8, 32), (32, 1, 1), True), ((32, 32), (32, 1, 1), True), ((64, 64), (64, 1, 1), True),
        ((16, 128), (128, 1, 1), True), ((128, 16), (32, 1, 1), True), ((4, 16), (32, 1, 1), True),
        ((32, 128), (64, 1, 1), True),
        ((32, 64), (64, 1, 1), False), ((64, 128), (128, 1, 1), False), ((2, 256), (256, 1, 1), False),
        ((8, 32), (32, 1, 1), False), ((128, 64), (64, 1, 1), False), ((16, 16), (32, 1, 1), False),
    ],
    "sor-2d-5pt": [
        ((4, 8, 8), (32, 4, 1), True), ((8, 8, 8), (8, 8, 1), True), ((16, 16, 16), (16, 16, 1), True),
        ((2, 16, 16), (16, 8, 1), True), ((16, 4, 4), (8, 4, 1), True), ((8, 16, 32), (32, 8, 1), True),
        ((4, 4, 8), (8, 4, 1), True),
        ((16, 32, 32), (32, 8, 1), False), ((8, 8, 16), (16, 2, 1), False), ((32, 8, 8), (8, 8, 1), False),
        ((4, 16, 16), (16, 16, 1), False), ((16, 16, 16), (16, 4, 1), False), ((8, 32, 8), (8, 32, 1), False),
    ],
    "sor-3d-7pt": [
        ((2, 4, 4, 4), (8, 4, 2), True), ((4, 4, 4, 4), (8, 4, 4), True), ((2, 2, 4, 8), (8, 4, 2), True),
        ((4, 2, 2, 2), (8, 2, 2), True), ((3, 4, 4, 6), (8, 4, 4), True), ((2, 2, 2, 4), (8, 2, 2), True),
        ((4, 8, 8, 8), (8, 8, 4), False), ((8, 8, 8, 8), (8, 8, 8), False), ((2, 8, 8, 16), (16, 8, 2), False),
        ((4, 4, 4, 8), (8, 4, 4), False), ((8, 4, 4, 4), (8, 4, 2), False), ((2, 4, 8, 8), (8, 8, 2), False),
    ],
    "jacobi-2d-5pt": [
        ((4, 8, 8), (32, 4, 1), True), ((8, 8, 8), (8, 8, 1), True), ((4, 16, 16), (16, 16, 1), True),
        ((2, 16, 16), (16, 8, 1), True), ((8, 4, 4), (8, 4, 1), True), ((6, 32, 32), (32, 8, 1), True),
        ((8, 32, 32), (32, 8, 1), False), ((4, 8, 16), (16, 2, 1), False), ((16, 8, 8), (8, 8, 1), False),
        ((4, 32, 32), (32, 4, 1), False), ((8, 16, 16), (16, 16, 1), False), ((2, 8, 8), (8, 8, 1), False),
    ],
    # (3x6x8x8 staged replaces 3x8x8x8, whose 50762 bytes of staged buffers gpu-map refuses
    # at the default 48 KiB: that run never ran.)
    "jacobi-3d-7pt": [
        ((2, 4, 4, 4), (8, 4, 2), True), ((2, 4, 4, 8), (8, 4, 4), True), ((3, 4, 4, 4), (8, 2, 2), True),
        ((3, 6, 8, 8), (8, 8, 2), True), ((2, 2, 4, 4), (8, 4, 2), True),
        ((4, 8, 8, 8), (8, 8, 4), False), ((2, 8, 8, 16), (16, 8, 2), False), ((4, 4, 4, 4), (8, 4, 2), False),
        ((2, 4, 8, 8), (8, 8, 2), False), ((8, 8, 8, 8), (8, 8, 8), False),
    ],
}

# GPU runs only: global-memory tiles far larger than the ones above, which the simulator's cost
# report (DRAM charged by the distinct sectors a launch touches) puts ahead of every other 3-D
# mapping (bench/results/2026-11-27-issue13-targets.md), on the block gpu-map gives them by
# default. Fitted without them, the model's global constants never see such a tile, and its
# search would extrapolate; at the simulator's 16^3 they would be one partial tile each.
LARGE_TILE_GPU_CONFIGS = {
    "sor-3d-7pt": [((16, 8, 16, 32), (32, 8, 1), False), ((24, 16, 24, 32), (32, 8, 1), False)],
    "jacobi-3d-7pt": [((8, 16, 16, 16), (16, 16, 1), False), ((16, 16, 16, 32), (32, 8, 1), False)],
    # The global tiles a refit to 54152c3's calibration runs chose for 2-D SOR at 16384^2 (T=50
    # and T=400), which the H200 ran 18-35 % slower than the staged choice: that fit left
    # alpha and beta of sor_2d_5pt/global undetermined (bench/results/2026-11-27-h200-54152c3).
    "sor-2d-5pt": [((48, 16, 64), (64, 16, 1), False), ((12, 6, 512), (256, 4, 1), False)],
}

# GPU runs only: the same tiles on different blocks. Every configuration above gives a tile a
# block that fits it, so the fit never saw a block leave lanes idle or hold fewer tiles per SM:
# on the H200 3-D SOR's 6x2x6x24 tiles ran 1.26x faster on 24x6x1 (the tile's own extents) than
# on 32x4x2, which the fitted model predicts 2 % apart (bench/results/2026-11-27-h200-6d57acf).
# Pairs of each program's benchmark-size choices (sizes=auto with the H200 file) on a power of two
# and on the block that follows the tile.
BLOCK_GPU_CONFIGS = {
    "sor-3d-7pt": [((6, 2, 6, 24), (24, 6, 1), False), ((6, 2, 6, 24), (32, 4, 2), False),
                   ((8, 4, 8, 24), (8, 8, 4), False), ((8, 4, 8, 24), (24, 8, 1), False)],
    "sor-2d-5pt": [((48, 16, 32), (32, 16, 1), True), ((48, 16, 32), (32, 8, 1), True),
                   ((48, 16, 32), (16, 16, 1), True)],
    "jacobi-3d-7pt": [((8, 16, 16, 16), (32, 4, 2), False)],
}

# GPU runs only: the layouts the search itself chose at the calibration sizes (staged, both
# models, both built-in files) in the H200 sweep of 2026-11-27 (bench/results/
# 2026-11-27-h200-54152c3/calibration/measurements-sweep.json). The search goes where the fitted
# runs never were: 1-D SOR's 128x512 and 256x512 tiles on 512 threads were predicted at 8.6 ms
# and ran 23-26 ms, 38-56 % slower than the sweep's best; 3-D Jacobi's 2x8x12x8 on 8x8x8 +58 %.
SEARCH_CHOICE_GPU_CONFIGS = {
    "sor-1d-3pt": [((128, 512), (512, 1, 1), True), ((256, 512), (512, 1, 1), True),
                   ((48, 512), (512, 1, 1), True)],
    "sor-2d-5pt": [((32, 32, 16), (8, 32, 1), True), ((48, 32, 16), (16, 32, 1), True)],
    "sor-3d-7pt": [((16, 4, 6, 8), (8, 6, 4), True), ((16, 6, 4, 8), (8, 4, 4), True)],
    "jacobi-2d-5pt": [((4, 24, 64), (64, 16, 1), True), ((4, 16, 64), (16, 16, 1), True)],
    "jacobi-3d-7pt": [((2, 8, 12, 8), (8, 8, 8), True), ((1, 8, 12, 16), (8, 4, 8), True)],
}

# Problem sizes: the simulator needs small ones (it runs 0.002-0.2 M point updates/s: 3-D tiles
# of 2x4x4x4 at 24^3, T=8 take it 45 s), a GPU run large enough that the kernels, not the host,
# take the time.
SIZES = {
    "sim": {1: {"T": 32, "N": 512}, 2: {"T": 16, "N": 64, "M": 64}, 3: {"T": 4, "N": 16, "M": 16, "L": 16}},
    "gpu": {1: {"T": 512, "N": 65536}, 2: {"T": 64, "N": 2048, "M": 2048}, 3: {"T": 16, "N": 256, "M": 256, "L": 256}},
}

# GPU runs also at sizes whose fields are far larger than the L2 cache (60 MiB on the H200), the
# sizes the benchmarks use. At the sizes above two 2-D f64 fields take 64 MiB and stay largely in
# L2, which makes tiles on global memory look cheap: fitted there, the model chose global tiles
# for 2-D Jacobi at 16384^2, which ran 3x slower than staged ones of the same program shape
# (bench/results/2026-11-27-h200-24d76dc). Each configuration runs at both sizes; this set runs
# 3-D first and 1-D last. 1-D SOR at N = 2^24 took 2.6 million launches, 5-46 s a run: its 13
# runs, first in line then, took the whole 400 s budget of bench/results/2026-11-27-h200-6d57acf,
# so that no 2-D or 3-D run at these sizes was timed. Its runs are launch-bound whatever N (they
# are what fits the per-launch cost sigma_blk: 4.4 us, next to the measured gap), so 2^21
# (16 MiB, 8x fewer launches) keeps that at an eighth of the time.
LARGE_GPU_SIZES = {1: {"T": 16, "N": 1 << 21}, 2: {"T": 50, "N": 16384, "M": 16384},
                   3: {"T": 20, "N": 512, "M": 512, "L": 512}}


def runs(target, only=()):
    """Every calibration configuration: label, example, pipeline, params, tile, block. On a GPU
    every configuration at the calibration sizes comes first, then every one at the benchmark
    sizes, so a time budget that runs out (run.py --budget) still leaves the first set whole."""
    out = []
    sizes_sets = [SIZES[target]] + ([LARGE_GPU_SIZES] if target == "gpu" else [])
    for problems in sizes_sets:
        programs = list(CONFIGS.items())
        if problems is not SIZES[target]:
            # The largest problems first: a budget that runs out cuts the launch-bound 1-D runs.
            programs.sort(key=lambda item: -(len(item[1][0][0]) - 1))
        for name, configs in programs:
            if only and name not in only:
                continue
            if target == "gpu":
                configs = (configs + LARGE_TILE_GPU_CONFIGS.get(name, []) + BLOCK_GPU_CONFIGS.get(name, [])
                           + SEARCH_CHOICE_GPU_CONFIGS.get(name, []))
            dims = len(configs[0][0]) - 1
            if dims not in problems:
                continue
            params = problems[dims]
            suffix = "" if problems is SIZES[target] else \
                " at " + "x".join(str(params[k]) for k in ("N", "M", "L") if k in params)
            for sizes, block, staged in configs:
                tile = ",".join(map(str, sizes))
                blk = ",".join(map(str, block))
                stage = "" if staged else " staging=false"
                out.append({
                    "label": f"{name} {'x'.join(map(str, sizes))} {'x'.join(map(str, block))}"
                             f"{'' if staged else ' global'}{suffix}",
                    "example": f"examples/{name}.mlir",
                    "pipeline": f"builtin.module(poly-schedule,poly-tile{{sizes={tile}{stage}}},gpu-map{{block={blk}{stage}}})",
                    "params": dict(params),
                    "tile": list(sizes),
                    "block": list(block),
                })
    return out


def measure(report, target):
    """(seconds, registers) of one `stencil-run --json` report, or None."""
    if target == "gpu":
        gpu = report["target_stats"]["gpu"]
        registers = max((k["registers"] or 0 for k in gpu["kernels"]), default=0)
        return gpu["kernel_seconds"], registers
    cost = report["target_stats"]["sim"]["cost"]
    if cost.get("estimate") is None:
        return None
    registers = max((k["registers"] or 0 for k in cost["kernels"]), default=0)
    return cost["estimate"]["seconds"], registers


def run_one(stencil_run, base, entry, target, ptx=None):
    """Runs one configuration: the measurement record, or an error line."""
    command = [stencil_run, os.path.join(base, entry["example"]), f"--pass-pipeline={entry['pipeline']}",
               "--target", target, "--json", *[f"--param={k}={v}" for k, v in entry["params"].items()]]
    command += ["--cost"] if target == "sim" else ["--warmup", "1", "--init", "const:1"]
    if ptx:
        command.append(f"--ptx={ptx}")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        # With --json the error is the report's `error` object on stdout.
        try:
            return None, json.loads(done.stdout)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            errors = [line for line in done.stderr.splitlines() if "error:" in line]
            return None, errors[0] if errors else done.stderr.strip()[-300:]
    measured = measure(json.loads(done.stdout), target)
    if measured is None:
        return None, "no estimate (registers unknown: is ptxas installed?)"
    seconds, registers = measured
    return {**entry, "seconds": seconds, "registers": registers}, None


def main():
    args = sys.argv[1:]
    option = lambda name, default: args[args.index(name) + 1] if name in args else default
    target = option("--target", "sim")
    out = os.path.abspath(option("--out", os.path.join(ROOT, "bench", "results", "calibration")))
    only = set(option("--only", "").split(",")) - {""}
    if target not in ("sim", "gpu"):
        sys.exit("calibrate.py: --target is sim or gpu")
    subprocess.run(["cargo", "build", "--release", "-q", "--bin", "stencil-run", "--bin", "stencil-calibrate"],
                   cwd=ROOT, check=True)
    bins = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release")
    os.makedirs(out, exist_ok=True)
    records = []
    for entry in runs(target, only):
        record, error = run_one(os.path.join(bins, "stencil-run"), ROOT, entry, target)
        if record is None:
            print(f"  {entry['label']}: failed: {error}", flush=True)
            continue
        print(f"  {entry['label']}: {record['seconds'] * 1e6:.1f} us, {record['registers']} registers", flush=True)
        record["example"] = os.path.relpath(os.path.join(ROOT, entry["example"]), out)
        records.append(record)
    device = "NVIDIA H100 SXM5 (simulator cost model)" if target == "sim" else "GPU"
    measurements = os.path.join(out, "measurements.json")
    with open(measurements, "w") as f:
        json.dump({"format": 1, "target": target, "device": device, "runs": records}, f, indent=1)
    command = [os.path.join(bins, "stencil-calibrate"), "fit", measurements, "--out", os.path.join(out, "calibration.json")]
    if "--base" in args:
        command += ["--base", option("--base", "")]
    subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
