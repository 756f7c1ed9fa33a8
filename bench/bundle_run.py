#!/usr/bin/env python3
"""The script of a GPU bundle (written by tools/gpu-bundle, which copies this file as run.py).

Usage: python3 run.py RESULTS_DIR [--budget SECONDS] [--checks-only] [--skip-checks] [--bench REGEX] [--check REGEX]
                                  [--jobs N] [--calibrate | --calibrate-only] [--sweep] [--profile REGEX]
                                  [--decisions]
       python3 run.py --help

Every option takes `--name value` or `--name=value`; an unknown or repeated option, a bad number
or regular expression is an error before anything runs.

  --bench REGEX   time only the benchmarks whose label `EXAMPLE [TYPE] MAPPING` matches REGEX
  --check REGEX   check only the configurations whose label matches REGEX
  --skip-checks   no correctness checks (only after a run of the same bundle passed them)
  --jobs N        checks run N at a time (default: the number of CPUs, at most 8)
  --profile REGEX profile the benchmarks whose label matches REGEX (step 7)
  --decisions     time only the rows of the open decisions (DECISIONS; with --bench, those too)

Needs Python 3 and, for the GPU part, an NVIDIA driver (libcuda.so.1); nothing else. In order:

  1. checks: every example, mapped naive (where legal) and tiled, at small sizes, with
     `stencil-run --check` against the reference interpreter (bit-exact). On the GPU when a
     driver is present, otherwise on the simulator (the PTX files are still matched against the
     mapped modules), after which the script says the GPU part was skipped and exits 0.
  2. copy bandwidth: a device-to-device cuMemcpy of 1 GiB, timed with CUDA events: the roofline
     reference for the table (bytes read + written per second).
  3. the benchmark table at sizes far beyond L2, one warm-up run each, CUDA-event kernel time.
  4. RESULTS_DIR/results.json and RESULTS_DIR/results.md (device, driver, date, commit,
     GCells/s, GB/s, % of copy bandwidth, speed-up over naive, registers), and log.txt; both
     also answer the open decisions (DECISIONS: one row against another, each with what the
     answer changes) whose rows were timed.
  5. with --calibrate (or --calibrate-only: no checks, no benchmark table): the tile models'
     calibration (docs/tile-models.md): every calibration run of the manifest timed on the GPU,
     both models fitted with bin/stencil-calibrate, RESULTS_DIR/calibration.json,
     measurements.json, agreement.json (fitted) and agreement-default.json (the built-in file).
     Without a GPU the script says calibration was skipped.
  6. with --sweep (alone, or with --calibrate-only: no checks, no benchmark table): the
     tile models against the GPU on the simulator sweep's layouts (bench/tile_model_sweep.py: at
     least 30 per program, none a calibration run) at the calibration sizes, after the
     calibration when both are asked for: RESULTS_DIR/measurements-sweep.json,
     agreement-sweep*.json (Spearman's rho, the gap of each model's first choice among the sweep
     to the sweep's best, RMS error) with the calibration just fitted, the built-in H200 and the
     built-in H100 file, and the search's own choice per model and built-in calibration timed
     against the sweep's best.
  7. with --profile REGEX (alone: no checks, no benchmark table): each matching benchmark at its
     size under Nsight Compute (`ncu`, when the machine has it and lets it read the counters):
     a few launches from the middle of the run, the sections that say what bounds a kernel
     (speed of light, occupancy, warp stall reasons, memory, scheduler), as CSV in
     RESULTS_DIR/profile/ with the key figures in the log; and, when `cuobjdump` is there, each
     profiled kernel's SASS (its PTX assembled by the machine's ptxas). Which CUDA tools the
     machine has is logged first in every run.

The whole run keeps to --budget seconds (default 450): benchmarks that would start after it are
listed as skipped, so results always come back. Benchmarks run naive baselines first, then the
mappings the compiler chooses by default, then fixed-size variants (the table keeps the manifest's
order), so a short budget still measures every example. Progress goes to stdout as it happens.
"""

import atexit
import concurrent.futures
import ctypes
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the manifest's `ptx/…` paths lie: the bundle, or a temporary folder when the bundle's
# own cannot be written (`unpack_ptx`).
PTX_ROOT = HERE
START = time.monotonic()
LOG = []


def say(line=""):
    stamp = f"[{time.monotonic() - START:6.1f}s] "
    print(stamp + line, flush=True)
    LOG.append(stamp + line)


def unpack_ptx():
    """Unpacks the bundle's `ptx.tar.xz` (tools/gpu-bundle packs the PTX) into `ptx/` beside it,
    or into a temporary folder when the bundle cannot be written; once per bundle."""
    global PTX_ROOT
    archive = os.path.join(HERE, "ptx.tar.xz")
    if os.path.isdir(os.path.join(HERE, "ptx")) or not os.path.exists(archive):
        return

    def extract(root):
        with tarfile.open(archive, "r:xz") as packed:
            try:
                packed.extractall(root, filter="data")
            except TypeError:  # Python before 3.11.4: no extraction filters
                packed.extractall(root)

    try:
        extract(HERE)
    except OSError as e:
        say(f"PTX not unpacked into {HERE} ({e}): into a temporary folder instead")
        PTX_ROOT = tempfile.mkdtemp(prefix="bundle-ptx-")
        atexit.register(shutil.rmtree, PTX_ROOT, ignore_errors=True)
        try:
            extract(PTX_ROOT)
        except OSError as e:
            sys.exit(f"run.py: the bundle's PTX could not be unpacked: {e}")
    say(f"PTX unpacked into {os.path.join(PTX_ROOT, 'ptx')}")


def ptx_file(entry):
    """The PTX file of a manifest entry."""
    return os.path.join(PTX_ROOT, entry["ptx"])


def load_driver():
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def runner(entry, target, params, extra):
    """stencil-run on one manifest entry: (report dict, None) or (None, error line)."""
    command = [os.path.join(HERE, "bin", "stencil-run"), os.path.join(HERE, entry["program"]),
               f"--pass-pipeline={entry['pipeline']}", f"--ptx={ptx_file(entry)}",
               "--target", target, "--json", *[f"--param={k}={v}" for k, v in params.items()],
               *[f"--scalar={k}={v}" for k, v in entry.get("scalars", {}).items()], *extra]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=extra_timeout(extra))
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if done.returncode != 0:
        try:  # with --json, stencil-run reports its error as JSON on stdout
            return None, json.loads(done.stdout)["error"]["message"]
        except (json.JSONDecodeError, KeyError, TypeError):
            pass
        errors = [line for line in done.stderr.splitlines() if "error:" in line]
        return None, (errors[0].split("error:", 1)[1].strip() if errors else (done.stderr.strip() or "failed")[-300:])
    try:
        return json.loads(done.stdout), None
    except json.JSONDecodeError:
        return None, "unreadable report: " + done.stdout[:200]


def extra_timeout(extra):
    # Checks are small (but the simulator is slow); a benchmark at 16384^2 may legitimately
    # take a minute when its kernels are slow.
    return 120 if "--warmup" in extra else 180


def copy_bandwidth(cuda, size=1 << 30, repeats=10):
    """Bytes read + written per second of cuMemcpyDtoD, median of `repeats` timed copies."""
    def check(result, what):
        if result != 0:
            raise RuntimeError(f"{what} failed with CUDA error {result}")

    check(cuda.cuInit(0), "cuInit")
    device, context = ctypes.c_int(), ctypes.c_void_p()
    check(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device), "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
    source, destination = ctypes.c_uint64(), ctypes.c_uint64()
    check(cuda.cuMemAlloc_v2(ctypes.byref(source), ctypes.c_size_t(size)), "cuMemAlloc")
    check(cuda.cuMemAlloc_v2(ctypes.byref(destination), ctypes.c_size_t(size)), "cuMemAlloc")
    start, stop = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
    check(cuda.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
    times = []
    try:
        check(cuda.cuMemsetD8_v2(source, ctypes.c_ubyte(1), ctypes.c_size_t(size)), "cuMemsetD8")
        for i in range(repeats + 1):
            check(cuda.cuEventRecord(start, None), "cuEventRecord")
            check(cuda.cuMemcpyDtoD_v2(destination, source, ctypes.c_size_t(size)), "cuMemcpyDtoD")
            check(cuda.cuEventRecord(stop, None), "cuEventRecord")
            check(cuda.cuEventSynchronize(stop), "cuEventSynchronize")
            ms = ctypes.c_float()
            check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, stop), "cuEventElapsedTime")
            if i > 0:  # the first copy is the warm-up
                times.append(ms.value / 1e3)
    finally:
        cuda.cuMemFree_v2(source)
        cuda.cuMemFree_v2(destination)
        cuda.cuEventDestroy_v2(start)
        cuda.cuEventDestroy_v2(stop)
        cuda.cuDevicePrimaryCtxRelease_v2(device)
    times.sort()
    return 2 * size / times[len(times) // 2]


def launch_gap(cuda, chip, launches=2000, repeats=5):
    """Seconds between two dependent kernel launches: an empty kernel launched `launches` times
    back to back on one stream, timed with CUDA events, the median of `repeats` such loops per
    launch. Every inter-tile wavefront of the tiled mappings is a launch, so this bounds the
    tile models' per-wavefront costs (sigma_blk, T_sync) from below (stencil-calibrate fit)."""
    def check(result, what):
        if result != 0:
            raise RuntimeError(f"{what} failed with CUDA error {result}")

    ptx = (f".version 7.8\n.target {chip}\n.address_size 64\n"
           ".visible .entry stencil_empty()\n{\n\tret;\n}\n").encode() + b"\0"
    check(cuda.cuInit(0), "cuInit")
    device, context = ctypes.c_int(), ctypes.c_void_p()
    check(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device), "cuDevicePrimaryCtxRetain")
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    start, stop = ctypes.c_void_p(), ctypes.c_void_p()
    times = []
    try:
        check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
        check(cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(ptx)), "cuModuleLoadData")
        check(cuda.cuModuleGetFunction(ctypes.byref(function), module, b"stencil_empty"), "cuModuleGetFunction")
        check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
        check(cuda.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
        one = ctypes.c_uint(1)

        def launch():
            check(cuda.cuLaunchKernel(function, one, one, one, one, one, one, ctypes.c_uint(0), None, None, None),
                  "cuLaunchKernel")

        for i in range(repeats + 1):
            check(cuda.cuEventRecord(start, None), "cuEventRecord")
            for _ in range(launches):
                launch()
            check(cuda.cuEventRecord(stop, None), "cuEventRecord")
            check(cuda.cuEventSynchronize(stop), "cuEventSynchronize")
            ms = ctypes.c_float()
            check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, stop), "cuEventElapsedTime")
            if i > 0:  # the first loop is the warm-up
                times.append(ms.value / 1e3 / launches)
    finally:
        if start.value:
            cuda.cuEventDestroy_v2(start)
        if stop.value:
            cuda.cuEventDestroy_v2(stop)
        if module.value:
            cuda.cuModuleUnload(module)
        cuda.cuDevicePrimaryCtxRelease_v2(device)
    times.sort()
    return times[len(times) // 2]


def simulator_params(params):
    """Smaller sizes for the simulator (it runs 0.01-0.2 M point updates/s): T at most 3, space
    at most 24 (2-D) or 10 (3-D: three or more space parameters), which still spans several tiles."""
    space = [k for k in params if k != "T"]
    limit = 10 if len(space) >= 3 else 24
    return {k: min(v, 3 if k == "T" else limit) for k, v in params.items()}


def run_checks(manifest, target, selected, jobs):
    """Every selected check, `jobs` at a time (each is a small stencil-run of its own; on a GPU
    they share it, which changes no result), reported in manifest order."""
    checks = [c for c in manifest["checks"] if selected(bench_label(c))]
    say(f"checks: {len(checks)} configurations at small sizes, --target {target} --check, {jobs} at a time"
        + (" (sizes reduced for the simulator)" if target == "sim" else ""))

    def check(entry):
        if "ptx" not in entry:
            return {**entry, "status": "refused by the compiler"}
        # Affine inputs have sizes fixed by their memrefs or small already: never reduced.
        small = target == "gpu" or entry.get("fixed_sizes")
        params = entry["params"] if small else simulator_params(entry["params"])
        # A rewrite that changes the results on purpose (SOR methods) is checked against itself.
        after = [f"--check-after={entry['check_after']}"] if "check_after" in entry else []
        report, error = runner(entry, target, params, ["--check", *after, "--init", "random:7"])
        if report is None:
            return {**entry, "status": "FAILED", "error": error}
        return {**entry, "status": "bit-exact", "point_updates": report["point_updates"]}

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(check, checks))
    for row in results:
        label = bench_label(row)
        if row["status"] == "FAILED":
            say(f"  {label}: FAILED: {row['error']}")
        elif row["status"] == "bit-exact":
            say(f"  {label}: bit-exact ({row['point_updates']} point updates)")
        else:
            say(f"  {label}: not mapped ({row['refused']})")
    failures = sum(1 for r in results if r["status"] == "FAILED")
    say(f"checks: {sum(1 for r in results if r['status'] == 'bit-exact')} bit-exact, {failures} failed, "
        f"{sum(1 for r in results if r['status'].startswith('refused'))} not mapped by the compiler")
    return results, failures


def bench_tier(entry):
    """When a benchmark runs under a time budget: the naive baselines and `strategy=auto` first,
    then the mappings auto chooses among (overlapped, streaming, the wavefront with automatic sizes), then the
    fixed-size variants. A budget that runs out drops variants of every example, not the last
    examples of the manifest (3-D rows, last in it, were the ones lost before)."""
    mapping = entry["mapping"]
    if mapping in ("naive", "naive i32") or mapping.startswith("auto"):
        return 0
    if mapping.startswith(("overlapped", "streaming", "wavefront auto", "to tol:")):
        return 1
    return 2


def run_benchmarks(manifest, budget, copy_bw, selected):
    benchmarks = [b for b in manifest["benchmarks"] if selected(bench_label(b))]
    say(f"benchmarks: {len(benchmarks)} configurations (budget {budget:.0f} s in all), baselines and "
        f"default mappings first")
    rows = [None] * len(benchmarks)
    for i in sorted(range(len(benchmarks)), key=lambda i: (bench_tier(benchmarks[i]), i)):
        entry = benchmarks[i]
        label = bench_label(entry)
        row = {k: entry[k] for k in ("example", "dtype", "mapping", "pipeline", "params", "element_bytes")}
        if "sweeps" in entry:
            row["sweeps"] = entry["sweeps"]
        rows[i] = row
        if "ptx" not in entry:
            row.update({"status": "not mapped", "error": entry["refused"]})
            say(f"  {label}: not mapped ({entry['refused']})")
            continue
        if time.monotonic() - START > budget:
            row["status"] = "skipped: time budget"
            say(f"  {label}: skipped (time budget)")
            continue
        report, error = runner(entry, "gpu", entry["params"], ["--init", "const:1", "--warmup", "1"])
        if report is None:
            row.update({"status": "failed", "error": error})
            say(f"  {label}: failed: {error}")
            continue
        gpu = report["target_stats"]["gpu"]
        gcells = gpu["gcells_per_second"]
        bandwidth = gpu["effective_bandwidth"]
        row.update({
            "status": "ok",
            "gcells_per_second": gcells,
            "effective_bandwidth": bandwidth,
            "percent_of_copy_bandwidth": 100 * bandwidth / copy_bw if copy_bw else None,
            "speedup_over_naive": None,
            "kernel_seconds": gpu["kernel_seconds"],
            "launches": gpu["launches"],
            "point_updates": report["point_updates"],
            "registers": max((k["registers"] for k in gpu["kernels"]), default=None),
            "kernels": gpu["kernels"],
            "device": gpu["device"],
        })
        say(f"  {label}: {gcells:.2f} GCells/s, {bandwidth / 1e9:.0f} GB/s, "
            f"{gpu['launches']} launches, {row['registers']} registers, {gpu['kernel_seconds']:.4f} s")
    # Speed-ups over the naive kernel of the same example and type, once every row has run.
    naive = {(r["example"], r["dtype"]): r["gcells_per_second"] for r in rows
             if r["mapping"] == "naive" and r.get("status") == "ok"}
    for row in rows:
        key = (row["example"], row["dtype"])
        if row.get("status") == "ok" and key in naive:
            row["speedup_over_naive"] = row["gcells_per_second"] / naive[key]
    return rows


def describe_device(summary, device):
    """Fills the results' device and driver lines from a run report's GPU description."""
    if device:
        summary["device"] = (f"{device['name']} ({device['chip']}, {device['multiprocessors']} SMs, "
                             f"L2 {device['l2_cache_bytes'] // (1 << 20)} MiB)")
        summary["driver"] = f"CUDA {device['driver_version']}"


def run_calibration(manifest, results_dir, budget):
    """Times the manifest's calibration runs on the GPU and fits the tile models to them; returns
    the GPU's description from the first run report (None when no run succeeded)."""
    runs = [r for r in manifest.get("calibration", []) if "ptx" in r]
    say(f"calibration: {len(runs)} runs on the GPU (docs/tile-models.md)")
    records, device = time_runs(runs, budget, "calibration")
    if len(records) < 8:
        say(f"calibration: only {len(records)} runs succeeded; not fitting")
        return device
    # The per-wavefront costs are a launch at least: measured here and recorded with the runs
    # (`stencil-calibrate fit --launch-gap` bounds sigma_blk and T_sync by it; not applied by
    # default, bench/results/2026-11-27-launch-gap-refit.txt).
    gap = None
    try:
        gap = launch_gap(load_driver(), manifest["chip"])
        say(f"calibration: launch gap {gap * 1e6:.2f} us (an empty kernel launched back to back)")
    except (RuntimeError, AttributeError, OSError) as e:
        say(f"calibration: launch gap not measured ({e})")
    measurements = os.path.join(results_dir, "measurements.json")
    with open(measurements, "w") as f:
        json.dump({"format": 1, "target": "gpu", "device": device["name"] if device else "GPU",
                   "launch_gap_s": gap, "runs": records}, f, indent=1)
    tool = os.path.join(HERE, "bin", "stencil-calibrate")
    fitted = subprocess.run([tool, "fit", measurements, "--root", HERE, "--out",
                             os.path.join(results_dir, "calibration.json")], capture_output=True, text=True)
    for line in (fitted.stdout + fitted.stderr).splitlines():
        say("  " + line)
    compared = subprocess.run([tool, "compare", measurements, "--root", HERE, "--calibration",
                               os.path.join(results_dir, "calibration.json"), "--json",
                               os.path.join(results_dir, "agreement.json"), "--runs"], capture_output=True, text=True)
    for line in (compared.stdout + compared.stderr).splitlines():
        say("  " + line)
    default = subprocess.run([tool, "compare", measurements, "--root", HERE, "--json",
                              os.path.join(results_dir, "agreement-default.json")], capture_output=True, text=True)
    say("  with the built-in default calibration (tilemodel/calibrations/h200.json) instead:")
    for line in (default.stdout + default.stderr).splitlines():
        say("  " + line)
    return device


def time_runs(entries, budget, label):
    """Times each entry of the manifest (a calibration or sweep run) on the GPU within the
    budget: (records with seconds and registers, the GPU's description or None)."""
    records, device = [], None
    for entry in entries:
        if "ptx" not in entry:
            say(f"  {entry['label']}: not mapped ({entry.get('refused', 'refused by the compiler')[:200]})")
            continue
        if time.monotonic() - START > budget:
            say(f"  {entry['label']}: skipped (time budget)")
            continue
        report, error = runner({**entry, "program": entry["example"]}, "gpu", entry["params"],
                               ["--init", "const:1", "--warmup", "1"])
        if report is None:
            say(f"  {entry['label']}: failed: {error}")
            continue
        gpu = report["target_stats"]["gpu"]
        device = device or gpu["device"]
        registers = max((k["registers"] or 0 for k in gpu["kernels"]), default=0)
        record = {**{k: entry[k] for k in ("label", "example", "pipeline", "params") if k in entry},
                  "seconds": gpu["kernel_seconds"], "registers": registers}
        for key in ("tile", "block", "choice"):
            if key in entry:
                record[key] = entry[key]
        mapping = report.get("mapping") or {}
        if "choice" in entry:
            record["tile"], record["block"] = mapping.get("tile"), mapping.get("block")
            record["predicted_s"] = mapping.get("predicted_s")
        records.append(record)
        say(f"  {entry['label']}: {gpu['kernel_seconds'] * 1e3:.3f} ms, {registers} registers")
    say(f"{label}: {len(records)} of {len(entries)} runs timed")
    return records, device


def run_sweep(manifest, results_dir, budget):
    """Times the sweep's layouts and the search's choices and compares the tile models with the
    measured times (step 6 of the module documentation); returns the GPU's description."""
    entries = manifest.get("sweep", [])
    layouts = [e for e in entries if "choice" not in e]
    say(f"sweep: {len(layouts)} layouts and {len(entries) - len(layouts)} search choices on the GPU")
    records, device = time_runs(layouts, budget, "sweep layouts")
    choices, choice_device = time_runs([e for e in entries if "choice" in e], budget, "search choices")
    device = device or choice_device
    if len(records) < 8:
        say(f"sweep: only {len(records)} layouts timed; no comparison")
        return device
    measurements = os.path.join(results_dir, "measurements-sweep.json")
    with open(measurements, "w") as f:
        json.dump({"format": 1, "target": "gpu", "device": device["name"] if device else "GPU", "runs": records,
                   "search_choices": choices}, f, indent=1)
    tool = os.path.join(HERE, "bin", "stencil-calibrate")
    fitted = os.path.join(results_dir, "calibration.json")
    versions = [("the calibration fitted in this run", fitted, "agreement-sweep.json")] if os.path.exists(fitted) else []
    versions += [("the built-in H200 calibration", "h200", "agreement-sweep-h200.json"),
                 ("the built-in (simulator-derived) H100 calibration", "h100", "agreement-sweep-h100.json")]
    for what, calibration, out in versions:
        say(f"  model vs measured on the sweep, with {what}:")
        compared = subprocess.run([tool, "compare", measurements, "--root", HERE, "--calibration", calibration,
                                   "--json", os.path.join(results_dir, out)], capture_output=True, text=True)
        for line in (compared.stdout + compared.stderr).splitlines():
            say("  " + line)
    best = {}
    for r in records:
        program = r["label"].split()[0]
        best[program] = min(best.get(program, float("inf")), r["seconds"])
    say("  the search's own choice against the sweep's best (measured):")
    for c in choices:
        program = c["label"].split()[0]
        gap = c["seconds"] / best[program] - 1 if program in best else None
        c["gap"] = gap
        tile = "x".join(map(str, c.get("tile") or []))
        block = "x".join(map(str, c.get("block") or []))
        say(f"  {c['label']}: tile {tile} block {block}: {c['seconds'] * 1e3:.3f} ms"
            + (f", {100 * gap:+.1f} % against the sweep's best" if gap is not None else ""))
    with open(measurements, "w") as f:
        json.dump({"format": 1, "target": "gpu", "device": device["name"] if device else "GPU", "runs": records,
                   "search_choices": choices}, f, indent=1)
    return device


CUDA_TOOL_DIRS = ["/usr/local/cuda/bin", "/usr/local/cuda/nsight-compute", "/opt/nvidia/nsight-compute"]


def find_tool(name):
    """`name` on PATH or in the usual CUDA folders (newest versioned folder last), or None."""
    import glob
    import shutil
    found = shutil.which(name)
    if found:
        return found
    folders = CUDA_TOOL_DIRS + sorted(glob.glob("/usr/local/cuda-*/bin")) + sorted(glob.glob("/opt/nvidia/nsight-compute/*"))
    for folder in reversed(folders):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def probe_tools():
    """Which CUDA tools this machine has, with their versions: {name: "path: version" or None}."""
    tools = {}
    for name in ("nvcc", "ptxas", "ncu", "nsys", "cuobjdump", "nvdisasm"):
        path = find_tool(name)
        if path is None:
            tools[name] = None
            continue
        try:
            done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
            lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
            tools[name] = f"{path}: {lines[-1].strip() if lines else '?'}"
        except (OSError, subprocess.TimeoutExpired) as e:
            tools[name] = f"{path}: {e}"
    say("CUDA tools: " + "; ".join(f"{k} {'missing' if v is None else v}" for k, v in tools.items()))
    return tools


# What `--profile` asks Nsight Compute for, and the figures of its CSV the log shows.
NCU_SECTIONS = ["SpeedOfLight", "LaunchStats", "Occupancy", "WarpStateStats", "MemoryWorkloadAnalysis",
                "SchedulerStats"]
# Warp stall reasons (cycles a warp waits per instruction issued, by reason): what the
# WarpStateStats section charts but does not list.
NCU_STALLS = [f"smsp__average_warps_issue_stalled_{r}_per_issue_active.ratio"
              for r in ("long_scoreboard", "barrier", "short_scoreboard", "wait", "lg_throttle", "mio_throttle",
                        "math_pipe_throttle", "not_selected", "selected", "membar", "drain", "no_instruction",
                        "branch_resolving", "dispatch_stall", "imc_miss", "tex_throttle", "sleeping")]
NCU_KEY_METRICS = NCU_STALLS + ["Duration", "Compute (SM) Throughput", "Memory Throughput", "DRAM Throughput",
                   "L2 Cache Throughput", "Achieved Occupancy", "Theoretical Occupancy", "Registers Per Thread",
                   "Issue Slots Busy", "Warp Cycles Per Issued Instruction", "Stall Long Scoreboard",
                   "Stall Barrier", "Stall Wait", "Stall Short Scoreboard", "Stall LG Throttle"]


def ncu_summary(csv_text):
    """{kernel: {metric: "value unit"}} of the key metrics in ncu's `--csv --page details`
    output, the last profiled launch of each kernel winning."""
    import csv
    import io
    rows = list(csv.reader(io.StringIO(csv_text)))
    header = next((i for i, r in enumerate(rows) if "Metric Name" in r), None)
    if header is None:
        return {}
    names = rows[header]
    at = {n: names.index(n) for n in ("Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
    out = {}
    for r in rows[header + 1:]:
        if len(r) < len(names):
            continue
        metric = r[at["Metric Name"]]
        if any(metric == k or metric.startswith(k) for k in NCU_KEY_METRICS):
            kernel = r[at["Kernel Name"]].split("(")[0]
            out.setdefault(kernel, {})[metric] = f"{r[at['Metric Value']]} {r[at['Metric Unit']]}".strip()
    return out


def run_profiles(manifest, results_dir, budget, selected, tools):
    """Step 7 of the module documentation; returns a record per profiled benchmark."""
    entries = [b for b in manifest["benchmarks"] if selected(bench_label(b)) and "ptx" in b]
    folder = os.path.join(results_dir, "profile")
    os.makedirs(folder, exist_ok=True)
    ncu = (tools.get("ncu") or "").split(":")[0] or None
    cuobjdump = (tools.get("cuobjdump") or "").split(":")[0] or None
    ptxas = (tools.get("ptxas") or "").split(":")[0] or None
    say(f"profile: {len(entries)} benchmarks" + ("" if ncu else " (no ncu on this machine: SASS only)"))
    records = []
    for entry in entries:
        label = bench_label(entry)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")
        record = {"label": label}
        records.append(record)
        if time.monotonic() - START > budget:
            record["status"] = "skipped: time budget"
            say(f"  {label}: skipped (time budget)")
            continue
        if cuobjdump and ptxas:
            cubin = os.path.join(folder, name + ".cubin")
            assembled = subprocess.run([ptxas, f"-arch={manifest['chip']}", ptx_file(entry), "-o",
                                        cubin], capture_output=True, text=True)
            if assembled.returncode == 0:
                sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True)
                with open(os.path.join(folder, name + ".sass"), "w") as f:
                    f.write(sass.stdout or sass.stderr)
                record["sass"] = f"profile/{name}.sass"
            os.remove(cubin) if os.path.exists(cubin) else None
        if not ncu:
            record["status"] = "no ncu"
            continue
        # Two launches from the middle of the run (the first ones fill the pipeline of
        # wavefronts, and ncu replays each profiled launch many times): a plain run first
        # counts them.
        report, error = runner(entry, "gpu", entry["params"], ["--init", "const:1"])
        if report is None:
            record.update({"status": "failed", "error": error})
            say(f"  {label}: failed: {error}")
            continue
        launches = report["target_stats"]["gpu"]["launches"]
        skip = max(0, launches // 2 - 1)
        record["profiled_launches"] = [skip, skip + 1]
        command = [ncu, "--csv", "--page", "details", "--launch-skip", str(skip), "--launch-count", "2",
                   *[a for s in NCU_SECTIONS for a in ("--section", s)], "--metrics", ",".join(NCU_STALLS),
                   os.path.join(HERE, "bin", "stencil-run"), os.path.join(HERE, entry["program"]),
                   f"--pass-pipeline={entry['pipeline']}", f"--ptx={ptx_file(entry)}",
                   "--target", "gpu", "--init", "const:1", *[f"--param={k}={v}" for k, v in entry["params"].items()],
                   *[f"--scalar={k}={v}" for k, v in entry.get("scalars", {}).items()]]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=240)
        except subprocess.TimeoutExpired:
            record["status"] = "ncu timed out"
            say(f"  {label}: ncu timed out")
            continue
        with open(os.path.join(folder, name + ".csv"), "w") as f:
            f.write(done.stdout)
        summary = ncu_summary(done.stdout)
        record.update({"status": "ok" if summary else "no metrics", "csv": f"profile/{name}.csv", "metrics": summary})
        if not summary:
            problem = [line for line in (done.stderr + done.stdout).splitlines() if "ERR" in line or "rror" in line]
            record["error"] = (problem[0] if problem else done.stderr.strip()[-300:])
            say(f"  {label}: no metrics: {record['error']}")
            continue
        for kernel, metrics in summary.items():
            say(f"  {label}: {kernel}: " + "; ".join(f"{k} {v}" for k, v in metrics.items()))
    with open(os.path.join(folder, "profiles.json"), "w") as f:
        json.dump(records, f, indent=1)
    return records


def bench_label(entry):
    return f"{entry['example']} [{entry['dtype']}] {entry['mapping']}"


# The questions only a GPU answers, each as one benchmark row against another: `row` and
# `against` are labels (EXAMPLE [TYPE] MAPPING); `target` (optional) the ratio row ÷ against
# that a goal asks for; `then` what the answer changes. Kept with the compiler's open choices
# (docs/passes.md for strategy=auto, docs/tile-models.md for the tile model's): a question
# answered for good leaves the list. A label the manifest lacks is named in the log.
DECISIONS = [
    {"question": "3-D SOR's default against naive 3-D Jacobi (issue 13: at least 0.6; H200 2026-11-30: 0.56 in "
                 "f64, 0.73 in f32)",
     "row": "sor-3d-7pt [{t}] wavefront auto i32", "against": "jacobi-3d-7pt [{t}] naive i32", "target": 0.6,
     "then": "the SOR target met or not"},
    {"question": "2-D SOR's strategy=auto against naive 2-D Jacobi (issue 13: at least 0.6)",
     "row": "sor-2d-5pt [{t}] auto i32", "against": "jacobi-2d-5pt [{t}] naive i32", "target": 0.6,
     "then": "the SOR target met or not"},
    {"question": "3-D Jacobi's strategy=auto (streaming, copy fused) against naive (issue 13: at least 1.5)",
     "row": "jacobi-3d-7pt [{t}] auto i32", "against": "jacobi-3d-7pt [{t}] naive i32", "target": 1.5,
     "then": "the 3-D throughput target met or not"},
    {"question": "PolyBench heat-3d's strategy=auto (streaming, the first stencil recomputed on a halo; the "
                 "default since 2026-11-30) against naive (issue 13: at least 1.5)",
     "row": "polybench-heat-3d [{t}] auto i32", "against": "polybench-heat-3d [{t}] naive i32", "target": 1.5,
     "then": "the heat-3d target met or not; below 1: strategy=auto goes back to naive for stencils that read "
             "an earlier stencil's results around their point (lowering/src/gpu_map/auto.rs)"},
    {"question": "The HHC 3-D ping-pong stencils under strategy=auto (streamed since 2026-11-30 on heat-3d's "
                 "measurement alone) against naive",
     "row": "hhc-jacobi-3d [{t}] auto i32", "against": "hhc-jacobi-3d [{t}] naive i32",
     "then": "below 1: strategy=auto streams 3-D ping-pong stencils only where a measured rule says so "
             "(lowering/src/gpu_map/auto.rs)"},
    {"question": "hhc-gradient-3d (a square root per point) under strategy=auto (streamed) against naive",
     "row": "hhc-gradient-3d [{t}] auto i32", "against": "hhc-gradient-3d [{t}] naive i32",
     "then": "below 1: as for hhc-jacobi-3d"},
    {"question": "The code-generator flags (32-bit shared pointers, loop strength reduction off; the default "
                 "since 2026-11-30) against LLVM's defaults, on 3-D Jacobi's streaming kernel (the smallest "
                 "margin measured: 0.98-1.05 in f64)",
     "row": "jacobi-3d-7pt [{t}] auto i32", "against": "jacobi-3d-7pt [{t}] auto i32 llvm-defaults",
     "then": "below 1 in both types: CodegenFlags::RECOMMENDED needs a per-strategy choice "
             "(lowering/src/ptx/llvm_options.rs)"},
    {"question": "Divisions by constants through the rounded reciprocal (the default since 2026-11-30, never "
                 "timed) against PTX's div.rn, on 2-D and 3-D Jacobi's default kernels (÷ 5, ÷ 7)",
     "row": "jacobi-2d-5pt [{t}] auto i32", "against": "jacobi-2d-5pt [{t}] auto i32 div-rn",
     "then": "below 1: CodegenFlags::RECOMMENDED.reciprocal_division = false (lowering/src/ptx/llvm_options.rs)"},
    {"question": "The same on 3-D Jacobi's streaming kernel",
     "row": "jacobi-3d-7pt [{t}] auto i32", "against": "jacobi-3d-7pt [{t}] auto i32 div-rn",
     "then": "below 1 here and above on 2-D: a per-kernel choice"},
    {"question": "Neighbouring global accesses through one flat index (the default since 2026-11-30, never "
                 "timed) against every access indexed per dimension, on 3-D SOR's global-memory tiles (43 -> 37 "
                 "SASS per point outside the unrolled loop, 40 -> 32 registers)",
     "row": "sor-3d-7pt [{t}] wavefront auto i32", "against": "sor-3d-7pt [{t}] wavefront auto i32 flat-off",
     "then": "below 1: CodegenFlags::RECOMMENDED.flat_addresses = false (lowering/src/ptx/llvm_options.rs)"},
    {"question": "The same on the naive 3-D and 2-D Jacobi kernels (67 -> 64 and 57 -> 52 SASS per point)",
     "row": "jacobi-3d-7pt [{t}] naive i32", "against": "jacobi-3d-7pt [{t}] naive i32 flat-off",
     "then": "below 1 here and above for 3-D SOR: a per-strategy choice"},
    {"question": "The same on the naive 2-D Jacobi kernel",
     "row": "jacobi-2d-5pt [{t}] naive i32", "against": "jacobi-2d-5pt [{t}] naive i32 flat-off",
     "then": "as for 3-D"},
    {"question": "3-D SOR's default with the fields typed with the run's sizes (gpu-map{static-shapes=true}: "
                 "every neighbour an immediate offset, the four-point loop 124 -> 86 SASS) against the default",
     "row": "sor-3d-7pt [{t}] wavefront auto i32 static", "against": "sor-3d-7pt [{t}] wavefront auto i32",
     "then": "above 1: static shapes where --param gives the sizes, by default (lowering/src/gpu_map/mod.rs, "
             "GpuMapOptions::static_shapes), and 3-D SOR's target re-checked with it"},
    {"question": "The same for 3-D SOR against naive 3-D Jacobi (issue 13: at least 0.6)",
     "row": "sor-3d-7pt [{t}] wavefront auto i32 static", "against": "jacobi-3d-7pt [{t}] naive i32", "target": 0.6,
     "then": "below 0.6: the gap stays (global-memory tiles)"},
    {"question": "Static shapes on naive and strategy=auto 3-D Jacobi (naive 64 -> 55 SASS per point)",
     "row": "jacobi-3d-7pt [{t}] naive i32 static", "against": "jacobi-3d-7pt [{t}] naive i32",
     "then": "above 1 here and for auto: static shapes by default wherever sizes are given"},
    {"question": "Static shapes on 3-D Jacobi's streaming kernel",
     "row": "jacobi-3d-7pt [{t}] auto i32 static", "against": "jacobi-3d-7pt [{t}] auto i32",
     "then": "below 1: static shapes only for the strategies whose global accesses are neighbours (naive, wavefront)"},
    {"question": "Given tiles of 16 at 16384², heat-2d: staged (gpu-map{staging=auto}'s choice by the tile "
                 "model's estimates, 0.33 s against 0.50 s on global memory in f64) against the same tiles on "
                 "global memory (H200 2026-11-30: 0.88 in f64, 0.78 in f32)",
     "row": "heat-2d [{t}] wavefront 16 shared i32", "against": "heat-2d [{t}] wavefront 16 global i32",
     "then": "below 1: the model's staged estimate is too low for these tiles; refit the calibration "
             "(run.py --calibrate) before trusting staging=auto for given sizes"},
    {"question": "Given tiles of 16 at 16384², 2-D Jacobi: staged (staging=auto's choice, 0.29 s against 0.85 s "
                 "in f64) against the same tiles on global memory (H200 2026-11-30: 0.85 in f64, 0.79 in f32)",
     "row": "jacobi-2d-5pt [{t}] wavefront 16 shared i32", "against": "jacobi-2d-5pt [{t}] wavefront 16 global i32",
     "then": "below 1: as for heat-2d"},
    {"question": "2-D Jacobi f32 at 16384²: strategy=auto against naive (issue 13's must-show: at least 1.5)",
     "row": "jacobi-2d-5pt [{t}] auto i32", "against": "jacobi-2d-5pt [{t}] naive i32", "target": 1.5,
     "then": "the must-show met or not", "types": ["f32"]},
]


def decision_rows(decision):
    """The (row, against) label pairs of `decision`, one per element type."""
    return [(decision["row"].format(t=t), decision["against"].format(t=t))
            for t in decision.get("types", ["f64", "f32"])]


def decision_labels():
    """Every label the decisions compare."""
    return {label for d in DECISIONS for pair in decision_rows(d) for label in pair}


def answer_decisions(rows):
    """Each decision with the GCells/s of its rows and their ratio where both were timed."""
    timed = {f"{r['example']} [{r['dtype']}] {r['mapping']}": r.get("gcells_per_second")
             for r in rows if r.get("status") == "ok"}
    answers = []
    for d in DECISIONS:
        for row, against in decision_rows(d):
            a, b = timed.get(row), timed.get(against)
            ratio = a / b if a and b else None
            verdict = None
            if ratio is not None and "target" in d:
                verdict = "met" if ratio >= d["target"] else "not met"
            answers.append({"question": d["question"], "row": row, "against": against, "row_gcells": a,
                            "against_gcells": b, "ratio": ratio, "target": d.get("target"), "verdict": verdict,
                            "then": d["then"]})
    return answers


def markdown(summary):
    lines = [
        "# GPU bundle results",
        "",
        f"- device: {summary['device']}",
        f"- driver: {summary['driver']}",
        f"- date: {summary['date']}",
        f"- commit: {summary['commit']} (bundle made {summary['bundle_created']}, PTX for {summary['chip']})",
        f"- copy bandwidth (cuMemcpyDtoD, 1 GiB, read + write): "
        + (f"{summary['copy_bandwidth'] / 1e9:.0f} GB/s" if summary["copy_bandwidth"] else "not measured"),
        f"- checks: {summary['checks_passed']} bit-exact against the reference interpreter, "
        f"{summary['checks_failed']} failed, {summary['checks_not_mapped']} not mapped by the compiler",
        "- GB/s: effective, 2 x element size per point update (one read, one write); time: CUDA events "
        "around the timed run after one warm-up run",
        "",
        "| example | type | mapping | size | GCells/s | GB/s | % copy BW | vs naive | registers | launches |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in summary["benchmarks"]:
        size = " x ".join(str(v) for k, v in row["params"].items() if k != "T") + f", T={row['params'].get('T', '-')}"
        if row["status"] != "ok":
            lines.append(f"| {row['example']} | {row['dtype']} | {row['mapping']} | {size} | {row['status']} "
                         f"{row.get('error', '')} | | | | | |")
            continue
        pct = f"{row['percent_of_copy_bandwidth']:.0f} %" if row["percent_of_copy_bandwidth"] else "-"
        vs = f"{row['speedup_over_naive']:.2f}x" if row["speedup_over_naive"] else "-"
        lines.append(f"| {row['example']} | {row['dtype']} | {row['mapping']} | {size} | {row['gcells_per_second']:.2f} | "
                     f"{row['effective_bandwidth'] / 1e9:.0f} | {pct} | {vs} | {row['registers']} | {row['launches']} |")
    # Issue 14: SOR, red-black SOR and MLSOR, each for the steps it needed to reach the
    # tolerance on the reference interpreter (tools/gpu-bundle, SOR_METHODS): the time is the
    # time to tolerance.
    methods = [r for r in summary["benchmarks"] if "sweeps" in r]
    if methods:
        rbsor = next((r["kernel_seconds"] for r in methods
                      if r["mapping"] == "to tol: RBSOR naive" and r["status"] == "ok"), None)
        lines += ["", "## Time to tolerance (SOR methods, the convergence run's grid and steps)", "",
                  "| method | steps | SOR sweeps | time to tolerance ms | vs RBSOR |", "|---|---:|---:|---:|---:|"]
        for row in methods:
            method = row["mapping"].removeprefix("to tol: ")
            if row["status"] != "ok":
                lines.append(f"| {method} | {row['params']['T']} | {row['sweeps']} | {row['status']} | |")
                continue
            vs = f"{row['kernel_seconds'] / rbsor:.2f}x" if rbsor else "-"
            lines.append(f"| {method} | {row['params']['T']} | {row['sweeps']} | "
                         f"{row['kernel_seconds'] * 1e3:.2f} | {vs} |")
    answered = [d for d in summary.get("decisions", []) if d["ratio"] is not None]
    if answered:
        lines += ["", "## Decisions (DECISIONS in run.py: the row against the other, GCells/s)", "",
                  "| question | row | against | ratio | target | then |", "|---|---|---|---:|---|---|"]
        for d in answered:
            target = f"{d['target']} ({d['verdict']})" if d["target"] is not None else "-"
            lines.append(f"| {d['question']} | {d['row']}: {d['row_gcells']:.2f} | {d['against']}: "
                         f"{d['against_gcells']:.2f} | {d['ratio']:.3f} | {target} | {d['then']} |")
    failed = [c for c in summary["checks"] if c["status"] == "FAILED"]
    if failed:
        lines += ["", "## Failed checks", ""]
        lines += [f"- {c['example']} [{c['dtype']}] {c['mapping']}: {c['error']}" for c in failed]
    return "\n".join(lines) + "\n"


# The options run.py takes: those with a value, with how to read it, and the plain flags.
VALUED_OPTIONS = {"--budget": "seconds", "--bench": "regex", "--check": "regex", "--jobs": "count",
                  "--profile": "regex"}
FLAG_OPTIONS = {"--checks-only", "--skip-checks", "--calibrate", "--calibrate-only", "--sweep", "--decisions"}


def parse_arguments(args):
    """RESULTS_DIR and the options of `args` (`--name value` or `--name=value`), each value read
    and checked: a misspelt option, a bad number or regex is an error before anything runs (on
    a lent GPU a typo would otherwise cost a whole run). -h/--help prints the usage."""
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        sys.exit(0)
    given, positional, index = {}, [], 0
    while index < len(args):
        arg = args[index]
        name, has_value, value = arg.partition("=")
        if name in VALUED_OPTIONS:
            if not has_value:
                index += 1
                if index >= len(args):
                    sys.exit(f"run.py: {name} needs a value ({VALUED_OPTIONS[name]})")
                value = args[index]
            kind, text = VALUED_OPTIONS[name], value
            try:
                if kind == "regex":
                    value = re.compile(value)
                elif kind == "seconds":
                    value = float(value)
                    if not value > 0:
                        raise ValueError("not positive")
                else:
                    value = int(value)
                    if value < 1:
                        raise ValueError("below 1")
            except (re.error, ValueError) as e:
                sys.exit(f"run.py: {name} {text!r}: not a valid {kind} ({e})")
        elif arg in FLAG_OPTIONS:
            value = True
        elif arg.startswith("-"):
            sys.exit(f"run.py: unknown option {arg!r} (python3 run.py --help lists them)")
        else:
            positional.append(arg)
            index += 1
            continue
        if name in given:
            sys.exit(f"run.py: {name} is given more than once")
        given[name] = value
        index += 1
    if len(positional) != 1:
        sys.exit("run.py: give one RESULTS_DIR (python3 run.py --help)" if not positional else
                 f"run.py: one RESULTS_DIR, not {len(positional)}: {' '.join(positional)}")
    if "--checks-only" in given and "--skip-checks" in given:
        sys.exit("run.py: --checks-only and --skip-checks exclude each other")
    return positional[0], given


def main():
    results_dir, args = parse_arguments(sys.argv[1:])
    budget = args.get("--budget", 450.0)
    os.makedirs(results_dir, exist_ok=True)
    with open(os.path.join(HERE, "manifest.json")) as f:
        manifest = json.load(f)
    say(f"bundle of commit {manifest['commit']} made {manifest['created']}, PTX for {manifest['chip']}, "
        f"on {platform.node()} ({platform.machine()})")
    unpack_ptx()
    cuda = load_driver()
    tools = probe_tools()
    target = "gpu" if cuda else "sim"
    if not cuda:
        say("no NVIDIA driver (libcuda.so.1): checking the bundle on the GPU simulator instead")
    # Only the tile-model or profile parts: --calibrate-only, or --sweep / --profile asked for
    # without checks or benchmarks.
    models_only = "--calibrate-only" in args or (
        any(a in args for a in ("--sweep", "--profile")) and not any(a in args for a in ("--calibrate", "--bench", "--check", "--decisions")))
    if "--skip-checks" in args or models_only:
        say("checks skipped (" + ("tile models or profiles only" if models_only else "--skip-checks") + ")")
        checks, failures = [], 0
    else:
        check_pattern = args.get("--check")
        jobs = args.get("--jobs", min(8, os.cpu_count() or 1))
        checks, failures = run_checks(manifest, target, lambda label: check_pattern is None or check_pattern.search(label),
                                      max(1, jobs))
    pattern = args.get("--bench")
    known = {bench_label(b) for b in manifest["benchmarks"]}
    # A label of an example the bundle has rows of but not that row: DECISIONS names a row the
    # bundle no longer makes. (A bundle of some examples only, --only, lacks the others' rows.)
    timed_examples = {b["example"] for b in manifest["benchmarks"]}
    stale = sorted(label for label in decision_labels() - known if label.split(" [")[0] in timed_examples)
    if stale:
        say("decisions: rows the manifest lacks (DECISIONS is stale): " + "; ".join(stale))
    wanted_labels = decision_labels() if "--decisions" in args else None
    summary = {
        "device": None, "driver": None, "chip": manifest["chip"], "commit": manifest["commit"],
        "bundle_created": manifest["created"],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
        "check_target": target, "checks": checks,
        "checks_passed": sum(1 for c in checks if c["status"] == "bit-exact"),
        "checks_failed": failures,
        "checks_not_mapped": sum(1 for c in checks if c["status"].startswith("refused")),
        "copy_bandwidth": None, "benchmarks": [], "cuda_tools": tools,
    }
    if cuda and "--checks-only" not in args and not models_only:
        try:
            summary["copy_bandwidth"] = copy_bandwidth(cuda)
            say(f"copy bandwidth: {summary['copy_bandwidth'] / 1e9:.0f} GB/s (cuMemcpyDtoD, read + write)")
        except (RuntimeError, AttributeError) as e:
            say(f"copy bandwidth not measured: {e}")
        def selected(label):
            if wanted_labels is not None:
                return label in wanted_labels or (pattern is not None and bool(pattern.search(label)))
            return pattern is None or bool(pattern.search(label))

        summary["benchmarks"] = run_benchmarks(manifest, budget, summary["copy_bandwidth"], selected)
        summary["decisions"] = answer_decisions(summary["benchmarks"])
        for d in summary["decisions"]:
            if d["ratio"] is not None:
                say(f"decision: {d['row']} / {d['against']} = {d['ratio']:.3f}"
                    + (f" (target {d['target']}: {d['verdict']})" if d["target"] is not None else ""))
        describe_device(summary, next((r["device"] for r in summary["benchmarks"] if r.get("device")), None))
    elif not cuda:
        say("GPU benchmarks skipped: no NVIDIA driver on this machine")
    # The tile-model parts, each on the GPU only (the calibration first: the sweep scores it).
    model_parts = [
        ("--calibrate" in args or "--calibrate-only" in args, run_calibration,
         "calibration skipped: no NVIDIA driver on this machine (the tile models keep their built-in "
         "calibration, the measured H200 file)"),
        ("--sweep" in args, run_sweep,
         "sweep skipped: no NVIDIA driver on this machine (bench/tile_model_sweep.py compares the models with "
         "the simulator's cost report instead)"),
    ]
    for wanted, part, skipped in model_parts:
        if not wanted:
            continue
        if not cuda:
            say(skipped)
            continue
        device = part(manifest, results_dir, budget)
        if summary["device"] is None:
            describe_device(summary, device)
    if "--profile" in args:
        profile_pattern = args["--profile"]
        if cuda:
            summary["profiles"] = run_profiles(manifest, results_dir, budget, lambda label: profile_pattern.search(label),
                                               tools)
        else:
            say("profile skipped: no NVIDIA driver on this machine")
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20)
        if smi.returncode == 0 and smi.stdout.strip():
            summary["nvidia_smi"] = smi.stdout.strip()
            summary["driver"] = (summary["driver"] or "") + f" (nvidia-smi: {smi.stdout.strip()})"
    except (OSError, subprocess.TimeoutExpired):
        pass
    for row in summary["benchmarks"]:
        row.pop("device", None)
    with open(os.path.join(results_dir, "results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(results_dir, "results.md"), "w") as f:
        f.write(markdown(summary))
    say(f"wrote {results_dir}/results.json and results.md in {time.monotonic() - START:.0f} s")
    with open(os.path.join(results_dir, "log.txt"), "w") as f:
        f.write("\n".join(LOG) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
