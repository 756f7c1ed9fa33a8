#!/usr/bin/env python3
"""Agreement of the tile models with the simulator's cost report (issue 15, "Must show").

Usage: bench/tile_model_sweep.py [--calibration FILE] [--only NAME,...] [--record]

For 1-D, 2-D and 3-D SOR and 2-D and 3-D Jacobi: 30 staged wavefront layouts each (tile sizes x
blocks; none of them a configuration of the calibration runs, bench/calibrate.py), every one run on
the GPU simulator with `stencil-run --target sim --cost --check --json` at the programs' default
sizes, plus the layout the search chooses (`poly-tile{sizes=auto},gpu-map{block=auto}`). Then
`stencil-calibrate compare` with the calibration (default: the built-in H100 file) gives, per
program and model: Spearman's rank correlation of predicted and estimated times, how far (in the
cost report's time) the model's first choice among the sweep is from the sweep's best, and the RMS
relative error. The search's own choice is reported against the sweep's best too. --record writes
the output to bench/results/DATE-tile-models.txt.
"""

import datetime
import json
import os
import platform
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibrate  # noqa: E402  (the calibration configurations, to keep the sweep disjoint)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SWEEP = {
    "sor-1d-3pt": ([(s1, s2) for s1 in (4, 8, 16, 32, 64) for s2 in (16, 32, 64)], [(32, 1, 1), (64, 1, 1)]),
    "sor-2d-5pt": ([(2, 8, 8), (4, 8, 8), (8, 8, 8), (4, 16, 16), (8, 16, 16), (16, 16, 16), (8, 8, 16),
                    (16, 8, 8), (4, 4, 16), (8, 16, 8)], [(8, 8, 1), (16, 8, 1), (32, 4, 1)]),
    "sor-3d-7pt": ([(2, 4, 4, 4), (4, 4, 4, 4), (2, 2, 4, 8), (4, 2, 2, 2), (3, 4, 4, 6), (2, 4, 4, 8),
                    (4, 4, 2, 4), (2, 2, 2, 8), (3, 3, 3, 3), (6, 4, 4, 4)], [(8, 4, 2), (8, 2, 2), (8, 4, 4)]),
    "jacobi-2d-5pt": ([(2, 8, 8), (4, 8, 8), (8, 8, 8), (2, 16, 16), (4, 16, 16), (8, 16, 16), (4, 8, 16),
                       (8, 8, 4), (2, 32, 32), (6, 16, 16)], [(8, 8, 1), (16, 8, 1), (32, 4, 1)]),
    "jacobi-3d-7pt": ([(2, 4, 4, 4), (3, 4, 4, 4), (2, 4, 4, 8), (2, 8, 8, 8), (3, 8, 8, 8), (2, 2, 4, 8),
                       (4, 4, 4, 4), (2, 4, 8, 8), (3, 4, 4, 8), (2, 8, 4, 4)], [(8, 4, 2), (8, 2, 2), (8, 4, 4)]),
}
SIZES = calibrate.SIZES["sim"]


def main():
    args = sys.argv[1:]
    option = lambda name, default: args[args.index(name) + 1] if name in args else default
    only = set(option("--only", "").split(",")) - {""}
    subprocess.run(["cargo", "build", "--release", "-q", "--bin", "stencil-run", "--bin", "stencil-calibrate"],
                   cwd=ROOT, check=True)
    bins = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release")
    stencil_run = os.path.join(bins, "stencil-run")
    calibration_labels = {r["label"] for r in calibrate.runs("sim")}
    out_dir = os.path.join(ROOT, "bench", "results", "sweep")
    os.makedirs(out_dir, exist_ok=True)
    records, lines, choices = [], [], []

    def say(line):
        print(line, flush=True)
        lines.append(line)

    for name, (sizes_list, blocks) in SWEEP.items():
        if only and name not in only:
            continue
        dims = len(sizes_list[0]) - 1
        params = SIZES[dims]
        entries = []
        for sizes in sizes_list:
            for block in blocks:
                label = f"{name} {'x'.join(map(str, sizes))} {'x'.join(map(str, block))}"
                if label in calibration_labels:
                    continue
                entries.append({
                    "label": label, "example": f"examples/{name}.mlir",
                    "pipeline": "builtin.module(poly-schedule,poly-tile{sizes=" + ",".join(map(str, sizes))
                                + "},gpu-map{block=" + ",".join(map(str, block)) + "})",
                    "params": dict(params), "tile": list(sizes), "block": list(block),
                })
        say(f"{name}: {len(entries)} layouts at {params}")
        for entry in entries:
            record, error = calibrate.run_one(stencil_run, ROOT, entry, "sim")
            if record is None:
                say(f"  {entry['label']}: failed: {error}")
                continue
            record["example"] = os.path.relpath(os.path.join(ROOT, entry["example"]), out_dir)
            records.append(record)
        # The search's own choice, estimated the same way.
        auto = {"label": f"{name} model choice", "example": f"examples/{name}.mlir",
                "pipeline": "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})",
                "params": dict(params)}
        done = subprocess.run([stencil_run, os.path.join(ROOT, auto["example"]), f"--pass-pipeline={auto['pipeline']}",
                               "--target", "sim", "--cost", "--json",
                               *[f"--param={k}={v}" for k, v in params.items()]], capture_output=True, text=True)
        if done.returncode == 0:
            report = json.loads(done.stdout)
            seconds = calibrate.measure(report, "sim")[0]
            mapping = report.get("mapping") or {}
            best = min((r["seconds"] for r in records if r["label"].startswith(name + " ")), default=None)
            choices.append((name, mapping.get("tile"), mapping.get("block"), seconds, best))
        else:
            choices.append((name, None, None, None, None))
    measurements = os.path.join(out_dir, "measurements-sim.json")
    with open(measurements, "w") as f:
        json.dump({"format": 1, "target": "sim", "device": "NVIDIA H100 SXM5 (simulator cost model)",
                   "runs": records}, f, indent=1)
    command = [os.path.join(bins, "stencil-calibrate"), "compare", measurements, "--json",
               os.path.join(out_dir, "agreement.json")]
    if "--calibration" in args:
        command += ["--calibration", option("--calibration", "")]
    compared = subprocess.run(command, capture_output=True, text=True)
    if compared.returncode != 0:
        sys.exit(compared.stderr)
    for line in compared.stdout.splitlines():
        say(line)
    say("the search's choice (sizes=auto, block=auto; thesis model), estimated by the cost report, against the sweep's best:")
    for name, tile, block, seconds, best in choices:
        if seconds is None:
            say(f"  {name}: the search's layout did not run")
            continue
        tile_text = "x".join(map(str, tile or []))
        block_text = "x".join(map(str, block or []))
        gap = f"{100 * (seconds / best - 1):+.2f} %" if best else "-"
        say(f"  {name}: tile {tile_text} block {block_text}: {seconds * 1e6:.1f} us, {gap} against the sweep's best")
    if "--record" in args:
        date = datetime.date.today().isoformat()
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        path = os.path.join(ROOT, "bench", "results", f"{date}-tile-models.txt")
        with open(path, "w") as f:
            f.write(f"# bench/tile_model_sweep.py {' '.join(args)}\n# {date}, commit {commit}, {platform.node()}\n")
            f.write("\n".join(lines) + "\n")
        print(f"recorded {path}")


if __name__ == "__main__":
    main()
