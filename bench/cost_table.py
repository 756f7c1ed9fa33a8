#!/usr/bin/env python3
"""The GPU cost model without a GPU (docs/cost-model.md): the example suite of bench/gpu.py on the
GPU simulator with `stencil-run --target sim --cost --check --json`, naive `gpu-map{naive}`
against tiled `gpu-map` (tiles staged in shared memory, and on global memory with
`staging=false`), with 64- and 32-bit `index` in the kernels. Per run: warp-instructions per
point update, lane utilisation, global bytes per update (requested, and the DRAM estimate: distinct
32-byte sectors per launch), ptxas registers and occupancy on the H100
model, and the estimated GCells/s — at the simulated size (launch overhead and partly idle GPU
included) and in the large-problem limit (the same per-update work on a GPU full of blocks) —
with the ratios tiled / naive. Every run is checked bit-exactly against the reference.

Sizes are the simulator's (2-D 64^2 T=8, 3-D 16^3 T=4): per-update figures include boundary
effects (halo loads of partial tiles, wavefronts that fill part of the GPU), so they are higher
than at the sizes bench/gpu.py times.

Usage: bench/cost_table.py [--only NAME[,NAME...]] [--large | --defaults] [--widths 64,32] [--json FILE]
                           [--mapping NAME=PIPELINE ...] [--before BINARY] [--record SUFFIX]
  --large   2-D 256^2 T=16, 3-D 32^3 T=8: fewer boundary effects, slower (minutes per example)
  --defaults  the mappings users get instead of the fixed tiles: `gpu-map{strategy=auto}` and the
            wavefront tiles `poly-tile{sizes=auto},gpu-map{block=auto}` with the sizes, block and
            staging the tile model chooses at the GPU benchmark sizes (16384^2 T=50, 512^3 T=20),
            pinned and simulated at 2-D 512^2 T=50, 3-D 64^3 T=20 (about ten minutes)
  --widths  the index widths to run (default 64,32)
  --json F  also write every run's cost report to F (for bench/model_vs_gpu.py)
  --mapping NAME=PIPELINE  (repeatable) the naive kernel and these mappings instead of the built-in
            list, e.g. --mapping 'auto=builtin.module(gpu-map{strategy=auto})' (cleaned like the others)
  --before BINARY  also run every mapping but naive with another stencil-run (an older build, e.g.
            one built in a worktree of an older commit) and print its row under the current one,
            marked [before]: a kernel change's cost, before and after, in one table
  --record SUFFIX  record as bench/results/DATE-SUFFIX.txt (default: cost, cost-large, cost-defaults)
"""

import json
import os
import re
import platform
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import BLOCKS, ROOT, SUITE, build_release, find_ptxas, only_arg, params_of, record, stencil_run  # noqa: E402

SIZES = {2: (64, 8), 3: (16, 4)}
LARGE_SIZES = {2: (256, 16), 3: (32, 8)}
# Staged tiles of 16 (2-D) and 4 (3-D) are the largest whose footprint fits 48 KiB of shared
# memory; on global memory the H100's best tiles so far (bench/results/2026-11-25-h100) are 32
# (2-D) and 8 (3-D), listed beside the staged size.
STAGED = {2: 16, 3: 4}
GLOBAL = {2: [16, 32], 3: [4, 8]}
WIDTHS = [64, 32]
# --defaults: the benchmark sizes the tile model chooses for (bench/gpu.py's), and the smaller
# sizes the chosen layout is simulated at (large enough for full tiles of the chosen sizes).
BENCH_SIZES = {2: (16384, 50), 3: (512, 20)}
DEFAULT_SIZES = {2: (512, 50), 3: (64, 20)}
AUTO_WAVEFRONT = "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})"


def cleaned(pipeline):
    """`pipeline` followed by `canonicalize,cse,loop-invariant-code-motion{speculate=true},cse`: the simulator
    counts the IR as it is, and the way to PTX (MLIR, then LLVM's NVPTX back end at -O3) removes
    at least the redundancy these passes remove, so every mapping is counted after them
    (docs/cost-model.md)."""
    assert pipeline.startswith("builtin.module(") and pipeline.endswith(")")
    return pipeline[:-1] + ",canonicalize,cse,loop-invariant-code-motion{speculate=true},cse)"


def configs(dims):
    """naive; overlapped temporal blocking (DOALL programs; 3-D also with 96 KiB of shared
    memory); streaming temporal blocking (2-D/3-D DOALL programs, 48 and 96 KiB, and with
    prefetched planes); the thesis'
    wavefront tiles staged and on global memory; each followed by
    `canonicalize,cse,loop-invariant-code-motion{speculate=true},cse` (`cleaned`)."""
    tiled = "poly-schedule,poly-tile{{sizes={}}},gpu-map{{block=" + BLOCKS[dims]
    out = [("naive", "builtin.module(gpu-map{naive})"),
           ("overlapped", "builtin.module(gpu-map{strategy=overlapped})")]
    if dims == 3:
        out.append(("overlapped 96K", "builtin.module(gpu-map{strategy=overlapped shared-memory=98304})"))
    out.append(("streaming", "builtin.module(gpu-map{strategy=streaming})"))
    out.append(("streaming 96K", "builtin.module(gpu-map{strategy=streaming shared-memory=98304})"))
    out.append(("streaming prefetch", "builtin.module(gpu-map{strategy=streaming prefetch=true})"))
    out.append((f"tiled {STAGED[dims]} shared", "builtin.module(" + tiled.format(STAGED[dims]) + " staging=true})"))
    for t in GLOBAL[dims]:
        out.append((f"tiled {t} global", "builtin.module(" + tiled.format(t) + " staging=false})"))
    return [(name, cleaned(pipeline)) for name, pipeline in out]


def chosen_layout(example, dims):
    """The wavefront layout `AUTO_WAVEFRONT` chooses at the benchmark sizes, as an explicit
    pipeline (`poly-tile{sizes=…},gpu-map{block=… staging=…}`) and a short name, read from the
    lowered host function's `stencil.gpu_mapping`; None and the reason when it maps nothing."""
    opt = os.path.join(os.path.dirname(build_release()), "stencil-opt")
    space, steps = BENCH_SIZES[dims]
    params = params_of(os.path.join(ROOT, "examples", example + ".mlir"), space, steps)
    done = subprocess.run([opt, os.path.join(ROOT, "examples", example + ".mlir"), *params,
                           f"--pass-pipeline={AUTO_WAVEFRONT}"], capture_output=True, text=True)
    mapping = re.search(r"stencil\.gpu_mapping = \{([^}]*)\}", done.stdout)
    if done.returncode != 0 or not mapping:
        return None, (done.stderr.strip().splitlines() or ["no mapping"])[0]
    fields = mapping.group(1)
    tile = re.search(r"tile = \[([0-9, ]*)\]", fields).group(1).replace(" ", "")
    block = re.search(r"block = \[([0-9, ]*)\]", fields).group(1).replace(" ", "")
    staging = re.search(r"staging = (true|false)", fields).group(1)
    pipeline = (f"builtin.module(poly-schedule,poly-tile{{sizes={tile}}},"
                f"gpu-map{{block={block} staging={staging}}})")
    where = "shared" if staging == "true" else "global"
    return (f"wavefront auto {tile.replace(',', 'x')} on {block.replace(',', 'x')} {where}", pipeline), None


def default_configs(example, dims):
    """naive, `gpu-map{strategy=auto}` (the strategy it takes is in the report) and the wavefront
    tiles of `AUTO_WAVEFRONT` at the benchmark sizes (`chosen_layout`), each `cleaned`."""
    out = [("naive", "builtin.module(gpu-map{naive})"), ("strategy=auto", "builtin.module(gpu-map{strategy=auto})")]
    layout, error = chosen_layout(example, dims)
    if layout is None:
        print(f"{example}: no wavefront layout: {error}", file=sys.stderr)
    else:
        out.append(layout)
    return [(name, cleaned(pipeline)) for name, pipeline in out]


def ptxas_version():
    """`ptxas --version`'s last line, ptxas found as stencil-run finds it (`find_ptxas`)."""
    path = find_ptxas()
    if not path:
        return "not found (registers unknown)"
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    return out[-1] if out else path


def summary(report):
    """The figures of one run, from `target_stats.sim.cost`."""
    cost = report["target_stats"]["sim"]["cost"]
    per = cost["per_update"]
    kernels = cost["kernels"]
    regs = ",".join("?" if k["registers"] is None else str(k["registers"]) for k in kernels)
    occupancy = ",".join(f"{100 * k['occupancy']['fraction']:.0f}" for k in kernels)
    util = cost["total"]["lane_utilisation"]
    return {
        "warp": per["warp_instructions"],
        "util": util,
        "bytes": per["global_bytes"],
        "dram": per.get("dram_bytes"),
        "regs": regs,
        "occupancy": occupancy,
        "gcells": cost["gcells_per_second"],
        "filled": cost["filled_gcells_per_second"],
        "check": "bit-exact" if (report.get("check") or {}).get("passed") else "FAILED",
    }


def ratio(value, base):
    """`value / base` to 3 significant digits (the 3-D ratios are in the thousandths)."""
    return f"{value / base:.3g}" if value is not None and base else "-"


def given_mappings():
    """The `--mapping NAME=PIPELINE` pairs (each `cleaned`) after naive, or None without any."""
    pairs = [sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--mapping"]
    if not pairs:
        return None
    out = [("naive", cleaned("builtin.module(gpu-map{naive})"))]
    for pair in pairs:
        name, _, pipeline = pair.partition("=")
        if not name or not pipeline.startswith("builtin.module("):
            sys.exit(f"--mapping {pair!r}: give NAME=builtin.module(...)")
        out.append((name, cleaned(pipeline)))
    return out


def option_value(flag):
    """The argument after `flag`, or None."""
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv[:-1] else None


def main():
    global SIZES, WIDTHS
    only = only_arg()
    defaults = "--defaults" in sys.argv
    if "--large" in sys.argv:
        SIZES = LARGE_SIZES
    if defaults:
        SIZES = DEFAULT_SIZES
    if "--widths" in sys.argv:
        WIDTHS = [int(w) for w in sys.argv[sys.argv.index("--widths") + 1].split(",")]
    binary = build_release()
    before = option_value("--before")
    if before and not os.access(before, os.X_OK):
        sys.exit(f"--before {before}: not an executable")
    given = given_mappings()
    lines = []
    # --json FILE: every run's configuration and cost report (for calibrating the model against
    # GPU measurements, docs/cost-model.md).
    dump = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    runs = []

    def say(line=""):
        print(line, flush=True)
        lines.append(line)

    width_of_mapping = 40 if defaults or given else 16
    header = (f"{'example':<20} {'mapping':<{width_of_mapping}} {'idx':>3} {'warp-i/upd':>10} {'lane':>5} {'gl B/upd':>8} {'DRAM B':>6} "
              f"{'regs':>7} {'occ %':>7} {'GCells/s':>8} {'limit':>7} {'x warp-i':>8} {'x GC/s':>7} "
              f"{'x limit':>7}  check")
    say(header)
    for example, dims in SUITE:
        if only and example not in only:
            continue
        space, steps = SIZES[dims]
        params = params_of(os.path.join(ROOT, "examples", example + ".mlir"), space, steps)
        naive = {}
        rows = given or (default_configs(example, dims) if defaults else configs(dims))
        runs_of = []
        for name, pipeline in rows:
            runs_of.append((name, pipeline, binary, ""))
            if before and name != "naive":
                runs_of.append((name, pipeline, before, " [before]"))
        for name, pipeline, runner, mark in runs_of:
            for width in WIDTHS:
                options = ["--target=sim", "--cost", "--check", f"--gpu-index-bitwidth={width}"]
                report, error = stencil_run(runner, example, params, pipeline, options)
                if report is None:
                    say(f"{example:<20} {name + mark:<{width_of_mapping}} {width:>3} {'-':>10}  {error}")
                    continue
                s = summary(report)
                runs.append({"example": example, "mapping": name + mark, "index_bitwidth": width, "params": params,
                             "pipeline": pipeline, "cost": report["target_stats"]["sim"]["cost"]})
                if name == "naive":
                    naive[width] = s
                base = naive.get(width)
                mapping = report.get("mapping", {})
                strategy = mapping.get("strategy") if name in ("strategy=auto", "auto") else None
                if strategy == "wavefront" and mapping.get("tile"):
                    # The tiles auto chose itself (an SOR-like program): which ones.
                    where = "global" if mapping.get("staging") is False else "shared"
                    strategy += (" " + "x".join(map(str, mapping["tile"])) + " on "
                                 + "x".join(map(str, mapping.get("block", []))) + " " + where)
                shown = (f"{name} ({strategy})" if strategy else name) + mark
                say(f"{example:<20} {shown:<{width_of_mapping}} {width:>3} {s['warp']:>10.2f} {100 * s['util']:>4.0f}% "
                    f"{s['bytes']:>8.2f} {s['dram']:>6.2f} {s['regs']:>7} {s['occupancy']:>7} {s['gcells']:>8.3f} "
                    f"{s['filled']:>7.2f} {ratio(s['warp'], base and base['warp']):>8} "
                    f"{ratio(s['gcells'], base and base['gcells']):>7} {ratio(s['filled'], base and base['filled']):>7}"
                    f"  {s['check']}")
        say()
    if dump:
        with open(dump, "w") as f:
            json.dump({"sizes": SIZES, "runs": runs}, f, indent=1)

    details = [
        f"machine: no GPU: simulator + ptxas ({ptxas_version()}); {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores",
        f"sizes: 2-D {SIZES[2][0]}^2 T={SIZES[2][1]}, 3-D {SIZES[3][0]}^3 T={SIZES[3][1]}; f64; "
        + (f"wavefront layouts as the tile model chooses them at 2-D {BENCH_SIZES[2][0]}^2 T={BENCH_SIZES[2][1]}, "
           f"3-D {BENCH_SIZES[3][0]}^3 T={BENCH_SIZES[3][1]}" if defaults else
           f"blocks {BLOCKS[2]} (2-D), {BLOCKS[3]} (3-D)"),
        "device model: H100 SXM5 (stencil_runtime::cost::DeviceModel::h100, docs/cost-model.md)",
        "every pipeline ends with canonicalize,cse,loop-invariant-code-motion{speculate=true},cse (the way to PTX removes"
        " at least that redundancy; speculate: also out of the ifs in loops, as LLVM hoists safe-to-speculate code;"
        " since 2026-11-28, before that without it)",
        "columns: warp-instructions and global bytes (read + written, every access, no caches) per point update;"
        " DRAM B: the estimated DRAM bytes per update (distinct 32-byte sectors per launch, what the estimate charges);"
        " lane utilisation; ptxas registers and occupancy (% of 64 warps per SM) of each kernel; estimated"
        " GCells/s at the simulated size (launch overhead and idle SMs included) and in the large-problem limit;"
        " x: ratio to naive at the same index width",
        "small sizes: per-update figures include boundary effects (partial tiles, wavefronts that fill part of"
        " the GPU), and at this size launch overhead dominates the estimated GCells/s",
    ]
    if before:
        details.append(f"[before]: the same runs with {before}")
    command = "bench/cost_table.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    record(f"{command.strip()} (stencil-run --target sim --cost --check --json --gpu-index-bitwidth=…)",
           details, lines,
           option_value("--record") or ("cost-defaults" if defaults else "cost-large" if "--large" in sys.argv else "cost"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
