#!/usr/bin/env python3
"""Agreement of the tile models with the simulator's cost report (issue 15, "Must show").

Usage: bench/tile_model_sweep.py [--calibration FILE] [--only NAME,...] [--reuse MEASUREMENTS]
                                 [--record [--suffix NAME]]

For 1-D, 2-D and 3-D SOR and 2-D and 3-D Jacobi: at least 30 staged wavefront layouts each (tile
sizes x blocks; none of them a configuration of the calibration runs, bench/calibrate.py), every
one run on the GPU simulator with `stencil-run --target sim --cost --json`, plus the layouts the
search chooses with each model (`poly-tile{sizes=auto staging=true model=M},gpu-map{block=auto staging=true}`). Then
`stencil-calibrate compare` with the calibration (default: the built-in default, the measured H200
file tilemodel/calibrations/h200.json, fitted at the GPU sizes) gives, per
program and model: Spearman's rank correlation of predicted and estimated times, how far (in the
cost report's time) the model's first choice among the sweep is from the sweep's best, and the RMS
relative error. The search's own choices are reported against the sweep's best too.

Problem sizes: those of the simulator calibration runs (bench/calibrate.py SIZES["sim"]: 1-D
T=32, N=512; 2-D T=16, 64^2; 3-D T=4, 16^3).

--reuse MEASUREMENTS takes the layouts' estimates from an earlier sweep's
measurements-sim.json (the cost report does not depend on the calibration: compare another
calibration without rerunning the simulator); the search's choices always run. The runs' files
go to target/tile-model-sweep/. --record writes the output with the date, commit
and machine to bench/results/DATE-tile-model-sweep.txt and, with every run's estimated and
predicted time, to bench/results/DATE-tile-model-sweep.json (DATE-tile-model-sweep-NAME.* with
--suffix NAME).
"""

import datetime
import json
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibrate  # noqa: E402  (the calibration configurations, to keep the sweep disjoint)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SWEEP = {
    "sor-1d-3pt": ([(s1, s2) for s1 in (4, 8, 16, 32, 64) for s2 in (16, 32, 64)],
                   [(32, 1, 1), (64, 1, 1), (128, 1, 1)]),
    "sor-2d-5pt": ([(2, 8, 8), (4, 8, 8), (8, 8, 8), (4, 16, 16), (8, 16, 16), (16, 16, 16), (8, 8, 16),
                    (16, 8, 8), (4, 4, 16), (8, 16, 8)], [(8, 8, 1), (16, 8, 1), (32, 4, 1), (16, 16, 1)]),
    "sor-3d-7pt": ([(2, 4, 4, 4), (4, 4, 4, 4), (2, 2, 4, 8), (4, 2, 2, 2), (3, 4, 4, 6), (2, 4, 4, 8),
                    (4, 4, 2, 4), (2, 2, 2, 8), (3, 3, 3, 3), (1, 4, 4, 8)], [(8, 4, 2), (8, 2, 2), (8, 4, 4), (8, 8, 2)]),
    "jacobi-2d-5pt": ([(2, 8, 8), (4, 8, 8), (8, 8, 8), (2, 16, 16), (4, 16, 16), (8, 16, 16), (4, 8, 16),
                       (8, 8, 4), (2, 32, 32), (6, 16, 16)], [(8, 8, 1), (16, 8, 1), (32, 4, 1), (16, 16, 1)]),
    "jacobi-3d-7pt": ([(2, 4, 4, 4), (3, 4, 4, 4), (2, 4, 4, 8), (2, 8, 8, 8), (3, 8, 8, 8), (2, 2, 4, 8),
                       (4, 4, 4, 4), (2, 4, 8, 8), (3, 4, 4, 8), (2, 8, 4, 4)], [(8, 4, 2), (8, 2, 2), (8, 4, 4), (8, 8, 2)]),
}
SIZES = calibrate.SIZES["sim"]
MODELS = ("thesis", "prajapati")


def layouts(name, params):
    """The sweep's layouts of program `name` at problem sizes `params`, as run entries (label,
    example, pipeline, params, tile, block); those that are calibration runs are left out, so that
    the comparison never scores a model on the runs it was fitted to. The GPU bundle
    (tools/gpu-bundle) ships the same entries at the GPU sizes (`run.py RESULTS --sweep`)."""
    sizes_list, blocks = SWEEP[name]
    calibration_labels = {r["label"] for r in calibrate.runs("sim")}
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
    return entries


def choice_pipeline(model, calibration=""):
    """The search's own staged layout with `model` (`calibration`: a file, or the built-in default);
    staged like the sweep's layouts, so that the choice is scored among them."""
    suffix = f" calibration={calibration}" if calibration else ""
    return ("builtin.module(poly-schedule,poly-tile{sizes=auto staging=true model=" + model + suffix
            + "},gpu-map{block=auto staging=true})")


def main():
    args = sys.argv[1:]
    option = lambda name, default: args[args.index(name) + 1] if name in args else default
    only = set(option("--only", "").split(",")) - {""}
    subprocess.run(["cargo", "build", "--release", "-q", "--bin", "stencil-run", "--bin", "stencil-calibrate"],
                   cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    bins = os.path.join(target, "release")
    stencil_run = os.path.join(bins, "stencil-run")
    out_dir = os.path.join(target, "tile-model-sweep")
    os.makedirs(out_dir, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc)
    # --reuse FILE: the layouts' estimates of an earlier sweep (its measurements-sim.json): the
    # cost report does not depend on the calibration, so only the search's choices run again.
    reused = {}
    if "--reuse" in args:
        with open(option("--reuse", "")) as f:
            reused = {r["label"]: r for r in json.load(f)["runs"]}
    records, lines, choices = [], [], []

    def say(line):
        print(line, flush=True)
        lines.append(line)

    for name, (sizes_list, blocks) in SWEEP.items():
        if only and name not in only:
            continue
        dims = len(sizes_list[0]) - 1
        params = SIZES[dims]
        entries = layouts(name, params)
        say(f"{name}: {len(entries)} layouts at {params}")
        clock = time.monotonic()
        done_here = []
        for entry in entries:
            if entry["label"] in reused:
                record, error = {**reused[entry["label"]]}, None
            else:
                record, error = calibrate.run_one(stencil_run, ROOT, entry, "sim")
            if record is None:
                say(f"  {entry['label']}: failed: {error}")
                continue
            record["example"] = os.path.relpath(os.path.join(ROOT, entry["example"]), out_dir)
            records.append(record)
            done_here.append(record)
        say(f"  {len(done_here)} ran in {time.monotonic() - clock:.0f} s")
        best = min((r["seconds"] for r in done_here), default=None)
        # The search's own choices (each model), estimated the same way.
        for model in MODELS:
            calibration = os.path.abspath(option("--calibration", "")) if "--calibration" in args else ""
            pipeline = choice_pipeline(model, calibration)
            done = subprocess.run([stencil_run, os.path.join(ROOT, f"examples/{name}.mlir"),
                                   f"--pass-pipeline={pipeline}", "--target", "sim", "--cost", "--json",
                                   *[f"--param={k}={v}" for k, v in params.items()]], capture_output=True, text=True)
            if done.returncode != 0:
                say(f"  the {model} model's choice did not run: {done.stderr.strip()[-300:]}")
                choices.append({"program": name, "model": model, "error": done.stderr.strip()[-300:]})
                continue
            report = json.loads(done.stdout)
            seconds = calibrate.measure(report, "sim")[0]
            mapping = report.get("mapping") or {}
            choices.append({"program": name, "model": model, "tile": mapping.get("tile"),
                            "block": mapping.get("block"), "predicted_s": mapping.get("predicted_s"),
                            "estimated_s": seconds, "sweep_best_s": best,
                            "gap": seconds / best - 1 if best else None})
    measurements = os.path.join(out_dir, "measurements-sim.json")
    with open(measurements, "w") as f:
        json.dump({"format": 1, "target": "sim", "device": "NVIDIA H100 SXM5 (simulator cost model)",
                   "runs": records}, f, indent=1)
    agreement_path = os.path.join(out_dir, "agreement.json")
    command = [os.path.join(bins, "stencil-calibrate"), "compare", measurements, "--json", agreement_path, "--runs"]
    if "--calibration" in args:
        command += ["--calibration", option("--calibration", "")]
    compared = subprocess.run(command, capture_output=True, text=True)
    if compared.returncode != 0:
        sys.exit(compared.stderr)
    table, runs = [], []
    for line in compared.stdout.splitlines():
        # `--runs` lists every run first (label, estimated, thesis, prajapati, features).
        parts = line.split(" us")
        if len(parts) >= 4 or line.startswith("run "):
            runs.append(line)
        else:
            table.append(line)
    for line in table:
        say(line)
    say("the search's choice (poly-tile{sizes=auto model=M}, gpu-map{block=auto}), estimated by the cost report, "
        "against the sweep's best:")
    for c in choices:
        if "error" in c:
            say(f"  {c['program']} ({c['model']}): the search's layout did not run")
            continue
        gap = f"{100 * c['gap']:+.2f} %" if c["gap"] is not None else "-"
        say(f"  {c['program']:<14} {c['model']:<9}: tile {'x'.join(map(str, c['tile'] or []))} block "
            f"{'x'.join(map(str, c['block'] or []))}: {c['estimated_s'] * 1e6:.1f} us, {gap} against the sweep's best")
    if "--record" in args:
        date = started.date().isoformat()
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        machine = f"{platform.node()} ({os.cpu_count()} CPUs, {platform.machine()})"
        header = (f"# bench/tile_model_sweep.py {' '.join(args)}\n"
                  f"# {started:%Y-%m-%d %H:%M} UTC, commit {commit}{' (with uncommitted changes)' if dirty else ''}, "
                  f"{machine}, release build; times: the simulator's cost report (docs/cost-model.md)\n")
        suffix = f"-{option('--suffix', '')}" if "--suffix" in args else ""
        base = os.path.join(ROOT, "bench", "results", f"{date}-tile-model-sweep{suffix}")
        with open(base + ".txt", "w") as f:
            f.write(header + "\n".join(lines) + "\n\nevery run: the cost report's estimate and both models' predictions\n" + "\n".join(runs) + "\n")
        with open(agreement_path) as f:
            agreement = json.load(f)
        with open(base + ".json", "w") as f:
            json.dump({"date": started.isoformat(timespec="minutes"), "commit": commit, "dirty": bool(dirty),
                       "machine": machine, "command": "bench/tile_model_sweep.py " + " ".join(args),
                       "calibration": option("--calibration", "built-in default (tilemodel/calibrations/h200.json)"),
                       "sizes": {name: SIZES[len(SWEEP[name][0][0]) - 1] for name in SWEEP},
                       "agreement": agreement, "search_choices": choices,
                       "runs": [{k: r[k] for k in ("label", "tile", "block", "params", "seconds", "registers")}
                                for r in records]}, f, indent=1)
        print(f"recorded {base}.txt and .json")


if __name__ == "__main__":
    main()
