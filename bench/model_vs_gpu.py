#!/usr/bin/env python3
"""How well the simulator's cost model predicts a real GPU (docs/cost-model.md, "Calibration").

Reads the cost reports of `bench/cost_table.py --json FILE` (simulator counts per kernel) and the
measured GCells/s of one or more GPU bundle runs (`results.json` of `gpu-bundle-run/run.py`),
pairs each cost-table mapping with the bundle mapping that runs the same pipeline at 32-bit
indices, and prints, per pair, the model's large-problem limit against the measurement, then the
Spearman rank correlation and the RMS of the log ratio.

The limit is re-evaluated here from each kernel's counters with the bound model of
docs/cost-model.md (issue time with barrier stalls against DRAM time, every SM full), so that the
device's bandwidth and clock can be those of the GPU measured; `--check` first verifies that with
the report's own device it reproduces the reports' `filled` estimates.

Usage: bench/model_vs_gpu.py COST_JSON GPU_RESULTS_JSON... [--dtype f64] [--bandwidth B/s]
                             [--clock HZ] [--bytes dram|requested] [--mappings NAME,...]
                             [--check] [--explore]
  --bandwidth, --clock  the measured GPU (default: the H200 of bench/results/2026-11-26-h200-*:
                        4.2e12 B/s copy bandwidth, 1.98e9 Hz)
  --bytes               what the DRAM term charges: `dram` (default; the report's estimate, distinct
                        32-byte sectors per launch) or `requested` (every access, no caches: the
                        report's DRAM term before the estimate existed)
  --mappings            pair only these cost-table mappings (e.g. those whose kernels have not
                        changed since the measurement)
  --explore             also the best uniform corrections of a small grid (instruction scale,
                        read-byte factor, barrier cycles): how far one constant gets
"""

import itertools
import json
import math
import sys

# cost_table.py mapping -> the bundle's mapping of the same pipeline at 32-bit indices.
PAIRS = {
    "naive": "naive i32",
    "overlapped": "overlapped i32",
    "overlapped 96K": "overlapped 96K i32",
    "streaming": "streaming i32",
    "streaming 96K": "streaming 96K i32",
    "streaming prefetch": "streaming prefetch i32",
    "tiled 16 shared": "wavefront 16 shared i32",
    "tiled 32 global": "wavefront 32 global i32",
    "tiled 4 shared": "wavefront 4 shared i32",
    "tiled 8 global": "wavefront 8 global i32",
}


def limit_seconds(kernel, device, correction):
    """The bound model's large-problem time of one kernel's work (docs/cost-model.md)."""
    work, occupancy = kernel["work"], kernel["occupancy"]
    sms = device["multiprocessors"]
    blocks_per_sm = occupancy["blocks_per_sm"]
    warps_per_block = work["warps"] / max(1, work["blocks"])
    resident = blocks_per_sm * warps_per_block
    e_issue = min(1.0, resident / (device["schedulers_per_sm"] * device["issue_latency_warps"]))
    issue = (correction["kappa"] * work["warp_instructions"]
             / (sms * device["schedulers_per_sm"] * device["clock_hz"] * device["ipc_per_scheduler"] * e_issue))
    e_mem = min(1.0, resident / device["bandwidth_warps_per_sm"])
    # The DRAM term charges what the report charges: the distinct-sector estimate where the report
    # has it, the requested bytes with --bytes requested (and reports from before the estimate).
    if correction["bytes"] == "dram" and "dram_bytes_read" in work:
        read, written = work["dram_bytes_read"], work["dram_bytes_written"]
    else:
        read, written = work["global_bytes_read"], work["global_bytes_written"]
    dram = (correction["read_factor"] * read + written) / (device["dram_bandwidth"] * e_mem)
    barriers = work["barriers"] / (sms * blocks_per_sm) * correction["barrier_cycles"] / device["clock_hz"]
    return max(dram, issue + barriers)


def model_gcells(run, device, correction):
    seconds = sum(limit_seconds(k, device, correction) for k in run["cost"]["kernels"])
    return run["cost"]["point_updates"] / seconds / 1e9


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0] * len(values)
    for rank, i in enumerate(order):
        out[i] = rank
    return out


def agreement(rows):
    """Spearman's rho and the RMS of ln(model / measured)."""
    n = len(rows)
    a, b = ranks([r[2] for r in rows]), ranks([r[3] for r in rows])
    rho = 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b)) / (n * (n * n - 1))
    rms = math.sqrt(sum(math.log(r[2] / r[3]) ** 2 for r in rows) / n)
    return rho, rms


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0].startswith("--"):
        print(__doc__)
        return 2

    def option(name, default):
        return type(default)(args[args.index(name) + 1]) if name in args else default

    dtype = option("--dtype", "f64")
    mappings = set(option("--mappings", "").split(",")) - {""}
    files = [a for i, a in enumerate(args) if not a.startswith("--")
             and (i == 0 or args[i - 1] not in ("--dtype", "--bandwidth", "--clock", "--bytes", "--mappings"))]
    runs = json.load(open(files[0]))["runs"]
    measured = {}
    for path in files[1:]:
        for row in json.load(open(path))["benchmarks"]:
            if row.get("status") == "ok" and row["dtype"] == dtype:
                measured[(row["example"], row["mapping"])] = row["gcells_per_second"]
    none = {"kappa": 1.0, "read_factor": 1.0, "barrier_cycles": None, "bytes": option("--bytes", "dram")}
    if "--check" in args:
        for run in runs:
            device = run["cost"]["device"]
            ours = model_gcells(run, device, {**none, "bytes": "dram", "barrier_cycles": device["barrier_cycles"]})
            theirs = run["cost"]["filled_gcells_per_second"]
            if theirs and abs(ours / theirs - 1) > 1e-6:
                print(f"mismatch: {run['example']} {run['mapping']}: {ours} here, {theirs} in the report")
                return 1
        print(f"check: the {len(runs)} reports' large-problem limits reproduced")
    device = dict(runs[0]["cost"]["device"])
    device["dram_bandwidth"] = option("--bandwidth", 4.2e12)
    device["clock_hz"] = option("--clock", 1.98e9)
    base = {**none, "barrier_cycles": device["barrier_cycles"]}

    def rows_for(correction):
        rows = []
        for run in runs:
            if mappings and run["mapping"] not in mappings:
                continue
            gpu = measured.get((run["example"], PAIRS.get(run["mapping"], "")))
            if gpu:
                rows.append((run["example"], run["mapping"], model_gcells(run, device, correction), gpu))
        return rows

    rows = rows_for(base)
    if not rows:
        print("no pairs: no cost-table mapping has a measurement of the same pipeline")
        return 1
    print(f"model: {device['name']} counts, {device['dram_bandwidth'] / 1e12:.2f} TB/s, "
          f"{device['clock_hz'] / 1e9:.2f} GHz; measured: {', '.join(files[1:])} ({dtype})")
    print(f"{'example':<20} {'mapping':<16} {'model GC/s':>10} {'measured':>9} {'ratio':>6}")
    for example, mapping, model, gpu in rows:
        print(f"{example:<20} {mapping:<16} {model:>10.2f} {gpu:>9.2f} {model / gpu:>6.2f}")
    rho, rms = agreement(rows)
    print(f"{len(rows)} pairs: Spearman rho {rho:.3f}, RMS of ln(model/measured) {rms:.3f} "
          f"(a factor of {math.exp(rms):.2f})")
    if "--explore" in args:
        grid = itertools.product([1.0, 1.5, 2.0, 2.5, 3.0], [1.0, 0.75, 0.5, 0.25], [100, 200, 400, 800])
        best = min(({**base, "kappa": k, "read_factor": r, "barrier_cycles": c} for k, r, c in grid),
                   key=lambda corr: agreement(rows_for(corr))[1])
        rho, rms = agreement(rows_for(best))
        print(f"best uniform correction: instructions x{best['kappa']}, read bytes x{best['read_factor']}, "
              f"{best['barrier_cycles']} cycles per barrier: rho {rho:.3f}, RMS {rms:.3f} (a factor of "
              f"{math.exp(rms):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
