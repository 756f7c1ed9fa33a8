#!/usr/bin/env python3
"""Compile time of the issue 16 item 7 cases (tests/compile-time/*.mlir) through stencil-opt in
release: wall seconds per case and per pass (`--timing`), and the outcome (compiled, refused
with the reason, or killed at the time limit). Optionally a second binary (`--before`, e.g. a
build of an older commit) runs the same cases first, for a before/after table.

Usage: bench/compile_time.py [--binary PATH] [--before PATH] [--limit SECONDS] [--no-record]
  --binary  the stencil-opt to time (default: build the release binaries of this checkout)
  --before  another stencil-opt to time on the same cases, listed first
  --limit   kill a compilation after this many seconds (default 120)
"""

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


def compile_case(binary, path, pipeline, limit):
    """(wall seconds, outcome, per-pass seconds) of one compilation."""
    cmd = [binary, path, f"--pass-pipeline=builtin.module({pipeline})", "--timing", "-o", os.devnull]
    start = time.time()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return time.time() - start, f"killed after {limit} s", ""
    wall = time.time() - start
    passes = ", ".join(f"{name} {secs}" for secs, name in re.findall(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)$",
                                                                      done.stderr, re.M) if name != "Total")
    if done.returncode == 0:
        warning = re.search(r"warning: (.*)", done.stderr)
        return wall, "compiled" + (f" (warning: {warning.group(1)[:120]})" if warning else ""), passes
    error = re.search(r"error: (.*)", done.stderr)
    return wall, "refused: " + (error.group(1)[:160] if error else "failed"), passes


def main():
    binary = arg("--binary") or build_release().replace("stencil-run", "stencil-opt")
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
                say(f"  {'':<32} passes: {passes}")
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
