"""The thesis model's memory term split by L2 regime, tried offline on the H200's runs.

Inputs (this folder): measurements-99.json (77 calibration runs + 22 bundle rows of
2026-11-27) and features-99.txt, the per-run thesis features printed by

    stencil-calibrate compare measurements-99.json --root . --calibration refit-99.json --runs

([1, N_w, C*bar, C*sum G, C*sum H, C*N_mem, set-up] per run, in file order). Fits, with
non-negative least squares on relative errors as fit.rs does (alpha' and beta' = beta + alpha/32
per program and mapping, device-wide sigmas and set-up), either one gamma per program and
mapping or, for global-memory kernels, a second gamma for problems whose fields exceed the L2
cache (60 MiB), and scores each problem's runs (Spearman rho, gap of the first choice, RMS),
in-sample and leave-one-out over the bundle rows. Run: python3 l2_regime_experiment.py
"""
import os
HERE = os.path.dirname(os.path.abspath(__file__))
import json, re, numpy as np
from scipy.optimize import lsq_linear
from scipy.stats import spearmanr
runs = json.load(open(os.path.join(HERE, 'measurements-99.json')))['runs']
lines = open(os.path.join(HERE, 'features-99.txt')).read().splitlines()
rows = []
for r, l in zip(runs, lines):
    f = [float(x) for x in l[l.index('[')+1:l.index(']')].split(',')]
    lab = r['label']
    glob = 'global' in lab or lab == 'sor-3d-7pt wavefront auto i32'
    prog = r['example'].split('/')[-1][:-5]
    p = r['params']; pts = 1
    for k in ('N','M','L'):
        if k in p: pts *= p[k]
    fields = 2 if prog.startswith('jacobi') else 1
    big = pts * 8 * fields > 60 * 2**20
    share = min(1.0, 60 * 2**20 / (pts * 8 * fields))
    prob = ','.join(f'{k}={v}' for k,v in sorted(p.items()))
    rows.append(dict(label=lab, prog=prog, glob=glob, big=big, share=share, f=f, t=r['seconds'], prob=prob))
keys = sorted({(r['prog'], r['glob']) for r in rows})
def design(split):
    cols = ['ker','blk','thd','setup']
    for k in keys:
        cols += [f'{k}a', f'{k}b', f'{k}g'] + ([f'{k}g_big'] if split and k[1] else [])
    A = np.zeros((len(rows), len(cols)))
    for i, r in enumerate(rows):
        f = r['f']; w = 1 / r['t']
        A[i, 0:3] = np.array(f[0:3]) * w; A[i, 3] = f[6] * w
        j = cols.index(f'{(r["prog"], r["glob"])}a')
        A[i, j] = (f[3] - f[4] / 32) * w; A[i, j+1] = f[4] * w
        if split == 'graded' and r['glob']:
            A[i, j+2] = f[5] * (1 - r['share']) * w
            A[i, j+3] = f[5] * r['share'] * w
        elif split and split != 'graded' and r['glob'] and not r['big']:
            A[i, j+3] = f[5] * w
        else:
            A[i, j+2] = f[5] * w
    lo = np.zeros(len(cols)); hi = np.full(len(cols), np.inf)
    return A, cols, lo, hi
def evaluate(train, split, name):
    A, cols, lo, hi = design(split)
    # drop all-zero columns
    keep = [j for j in range(A.shape[1]) if np.any(A[train][:, j] != 0)]
    sol = lsq_linear(A[train][:, keep], np.ones(len(train)), bounds=(lo[keep], hi[keep]))
    x = np.zeros(A.shape[1]); x[keep] = sol.x
    pred = np.array([A[i] @ x * r['t'] for i, r in enumerate(rows)])
    groups = {}
    for i, r in enumerate(rows):
        groups.setdefault((r['prog'], r['prob']), []).append(i)
    print(f'== {name}')
    for g, idx in groups.items():
        if len(idx) < 3: continue
        t = np.array([rows[i]['t'] for i in idx]); p = pred[idx]
        rho = spearmanr(t, p).statistic
        gap = t[np.argmin(p)] / t.min() - 1
        rms = np.sqrt(np.mean(((p - t) / t) ** 2))
        tr = 'train' if set(idx) <= set(train) else ('test' if not set(idx) & set(train) else 'mixed')
        print(f'  {g[0]:14s} {g[1]:28s} n={len(idx):2d} {tr:5s} rho {rho:6.3f} gap {gap*100:6.2f}% rms {rms*100:6.1f}%')
cal = [i for i, r in enumerate(rows) if i < 77]
allr = list(range(len(rows)))
evaluate(cal, False, 'calibration runs only, one gamma')
evaluate(cal, True, 'calibration runs only, gamma split (no big global runs except 1-D: extrapolates)')
evaluate(allr, False, 'all 99, one gamma')
evaluate(allr, True, 'all 99, gamma split by L2 regime (threshold)')
evaluate(allr, 'graded', 'all 99, gamma split by the share of the fields L2 holds')

def loo(split, name):
    A, cols, lo, hi = design(split)
    pred = {}
    test = [i for i in range(77, len(rows))]
    for i in test:
        train = [j for j in range(len(rows)) if j != i]
        keep = [j for j in range(A.shape[1]) if np.any(A[train][:, j] != 0)]
        sol = lsq_linear(A[train][:, keep], np.ones(len(train)), bounds=(lo[keep], hi[keep]))
        x = np.zeros(A.shape[1]); x[keep] = sol.x
        pred[i] = A[i] @ x * rows[i]['t']
    groups = {}
    for i in test:
        groups.setdefault((rows[i]['prog'], rows[i]['prob']), []).append(i)
    print(f'== leave-one-out, {name}')
    for g, idx in groups.items():
        if len(idx) < 3: continue
        t = np.array([rows[i]['t'] for i in idx]); p = np.array([pred[i] for i in idx])
        print(f'  {g[0]:14s} {g[1]:28s} n={len(idx):2d} rho {spearmanr(t,p).statistic:6.3f} gap {(t[np.argmin(p)]/t.min()-1)*100:6.2f}% rms {np.sqrt(np.mean(((p-t)/t)**2))*100:6.1f}%')
loo(False, 'one gamma')
loo(True, 'gamma split by L2 regime (threshold)')
loo('graded', 'gamma split by the share of the fields L2 holds')
