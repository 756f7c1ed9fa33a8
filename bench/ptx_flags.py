#!/usr/bin/env python3
"""What a stencil-opt code-generator flag does to the kernels, without a GPU: registers, spilled
bytes and SASS instructions of each kernel of the default mappings, PTX compiled by
`stencil-opt --emit=ptx` without and with the flag, assembled by `ptxas -arch=sm_90 -v`.

SASS instructions are counted statically (an sm_90 instruction is 16 bytes: the size of each
kernel's `.text` section in the cubin): code size, not instructions executed — ptxas unrolls and
schedules by its register budget, so a larger kernel may run fewer instructions, and only a GPU
says which is faster.

Usage: bench/ptx_flags.py [--width 32|64] [--base FLAG,...] --flag FLAG[,FLAG...] [--record NAME]
  --width   `--gpu-index-bitwidth` (default 32, the GPU bundle's)
  --base    flags both compilations get (e.g. --loop-strength-reduction)
  --flag    the flags compared (e.g. --short-pointers=false)
  --record  also write bench/results/DATE-NAME.txt (several runs append to one file of the day)
"""
import datetime
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import ROOT, find_ptxas  # noqa: E402

AUTO = "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto},canonicalize,cse)"
STRATEGY = "builtin.module(gpu-map{strategy=auto},canonicalize,cse)"
BENCH_2D = "--param=N=16384 --param=M=16384 --param=T=50"
BENCH_3D = "--param=N=512 --param=M=512 --param=L=512 --param=T=20"
# (example, pipeline, parameters): the mappings users get (strategy=auto, and the wavefront
# tiles the model chooses at the GPU bundle's sizes), and the staged tiles of the cost table.
CASES = [
    ("jacobi-2d-5pt", STRATEGY, ""),
    ("jacobi-2d-5pt", AUTO, BENCH_2D),
    ("heat-2d", STRATEGY, ""),
    ("sor-2d-5pt", AUTO, BENCH_2D),
    ("sor-1d-3pt", AUTO, "--param=N=2097152 --param=T=512"),
    ("jacobi-3d-7pt", STRATEGY, ""),
    ("jacobi-3d-7pt", AUTO, BENCH_3D),
    ("polybench-heat-3d", AUTO, "--param=N=512 --param=T=20"),
    ("sor-3d-7pt", AUTO, BENCH_3D),
    ("jacobi-3d-27pt", STRATEGY, ""),
    ("polybench-fdtd-2d", AUTO, ""),
    ("sor-2d-5pt", "builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8},canonicalize,cse)", ""),
    ("jacobi-3d-7pt", "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=32,4,2},canonicalize,cse)", ""),
]


def sass_instructions(cubin):
    """Per kernel, the instructions of its `.text.KERNEL` section (16 bytes each on sm_90)."""
    data = open(cubin, "rb").read()
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = sections[shstrndx][4]
    out = {}
    for section in sections:
        start = names + section[0]
        name = data[start:data.index(b"\0", start)].decode()
        if name.startswith(".text."):
            out[name[len(".text."):]] = section[5] // 16
    return out


def compile_kernels(opt, ptxas, tmp, example, pipeline, params, width, flags):
    """[(kernel, registers, spilled bytes, SASS instructions)] and the PTX's lines, or None and
    the error."""
    ptx, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
    done = subprocess.run([opt, os.path.join(ROOT, "examples", example + ".mlir"), *params.split(),
                           f"--pass-pipeline={pipeline}", "--emit=ptx", f"--gpu-index-bitwidth={width}",
                           "-o", ptx, *flags], capture_output=True, text=True)
    if done.returncode:
        return None, done.stderr.strip().splitlines()[0] if done.stderr.strip() else "stencil-opt failed"
    done = subprocess.run([ptxas, "-arch=sm_90", "-v", ptx, "-o", cubin], capture_output=True, text=True)
    if done.returncode:
        return None, done.stderr.strip().splitlines()[0] if done.stderr.strip() else "ptxas failed"
    found = re.findall(r"Compiling entry function '(\w+)'.*?(\d+) bytes spill stores.*?Used (\d+) registers",
                       done.stderr, re.S)
    sass = sass_instructions(cubin)
    lines = sum(1 for line in open(ptx) if line.strip() and not line.strip().startswith("//"))
    return [(k, int(regs), int(spill), sass.get(k, 0)) for k, spill, regs in found], lines


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    if "--flag" not in sys.argv:
        sys.exit(__doc__)
    width = int(option("--width", "32"))
    base = [f for f in option("--base", "").split(",") if f]
    flag = [f for f in option("--flag", "").split(",") if f]
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "stencil-driver", "--bin", "stencil-opt"], cwd=ROOT,
                   check=True)
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    opt = os.path.join(target if os.path.isabs(target) else os.path.join(ROOT, target), "release", "stencil-opt")
    ptxas = find_ptxas()
    if not ptxas:
        sys.exit("ptxas not found (PTXAS, PATH or `pip install nvidia-cuda-nvcc-cu12`)")
    tmp = os.path.join(target if os.path.isabs(target) else os.path.join(ROOT, target), "ptx-flags")
    os.makedirs(tmp, exist_ok=True)
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    lines = [f"# bench/ptx_flags.py {' '.join(sys.argv[1:])}",
             f"# {width}-bit index, sm_90, ptxas {version}; base flags: {' '.join(base) or 'none'}; "
             f"compared: {' '.join(flag)}",
             "# per kernel: registers, spilled bytes, static SASS instructions (code size), without -> with; "
             "PTX lines of the module",
             f"{'example':<18} {'pipeline':<44} {'kernel':>6} {'registers':>10} {'spill B':>8} {'SASS':>13} "
             f"{'':>6} {'PTX lines':>11}"]
    print("\n".join(lines), flush=True)
    for example, pipeline, params in CASES:
        label = ("wavefront auto (bench sizes)" if pipeline == AUTO else "strategy=auto" if pipeline == STRATEGY
                 else pipeline[len("builtin.module("):].split(",canonicalize")[0].replace("poly-schedule,", ""))
        without, lines_a = compile_kernels(opt, ptxas, tmp, example, pipeline, params, width, base)
        with_flag, lines_b = compile_kernels(opt, ptxas, tmp, example, pipeline, params, width, base + flag)
        if without is None or with_flag is None:
            line = f"{example:<18} {label:<44} failed: {lines_a if without is None else lines_b}"
            print(line, flush=True)
            lines.append(line)
            continue
        for (kernel, r1, s1, i1), (_, r2, s2, i2) in zip(without, with_flag):
            change = f"({(i2 - i1) / max(i1, 1) * 100:+.0f}%)"
            line = (f"{example:<18} {label:<44} {kernel.rsplit('_', 1)[-1]:>6} {r1:>4} -> {r2:<3} {s1:>3} -> {s2:<3}"
                    f" {i1:>5} -> {i2:<5} {change:>6} {lines_a:>4} -> {lines_b}")
            print(line, flush=True)
            lines.append(line)
    name = option("--record", None)
    if name:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        now = datetime.datetime.now(datetime.timezone.utc)
        out = os.path.join(ROOT, "bench", "results", f"{now:%Y-%m-%d}-{name}.txt")
        with open(out, "a") as f:
            f.write(f"# {now:%Y-%m-%d %H:%M} UTC, commit {commit}, no GPU\n" + "\n".join(lines) + "\n\n")
        print(f"recorded in {os.path.relpath(out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
