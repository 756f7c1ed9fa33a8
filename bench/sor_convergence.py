#!/usr/bin/env python3
"""Convergence of SOR, red-black SOR and MLSOR (thesis Table 6.2 for our own inputs).

Runs `examples/sor-2d-5pt.mlir` to a tolerance with `stencil-run --converge` on the reference
interpreter (release build): plain SOR, `stencil-rbsor`, and `stencil-mlsor` with K×P×P =
2×4×4, 4×8×8, 8×16×16, 16×32×32 in both direction modes, all from the same initial field and
ω. Records, in bench/results/:

* DATE-sor-convergence.json: every run (sweeps, steps, final norm, time, the norm after every
  step), with the command, date and commit;
* DATE-sor-convergence.txt: the table (sweeps to converge; time to converge on `ref`);
* DATE-sor-convergence.svg: the norm against sweeps and against time.

Inputs (--input): `laplace` (default) — the boundary holds x² − y², whose values the discrete
solution equals everywhere (5-point Laplacian exact on quadratics), the interior starts at 0;
`random` — stencil-run's deterministic pseudo-random field (the solution is the harmonic
extension of the random boundary).

The table gives the sweeps at the first check below the tolerance and, interpolated between
checks (log-linear), the fractional sweep count where the norm crossed it: one MLSOR step is
2K (alternate) or K sweeps, so its plain counts are multiples of that.

Usage: bench/sor_convergence.py [--size N] [--omega W] [--tol T] [--norm NORM] [--absolute]
                                [--input laplace|random] [--only NAME,...] [--max-steps S]
Defaults: N = 1024 interior points per dimension, ω = 1.9, tolerance 1e-3 relative to the
initial residual (residual-l2).
"""

import argparse
import datetime
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu import ROOT, build_release  # noqa: E402

EXAMPLE = os.path.join(ROOT, "examples", "sor-2d-5pt.mlir")
MLSOR = [(2, 4), (4, 8), (8, 16), (16, 32)]


def methods():
    """(name, pipeline) of every method, in table order."""
    out = [("SOR", "builtin.module(canonicalize)"), ("RBSOR", "builtin.module(stencil-rbsor)")]
    for directions in ("alternate", "forward"):
        for k, p in MLSOR:
            out.append((f"MLSOR {k}x{p}x{p} {directions}",
                        f"builtin.module(stencil-mlsor{{K={k} P={p} directions={directions}}})"))
    return out


def write_laplace_npy(path, n):
    """An (n+2)² f64 .npy: x² − y² on the boundary (h = 1/(n+1)), 0 inside."""
    size = n + 2
    h = 1.0 / (n + 1)
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (size, size)
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        row = bytearray()
        for i in range(size):
            row.clear()
            for j in range(size):
                edge = i in (0, size - 1) or j in (0, size - 1)
                v = (i * h) ** 2 - (j * h) ** 2 if edge else 0.0
                row += struct.pack("<d", v)
            f.write(row)


def run(binary, pipeline, args, init):
    cmd = [binary, EXAMPLE, "--json", f"--pass-pipeline={pipeline}",
           f"--param=N={args.size + 2}", f"--param=M={args.size + 2}", f"--scalar=omega={args.omega}",
           f"--converge={args.tol}", f"--norm={args.norm}", f"--max-steps={args.max_steps}", *init]
    if not args.absolute:
        cmd.append("--relative")
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        # A run that did not converge within --max-steps fails with its report beside the
        # error: its row says "NOT converged".
        try:
            report = json.loads(done.stdout).get("report")
        except ValueError:
            report = None
        if report and report.get("convergence"):
            return report, None, cmd
        errors = [line for line in done.stderr.splitlines() if "error" in line]
        return None, (errors[0] if errors else "failed"), cmd
    return json.loads(done.stdout), None, cmd


def interpolated_sweeps(convergence):
    """The fractional sweep count at which the norm crosses the tolerance, interpolating
    log(norm) linearly between the last check above it and the first below (a step of MLSOR
    is 2K sweeps: without this its counts are multiples of 2K)."""
    import math
    tol, prev = convergence["tolerance"], (0, convergence["initial"])
    for sweeps, norm, _ in convergence["history"]:
        if norm < tol:
            (s0, n0) = prev
            if not (n0 > 0 and norm > 0 and n0 > norm and math.isfinite(n0)):
                return float(sweeps)
            return s0 + (sweeps - s0) * (math.log(n0) - math.log(tol)) / (math.log(n0) - math.log(norm))
        prev = (sweeps, norm)
    return None


def svg_plot(runs, path, title):
    """Two log-y panels: the norm against sweeps and against run time."""
    width, height, pad = 520, 360, 60
    colours = ["#000000", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
               "#e377c2", "#7f7f7f"]
    import math
    points = [(n, r["convergence"]["history"]) for n, r in runs if r and r["convergence"]["history"]]
    if not points:
        return
    norms = [v for _, h in points for (_, v, _) in h if v > 0]
    lo, hi = math.log10(min(norms)), math.log10(max(norms))
    hi = hi if hi > lo else lo + 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width}" height="{height + 40}" '
             f'font-family="sans-serif" font-size="11">',
             f'<text x="{width}" y="16" text-anchor="middle" font-size="13">{title}</text>']
    for panel, (axis, label) in enumerate([(0, "SOR sweeps"), (2, "seconds (reference interpreter)")]):
        x0 = panel * width + pad
        xmax = max(h[-1][axis] for _, h in points) or 1
        plot_w, plot_h, y0 = width - pad - 20, height - pad - 10, 30
        parts.append(f'<rect x="{x0}" y="{y0}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>')
        parts.append(f'<text x="{x0 + plot_w / 2}" y="{y0 + plot_h + 32}" text-anchor="middle">{label}</text>')
        for e in range(math.floor(lo), math.ceil(hi) + 1):
            y = y0 + plot_h * (1 - (e - lo) / (hi - lo))
            if y0 <= y <= y0 + plot_h:
                parts.append(f'<line x1="{x0}" x2="{x0 + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
                parts.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
        for k in range(5):
            v = xmax * k / 4
            x = x0 + plot_w * k / 4
            parts.append(f'<text x="{x:.1f}" y="{y0 + plot_h + 14}" text-anchor="middle">{v:.3g}</text>')
        for c, (name, hist) in enumerate(points):
            pts = " ".join(f"{x0 + plot_w * h[axis] / xmax:.1f},{y0 + plot_h * (1 - (math.log10(h[1]) - lo) / (hi - lo)):.1f}"
                           for h in hist if h[1] > 0)
            colour = colours[c % len(colours)]
            dash = ' stroke-dasharray="4,3"' if "forward" in name else ""
            parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.3"{dash}/>')
            if panel == 1:
                ly = y0 + 14 + 14 * c
                parts.append(f'<line x1="{x0 + plot_w - 170}" x2="{x0 + plot_w - 150}" y1="{ly - 4}" y2="{ly - 4}" '
                             f'stroke="{colour}"{dash}/>')
                parts.append(f'<text x="{x0 + plot_w - 146}" y="{ly}">{name}</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--omega", type=float, default=1.9)
    ap.add_argument("--tol", type=float, default=1e-3)
    ap.add_argument("--norm", default="residual-l2")
    ap.add_argument("--absolute", action="store_true", help="the tolerance is absolute, not relative")
    ap.add_argument("--input", choices=["laplace", "random"], default="laplace")
    ap.add_argument("--only", default=None, help="comma-separated method names (as in the table)")
    ap.add_argument("--max-steps", type=int, default=20000)
    ap.add_argument("--suffix", default="sor-convergence")
    ap.add_argument("--from-json", default=None,
                    help="re-render the table and plot of an earlier run's JSON instead of running")
    args = ap.parse_args()
    if args.from_json:
        return render(args.from_json)
    binary = build_release()
    # The commit the binary was built from (the run may outlast later commits).
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    dirty = "+dirty" if subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                                       capture_output=True, text=True).stdout.strip() else ""
    tmp = tempfile.mkdtemp()
    if args.input == "laplace":
        npy = os.path.join(tmp, "laplace.npy")
        write_laplace_npy(npy, args.size)
        init = [f"--init=A={npy}"]
    else:
        init = []
    only = set(args.only.split(",")) if args.only else None
    tolerance = f"{args.tol:g} {'absolute' if args.absolute else 'relative to the initial'} {args.norm}"
    lines = [f"input {args.input}, {args.size}x{args.size} interior points (N = M = {args.size + 2}), "
             f"omega = {args.omega}, tolerance {tolerance}, reference interpreter (release), one thread",
             "",
             f"{'method':<28} {'sweeps':>8} {'interp.':>8} {'steps':>7} {'final':>11} {'run s':>9} {'s/sweep':>9}  note"]
    print("\n".join(lines), flush=True)
    runs, records = [], []
    for name, pipeline in methods():
        if only and name not in only:
            continue
        report, error, cmd = run(binary, pipeline, args, init)
        runs.append((name, report))
        records.append({"method": name, "pipeline": pipeline, "command": cmd, "report": report, "error": error})
        line = table_line(name, report, error)
        print(line, flush=True)
        lines.append(line)
    now = datetime.datetime.now(datetime.timezone.utc)
    base = os.path.join(ROOT, "bench", "results", f"{now:%Y-%m-%d}-{args.suffix}")
    os.makedirs(os.path.dirname(base), exist_ok=True)
    preamble = ["benchmark: bench/sor_convergence.py (stencil-run --converge on the reference interpreter)",
                f"date: {now:%Y-%m-%dT%H:%MZ}", f"commit: {commit}{dirty}", f"arguments: {' '.join(sys.argv[1:])}"]
    with open(base + ".txt", "w") as f:
        f.write("\n".join(preamble + [""] + lines) + "\n")
    with open(base + ".json", "w") as f:
        json.dump({"date": f"{now:%Y-%m-%dT%H:%MZ}", "commit": commit + dirty, "arguments": vars(args),
                   "runs": records}, f, indent=1)
    svg_plot(runs, base + ".svg", f"{args.input} {args.size}², ω = {args.omega}: {args.norm} against sweeps and time")
    print(f"recorded in {os.path.relpath(base, ROOT)}.{{txt,json,svg}}")


def table_line(name, report, error):
    """One row of the table."""
    if report is None:
        return f"{name:<28} {'-':>8} {'-':>8} {'-':>7} {'-':>11} {'-':>9} {'-':>9}  {error}"
    c = report["convergence"]
    note = "" if c["converged"] else "NOT converged"
    per = c["run_seconds"] / c["sweeps"] if c["sweeps"] else 0
    interp = interpolated_sweeps(c)
    interp = f"{interp:>8.1f}" if interp is not None else f"{'-':>8}"
    return (f"{name:<28} {c['sweeps']:>8} {interp} {c['steps']:>7} {c['final']:>11.3e} "
            f"{c['run_seconds']:>9.2f} {per:>9.4f}  {note}")


def render(path):
    """Rewrites PATH's .txt and .svg from its JSON (the table format of this version)."""
    with open(path) as f:
        data = json.load(f)
    a = data["arguments"]
    tolerance = f"{a['tol']:g} {'absolute' if a['absolute'] else 'relative to the initial'} {a['norm']}"
    lines = [f"input {a['input']}, {a['size']}x{a['size']} interior points (N = M = {a['size'] + 2}), "
             f"omega = {a['omega']}, tolerance {tolerance}, reference interpreter (release), one thread", "",
             f"{'method':<28} {'sweeps':>8} {'interp.':>8} {'steps':>7} {'final':>11} {'run s':>9} {'s/sweep':>9}  note"]
    lines += [table_line(r["method"], r["report"], r["error"]) for r in data["runs"]]
    base = path[:-len(".json")]
    preamble = ["benchmark: bench/sor_convergence.py (stencil-run --converge on the reference interpreter)",
                f"date: {data['date']}", f"commit: {data['commit']}",
                f"arguments: {' '.join(f'--{k.replace(chr(95), chr(45))}={v}' for k, v in a.items() if v not in (None, False))}"]
    with open(base + ".txt", "w") as f:
        f.write("\n".join(preamble + [""] + lines) + "\n")
    svg_plot([(r["method"], r["report"]) for r in data["runs"]], base + ".svg",
             f"{a['input']} {a['size']}², ω = {a['omega']}: {a['norm']} against sweeps and time")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
