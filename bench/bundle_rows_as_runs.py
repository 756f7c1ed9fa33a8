#!/usr/bin/env python3
"""The tiled rows of a GPU bundle's benchmark table as tile-model runs (docs/tile-models.md).

A bundle run (`gpu-bundle-run/run.py`) times each benchmark at its large size; its wavefront rows
are tile layouts the tile models can score but were never fitted to. This script turns them into
a `measurements.json` of the form `bench/calibrate.py` writes, so that

    stencil-calibrate compare OUT.json --root . [--calibration FILE] [--runs]

gives each model's rank correlation, first-choice gap and error on them: an out-of-sample check
of a calibration at the benchmark sizes.

The table records the pipeline, not the tile and block the compiler chose for it, so each row is
compiled again here with `stencil-opt` (same parameters): the tile from the `poly.tiling` sizes
after `poly-tile`, the block from the kernel launch after `gpu-map`. Rows of one statement per
program only (the models' scope): wavefront mappings of the examples the calibration knows,
without `pluto band` (another schedule) or `general` (full-tile code switched off), in one element
type.

Usage: bench/bundle_rows_as_runs.py RESULTS_JSON OUT_JSON [--dtype f64] [--examples a,b]
                                    [--stencil-opt PATH]
  RESULTS_JSON   results.json of a bundle run
  --examples     default: sor-1d-3pt,sor-2d-5pt,sor-3d-7pt,jacobi-2d-5pt,jacobi-3d-7pt
  --stencil-opt  default: target/release/stencil-opt
"""

import json
import re
import subprocess
import sys

DEFAULT_EXAMPLES = "sor-1d-3pt,sor-2d-5pt,sor-3d-7pt,jacobi-2d-5pt,jacobi-3d-7pt"
# The block of the first kernel launch: `threads in (%c24, %c6, %c1_8)`.
LAUNCH_THREADS = re.compile(r"threads in \(%c(\d+)\w*, %c(\d+)\w*, %c(\d+)\w*\)")
TILE_SIZES = re.compile(r"sizes = array<i64: ([\d, ]+)>")
# The schedule's band of each dimension: one size (`sizes=16`) applies to every dimension of it.
BANDS = re.compile(r"poly\.bands = array<i64: ([\d, ]+)>")


def option(args, name, default):
    if name in args:
        i = args.index(name)
        if i + 1 >= len(args):
            sys.exit(f"bundle_rows_as_runs: {name} needs a value")
        value = args[i + 1]
        del args[i:i + 2]
        return value
    return default


def compile_text(tool, program, params, pipeline):
    args = [tool, program] + [a for k, v in params.items() for a in ("--param", f"{k}={v}")]
    done = subprocess.run(args + ["--pass-pipeline=" + pipeline], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed")
    return done.stdout


def tile_and_block(tool, program, params, pipeline):
    """(tile sizes, block) the compiler chooses for the row's pipeline at the row's sizes."""
    head, sep, _ = pipeline.partition("gpu-map")
    if not sep or "poly-tile" not in head:
        raise RuntimeError("not a poly-tile + gpu-map pipeline")
    tiled = compile_text(tool, program, params, head.rstrip(",") + ")")
    sizes, bands = TILE_SIZES.search(tiled), BANDS.search(tiled)
    mapped = compile_text(tool, program, params, pipeline)
    threads = LAUNCH_THREADS.search(mapped)
    if not sizes or not bands or not threads:
        raise RuntimeError("no tile sizes, bands or kernel launch in the output")
    tile = [int(s) for s in sizes.group(1).split(",")]
    if len(tile) == 1:
        tile *= len(bands.group(1).split(","))
    return tile, [int(t) for t in threads.groups()]


def main():
    args = sys.argv[1:]
    dtype = option(args, "--dtype", "f64")
    examples = option(args, "--examples", DEFAULT_EXAMPLES).split(",")
    tool = option(args, "--stencil-opt", "target/release/stencil-opt")
    if len(args) != 2:
        sys.exit(__doc__)
    results_path, out_path = args
    with open(results_path) as f:
        results = json.load(f)
    runs = []
    for row in results.get("benchmarks", []):
        mapping = row.get("mapping", "")
        if (row.get("dtype") != dtype or row.get("status") != "ok" or row.get("example") not in examples
                or not mapping.startswith("wavefront") or "pluto" in mapping or "general" in mapping):
            continue
        program = f"examples/{row['example']}.mlir"
        try:
            tile, block = tile_and_block(tool, program, row["params"], row["pipeline"])
        except RuntimeError as e:
            print(f"{row['example']} {mapping}: left out ({e})", file=sys.stderr)
            continue
        runs.append({"label": f"{row['example']} {mapping}", "example": program, "pipeline": row["pipeline"],
                     "params": row["params"], "seconds": row["kernel_seconds"], "registers": row.get("registers"),
                     "tile": tile, "block": block})
        print(f"{runs[-1]['label']}: tile {'x'.join(map(str, tile))}, block {'x'.join(map(str, block))}, "
              f"{row['kernel_seconds'] * 1e3:.2f} ms", file=sys.stderr)
    with open(out_path, "w") as f:
        json.dump({"format": 1, "target": "gpu", "device": results.get("device", "GPU"),
                   "launch_gap_s": None, "source": results_path, "runs": runs}, f, indent=1)
    print(f"{len(runs)} runs written to {out_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
