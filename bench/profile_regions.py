#!/usr/bin/env python3
"""Where a lowered program's kernel warp-instructions go, by loop and branch.

Usage: bench/profile_regions.py LOWERED.mlir --source PROGRAM.mlir [stencil-run arguments, e.g. --param N=1026]

Runs `stencil-run LOWERED.mlir --target sim --profile --json` (target/release/stencil-run,
`cargo build --release -p stencil-driver --no-default-features --bin stencil-run`) and sums the
per-op profile over every enclosing `{`-block of the lowered file (loops, branches, kernels),
printing the regions with at least 2 % of the warp-instructions, per point update too, and the
share of lanes busy in each region's warp-instructions (its thread-instructions over 32 x its
warp-instructions: e.g. the full tiles' lane utilisation). Write
LOWERED.mlir with `stencil-opt PROGRAM --pass-pipeline=... -o LOWERED.mlir` (docs/cost-model.md,
"Where they go").

The point updates come from running PROGRAM.mlir (the unlowered program, on the reference
interpreter, with the same arguments): a lowered module's own run counts the stores to its
fields, which for staged kernels are the write-backs, far fewer than the updates.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def enclosing(lines, lineno):
    """The `{`-blocks around line `lineno` (1-based) up to its gpu.func, outermost first, by
    indentation: (line, text) each."""
    i = lineno - 1
    indent = len(lines[i]) - len(lines[i].lstrip())
    chain = []
    for j in range(i - 1, -1, -1):
        text = lines[j]
        depth = len(text) - len(text.lstrip())
        if text.strip() and depth < indent and text.rstrip().endswith("{"):
            chain.append((j + 1, text.strip()[:70]))
            indent = depth
            if "gpu.func" in text:
                break
    return list(reversed(chain))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    args = sys.argv[2:]
    if "--source" not in args or args.index("--source") + 1 >= len(args):
        sys.exit(__doc__)
    at = args.index("--source")
    source = args[at + 1]
    args = args[:at] + args[at + 2:]
    path = sys.argv[1]
    lines = open(path).read().split("\n")
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    run = os.path.join(target, "release", "stencil-run")
    out = subprocess.run([run, path, "--target", "sim", "--profile", "--json", *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(out.stderr.strip() or out.stdout.strip())
    report = json.loads(out.stdout)
    profile = report["target_stats"]["sim"]["profile"]
    total = sum(p["warp_instructions"] for p in profile)
    reference = subprocess.run([run, source, "--json", *args], capture_output=True, text=True)
    if reference.returncode != 0:
        sys.exit(reference.stderr.strip() or reference.stdout.strip())
    updates = json.loads(reference.stdout)["point_updates"]
    sums, lanes = {}, {}
    for p in profile:
        chain = enclosing(lines, int(p["location"].rsplit(":", 2)[1]))
        for depth in range(1, len(chain) + 1):
            key = tuple(chain[:depth])
            sums[key] = sums.get(key, 0) + p["warp_instructions"]
            lanes[key] = lanes.get(key, 0) + p.get("thread_instructions", 0)
    print(f"total warp-instructions {total}, point updates {updates}, per update {total / updates:.2f}")
    print("  share   per update  lanes  region")
    for key, n in sorted(sums.items(), key=lambda kv: [line for line, _ in kv[0]]):
        if n >= 0.02 * total:
            busy = 100 * lanes[key] / (32 * n)
            print(f"{100 * n / total:6.1f} %  {n / updates:6.2f}/upd  {busy:5.1f} %  " + "  " * len(key)
                  + f"L{key[-1][0]}: {key[-1][1]}")


if __name__ == "__main__":
    main()
