#!/usr/bin/env python3
"""The machine code of the kernels' innermost loops, without a GPU: per kernel of a mapping, each
innermost loop of its SASS (sm_90, as ptxas assembles the PTX `stencil-opt --emit=ptx` writes,
disassembled by nvdisasm) with its instruction count and what the instructions do.

The count is SASS instructions per iteration of the loop. Where a thread updates one point per
iteration of its innermost loop (the point loops of the overlapped, streaming and naive
kernels; the wavefront kernels' intra-tile step loops) and ptxas did not unroll it, that is per
point update on that path; an unrolled loop holds several points (its `fp` count is a multiple of
one point's: divide by it). Closer to what the GPU issues than the cost report's IR operations
(docs/cost-model.md: the model counts IR ops, not SASS), and static: a loop's branches may skip
part of it, and nothing here says how often each loop runs.

With `--before`, each new loop is paired with an old loop of the same kernel doing the same
floating-point and memory work (the closest in size); the pairing is a guess where unrolling
changed (then the classes differ), so the old loop's classes are printed beside it, and old
loops left unpaired are listed as `gone`.

A loop is the code between a backward branch and its target; innermost: no other backward
branch inside it. Classes: `mem` loads and stores (shared LDS/STS, global LDG/STG, constant
LDC), `fp` floating point (D*/F* arithmetic, MUFU), `int` integer and address arithmetic (IMAD,
LEA, IADD3, VIADD, SHF, LOP3, ...), `ctl` compares, predicates and branches, `other` the rest
(moves, barriers, ...).

nvdisasm comes from $NVDISASM, PATH, or the PyPI wheel nvidia-cuda-nvdisasm (install with
`python3 -m pip install --user nvidia-cuda-nvdisasm`); ptxas as bench/gpu.py finds it.

Usage: bench/sass_loops.py [--before OLD_STENCIL_OPT] [--only EXAMPLE,...] [--flags FLAG,...] [--record NAME]
  --before  also compile with this stencil-opt and show both counts (old -> new)
  --flags   extra stencil-opt flags for both (e.g. --short-pointers=false)
  --record  also write bench/results/DATE-NAME.txt
"""
import datetime
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import ROOT, find_ptxas  # noqa: E402

STRATEGY = "builtin.module(gpu-map{strategy=auto},canonicalize,cse)"
WAVEFRONT = "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto},canonicalize,cse)"
STREAMING = "builtin.module(gpu-map{strategy=streaming prefetch=true occupancy=model},canonicalize,cse)"
NAIVE = "builtin.module(gpu-map{naive},canonicalize,cse)"
BENCH_2D = "--param=N=16384 --param=M=16384 --param=T=50"
BENCH_3D = "--param=N=512 --param=M=512 --param=L=512 --param=T=20"
HEAT_3D = "--param=N=512 --param=T=20"
# The mappings of the GPU bundle's benchmark rows, at its sizes, 32-bit index.
CASES = [
    ("jacobi-2d-5pt", "auto", STRATEGY, BENCH_2D),
    ("jacobi-2d-5pt", "naive", NAIVE, BENCH_2D),
    ("heat-2d", "auto", STRATEGY, BENCH_2D),
    ("sor-2d-5pt", "wavefront auto", WAVEFRONT, BENCH_2D),
    ("jacobi-3d-7pt", "auto", STRATEGY, BENCH_3D),
    ("jacobi-3d-7pt", "naive", NAIVE, BENCH_3D),
    ("jacobi-3d-27pt", "auto", STRATEGY, BENCH_3D),
    ("polybench-heat-3d", "auto", STRATEGY, HEAT_3D),
    ("polybench-heat-3d", "streaming prefetch occupancy", STREAMING, HEAT_3D),
    ("polybench-heat-3d", "naive", NAIVE, HEAT_3D),
    ("sor-3d-7pt", "wavefront auto", WAVEFRONT, BENCH_3D),
]

CLASSES = [
    ("mem", re.compile(r"^(LDS|STS|LDG|STG|LDC|LDL|STL|LD|ST|ATOMS|RED)")),
    ("fp", re.compile(r"^(D(ADD|MUL|FMA|SETP|MNMX)|F(ADD|MUL|FMA|SETP|MNMX|CHK)|MUFU|F2F|I2F|F2I)")),
    ("ctl", re.compile(r"^(ISETP|PLOP3|P2R|R2P|BRA|BSSY|BSYNC|EXIT|CALL|RET|WARPSYNC|VOTE|UISETP|UPLOP3)")),
    ("int", re.compile(r"^(IMAD|LEA|IADD3|VIADD|SHF|LOP3|IABS|IMNMX|VIMNMX|SEL|FLO|POPC|PRMT|SGXT|BMSK|U)")),
]


def find_nvdisasm():
    """nvdisasm: $NVDISASM, PATH, or a PyPI wheel's (any CUDA major version)."""
    if os.environ.get("NVDISASM"):
        return os.environ["NVDISASM"]
    if shutil.which("nvdisasm"):
        return shutil.which("nvdisasm")
    try:
        import nvidia  # noqa: F401 (a namespace package: the wheels' common root)
        for root in nvidia.__path__:
            for path in sorted(glob.glob(os.path.join(root, "**", "bin", "nvdisasm"), recursive=True)):
                return path
    except ImportError:
        pass
    sys.exit("no nvdisasm: set NVDISASM, put it on PATH, or `python3 -m pip install --user nvidia-cuda-nvdisasm`")


def instructions(sass):
    """[(kernel, address, text)] and {label: address} of nvdisasm's output."""
    out, labels, pending, kernel = [], {}, [], None
    for line in sass.splitlines():
        s = line.strip()
        m = re.match(r"\.text\.(\S+):", s)
        if m:
            kernel = m.group(1)
            continue
        m = re.match(r"\.(L_x_\d+):", s)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", s)
        if m:
            address = int(m.group(1), 16)
            for label in pending:
                labels[(kernel, label)] = address
            pending = []
            out.append((kernel, address, m.group(2)))
    return out, labels


def opcode(text):
    """The instruction's opcode without its predicate guard and modifiers."""
    text = re.sub(r"^@!?U?P[T0-9]+\s+", "", text)
    return text.split()[0].split(".")[0] if text.split() else ""


def innermost_loops(sass):
    """Per kernel, [(start, end, [opcodes])] of its innermost loops."""
    ins, labels = instructions(sass)
    loops = []
    for kernel, address, text in ins:
        m = re.search(r"BRA\b.*`\(\.(L_x_\d+)\)", text)
        target = labels.get((kernel, m.group(1))) if m else None
        if target is not None and target <= address:
            loops.append((kernel, target, address))
    inner = [(k, s, e) for (k, s, e) in loops
             if not any(k2 == k and (s2, e2) != (s, e) and s <= s2 and e2 <= e for (k2, s2, e2) in loops)]
    result = {}
    for kernel, start, end in inner:
        body = [opcode(t) for (k, a, t) in ins if k == kernel and start <= a <= end]
        result.setdefault(kernel, []).append((start, end, body))
    return result


def classify(body):
    counts = {name: 0 for name, _ in CLASSES}
    counts["other"] = 0
    for op in body:
        for name, pattern in CLASSES:
            if pattern.match(op):
                counts[name] += 1
                break
        else:
            counts["other"] += 1
    return counts


def loops_of(opt, ptxas, nvdisasm, tmp, example, pipeline, params, flags):
    """{kernel: [(start, end, body)]} and registers per kernel, or None and the error."""
    ptx, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
    done = subprocess.run([opt, os.path.join(ROOT, "examples", example + ".mlir"), *params.split(),
                           f"--pass-pipeline={pipeline}", "--emit=ptx", "--gpu-index-bitwidth=32", "-o", ptx,
                           *flags], capture_output=True, text=True)
    if done.returncode:
        return None, (done.stderr.strip().splitlines() or ["stencil-opt failed"])[0]
    done = subprocess.run([ptxas, "-arch=sm_90", "-v", ptx, "-o", cubin], capture_output=True, text=True)
    if done.returncode:
        return None, (done.stderr.strip().splitlines() or ["ptxas failed"])[0]
    registers = dict(re.findall(r"Compiling entry function '(\w+)'.*?Used (\d+) registers", done.stderr, re.S))
    done = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True)
    if done.returncode:
        return None, (done.stderr.strip().splitlines() or ["nvdisasm failed"])[0]
    return (innermost_loops(done.stdout), registers), None


def describe(loops, registers):
    """{kernel (k0, k1, ...): [(address range, instructions, classes, registers)]}."""
    rows = {}
    for kernel, found in loops.items():
        short = re.sub(r"^.*?_(k\d+)$", r"\1", kernel)
        for start, end, body in found:
            rows.setdefault(short, []).append(
                (f"{start:#06x}-{end:#06x}", len(body), classify(body), registers.get(kernel, "?")))
    return rows


def main():
    args = sys.argv[1:]

    def option(name):
        if name in args:
            i = args.index(name)
            value = args[i + 1]
            del args[i:i + 2]
            return value
        return None

    before = option("--before")
    only = option("--only")
    flags = [f for f in (option("--flags") or "").split(",") if f]
    record = option("--record")
    if args:
        sys.exit(__doc__)
    opt = os.path.join(ROOT, "target", "release", "stencil-opt")
    ptxas, nvdisasm = find_ptxas(), find_nvdisasm()
    if not ptxas:
        sys.exit("no ptxas (tools/bootstrap installs it)")
    cases = [c for c in CASES if not only or c[0] in only.split(",")]
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    lines = [
        f"# bench/sass_loops.py {' '.join(sys.argv[1:])}",
        f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}; commit: {commit}; no GPU",
        "# SASS (sm_90) of each kernel's innermost loops, 32-bit index; per loop: instructions (old -> new with"
        " --before), classes mem/fp/int/ctl/other, registers",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for example, name, pipeline, params in cases:
            new, error = loops_of(opt, ptxas, nvdisasm, tmp, example, pipeline, params, flags)
            old = None
            if before:
                old, old_error = loops_of(before, ptxas, nvdisasm, tmp, example, pipeline, params, flags)
                if old is None:
                    lines.append(f"{example:20} {name:30} before: {old_error}")
            if new is None:
                lines.append(f"{example:20} {name:30} {error}")
                continue
            now = describe(*new)
            was = describe(*old) if old else {}
            for kernel, found in sorted(now.items()):
                unmatched = list(was.get(kernel, []))
                for where, count, c, regs in found:
                    # The old loop doing the same work: the same floating-point and memory
                    # instructions (the address arithmetic and control are what changes), the
                    # closest in size; loops move, appear and vanish, so order says nothing.
                    same = [o for o in unmatched if (o[2]["fp"], o[2]["mem"]) == (c["fp"], c["mem"])]
                    match = min(same, key=lambda o: abs(o[1] - count), default=None)
                    if match is not None:
                        unmatched.remove(match)
                    change = f"{match[1]:>4} -> " if match else ("   - -> " if before else "")
                    old_regs = f"{match[3]} -> " if match else ""
                    classes = " ".join(f"{k} {v}" for k, v in c.items())
                    was_classes = ""
                    if match and match[2] != c:
                        was_classes = "  (before: " + " ".join(f"{k} {v}" for k, v in match[2].items()) + ")"
                    lines.append(f"{example:20} {name:30} {kernel:4} {where}  {change}{count:>4}  {classes:42}"
                                 f" regs {old_regs}{regs}{was_classes}")
                for where, count, c, regs in unmatched:
                    classes = " ".join(f"{k} {v}" for k, v in c.items())
                    lines.append(f"{example:20} {name:30} {kernel:4} {where}  {count:>4} -> gone  {classes:42}"
                                 f" regs {regs}")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if record:
        path = os.path.join(ROOT, "bench", "results",
                            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}-{record}.txt")
        with open(path, "a") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
