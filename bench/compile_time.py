#!/usr/bin/env python3
"""Compile time of the issue 16 item 7 cases (tests/compile-time/*.mlir) through stencil-opt in
release: wall seconds per case and per pass (`--timing`), and the outcome (compiled, refused
with the reason, or killed at the time limit). Optionally a second binary (`--before`, e.g. a
build of an older commit) runs the same cases first, for a before/after table.

With `--examples` it times instead what issue 13 bounds by 1 s: every example compiled all the
way to PTX (`--emit=ptx`) at the GPU benchmark sizes (2-D 16384^2 T=50, 3-D 512^3 T=20, 1-D
2^16 T=512), through `gpu-map{strategy=auto}` (what `stencil-run` users get for a DOALL
program) and through the model-driven wavefront tiles
`poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto}` (the SOR-like programs' pipeline), at
32-bit `index` (what `stencil-run` compiles whenever the fields fit) and 64-bit (`--emit=ptx`'s
default); the least wall time of `--repeat` runs, the passes' share from `--timing`, the rest
being the way to PTX (MLIR's lowering and LLVM's NVPTX back end).

Usage: bench/compile_time.py [--examples [--repeat N]] [--binary PATH] [--before PATH] [--limit SECONDS] [--no-record]
  --binary  the stencil-opt to time (default: build the release binaries of this checkout)
  --before  another stencil-opt to time on the same cases, listed first
  --limit   kill a compilation after this many seconds (default 120)
"""

import glob
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import ROOT, build_release, record  # noqa: E402

# (name, input, pipeline): the targets of issue 16 item 7.
CASES = [
    ("30 applies, one time loop", "applies-30.mlir", "poly-schedule"),
    ("30 applies, mapped", "applies-30.mlir", "poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8}"),
    ("3 nested iterates", "nested-iterates-3.mlir", "poly-codegen"),
    ("3 nested iterates, scheduled", "nested-iterates-3.mlir", "poly-schedule{intra-balance=false},poly-codegen"),
    ("3-D 5 x 27-point +-10", "wide-27pt-3d.mlir", "poly-schedule,gpu-map"),
    ("3-D 5 x 27-point +-10, tiled", "wide-27pt-3d.mlir", "poly-schedule,poly-tile{sizes=8},gpu-map{staging=false}"),
]


def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def compile_case(binary, path, pipeline, limit, extra=()):
    """(wall seconds, outcome, [(pass, seconds)]) of one compilation, with `extra` arguments."""
    cmd = [binary, path, f"--pass-pipeline=builtin.module({pipeline})", "--timing", *extra, "-o", os.devnull]
    start = time.time()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return time.time() - start, f"killed after {limit} s", []
    wall = time.time() - start
    passes = [(name, float(secs)) for secs, name in re.findall(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)$",
                                                                 done.stderr, re.M) if name != "Total"]
    if done.returncode == 0:
        warning = re.search(r"warning: (.*)", done.stderr)
        return wall, "compiled" + (f" (warning: {warning.group(1)[:120]})" if warning else ""), passes
    error = re.search(r"error: (.*)", done.stderr)
    return wall, "refused: " + (error.group(1)[:160] if error else "failed"), passes


# --examples: the benchmark sizes by rank, and the two pipelines.
EXAMPLE_SIZES = {1: (65536, 512), 2: (16384, 50), 3: (512, 20)}
EXAMPLE_PIPELINES = [("auto", "gpu-map{strategy=auto}"),
                     ("wavefront auto", "poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto}")]


def example_params(path):
    """`--param` arguments at the benchmark sizes of the program's rank (its first field's)."""
    text = open(path).read()
    field = re.search(r"field<\[([^\]]*)\]", text)
    rank = len(field.group(1).split(",")) if field else 1
    space, steps = EXAMPLE_SIZES[min(rank, 3)]
    header = re.search(r"params\s*\[([^\]]*)\]", text)
    names = re.findall(r"(\w+)\s*>=", header.group(1)) if header else []
    return [f"--param={n}={steps if n == 'T' else space}" for n in names]


def time_examples(binary, repeat, limit, say):
    """The --examples table for `binary`; the slowest compilation that finished."""
    slowest = (0.0, "")
    say(f"  {'example':<20} {'pipeline':<15} {'index':>5} {'wall':>8} {'passes':>8} {'to PTX':>8}  outcome")
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        example = os.path.basename(path)[:-5]
        if example == "canonicalize-demo":
            continue
        for name, pipeline in EXAMPLE_PIPELINES:
            for width in (32, 64):
                extra = example_params(path) + ["--emit=ptx", f"--gpu-index-bitwidth={width}"]
                runs = [compile_case(binary, path, pipeline, limit, extra) for _ in range(repeat)]
                wall, outcome, passes = min(runs, key=lambda run: run[0])
                if not outcome.startswith("compiled"):
                    say(f"  {example:<20} {name:<15} {width:>5} {'':>8} {'':>8} {'':>8}  {outcome[:100]}")
                    continue
                in_passes = sum(secs for _, secs in passes)
                say(f"  {example:<20} {name:<15} {width:>5} {wall:>7.2f}s {in_passes:>7.2f}s {wall - in_passes:>7.2f}s"
                    "  compiled")
                slowest = max(slowest, (wall, f"{example} {name} {width}-bit"))
    say(f"  slowest: {slowest[0]:.2f} s ({slowest[1]}); issue 13's bound: 1 s per example")


def main():
    binary = arg("--binary") or build_release().replace("stencil-run", "stencil-opt")
    if "--examples" in sys.argv:
        repeat = int(arg("--repeat", "3"))
        limit = float(arg("--limit", "120"))
        lines = []

        def say_line(line=""):
            print(line, flush=True)
            lines.append(line)

        before = arg("--before")
        for label, build in ([("before", before)] if before else []) + [("after", binary)]:
            say_line(f"{label}: {os.path.relpath(build, ROOT) if build.startswith(ROOT) else build}")
            time_examples(build, repeat, limit, say_line)
            say_line()
        if "--no-record" not in sys.argv:
            cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                        if line.startswith("model name")), "unknown")
            record("bench/compile_time.py --examples (stencil-opt EXAMPLE --param … --pass-pipeline=… --emit=ptx"
                   " --timing, release; wall: least of the runs; passes: --timing's sum; to PTX: the rest)",
                   [f"machine: {cpu}, {os.cpu_count()} cores (wall times are upper bounds)",
                    f"runs per compilation: {repeat}"], lines, "compile-time-examples")
        return
    before = arg("--before")
    limit = float(arg("--limit", "120"))
    lines = []

    def say(line=""):
        print(line, flush=True)
        lines.append(line)

    for label, build in ([("before", before)] if before else []) + [("after", binary)]:
        say(f"{label}: {os.path.relpath(build, ROOT) if build.startswith(ROOT) else build}")
        for name, file, pipeline in CASES:
            wall, outcome, passes = compile_case(build, os.path.join(ROOT, "tests", "compile-time", file), pipeline,
                                                 limit)
            say(f"  {name:<32} {wall:>7.2f} s  {pipeline}")
            say(f"  {'':<32} {outcome}")
            if passes:
                say(f"  {'':<32} passes: {', '.join(f'{name} {secs}' for name, secs in passes)}")
        say()
    if "--no-record" not in sys.argv:
        cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                   "unknown")
        record("bench/compile_time.py (stencil-opt --timing on tests/compile-time/*.mlir, release, wall seconds)",
               [f"machine: {cpu}, {os.cpu_count()} cores (shared with other builds: wall times are upper bounds)",
                f"limit: {limit:.0f} s per compilation"], lines, "compile-time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
