# LLVM lit configuration for the stencil-opt regression tests (see docs/lit-tests.md).
#
# Run from the repository root:   /usr/lib/llvm-22/bin/lit -sv tests/lit
#
# Knobs:
#   lit -Dbuild_mode=release     test target/release/stencil-opt instead of target/debug
#   STENCIL_OPT_BIN=/path/to/x   test that stencil-opt binary
#   CARGO_TARGET_DIR             honoured like cargo does (default: <repo>/target)
#   LLVM_BIN                     where FileCheck, not, mlir-opt live (default /usr/lib/llvm-22/bin)

import os
import re

import lit.formats

config.name = "stencil-opt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
# `Inputs/` folders hold files that RUN lines read; they are not tests themselves.
config.excludes = ["Inputs", "README.md", "lit.cfg.py"]

repo_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
target_dir = os.environ.get("CARGO_TARGET_DIR") or os.path.join(repo_root, "target")
if not os.path.isabs(target_dir):
    target_dir = os.path.join(repo_root, target_dir)

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Output/ folders and .lit_test_times.txt go under target/, not into the source tree.
config.test_exec_root = os.path.join(target_dir, "lit")
os.makedirs(config.test_exec_root, exist_ok=True)

build_mode = lit_config.params.get("build_mode", "debug")
if build_mode not in ("debug", "release"):
    lit_config.fatal(f"build_mode must be 'debug' or 'release', not {build_mode!r}")
stencil_opt = os.environ.get("STENCIL_OPT_BIN") or os.path.join(target_dir, build_mode, "stencil-opt")
stencil_opt = os.path.abspath(stencil_opt)
if not os.access(stencil_opt, os.X_OK):
    lit_config.warning(
        f"{stencil_opt} does not exist: tests that run stencil-opt will fail. "
        f"Build it first (cargo build --bins{' --release' if build_mode == 'release' else ''}) "
        "or point STENCIL_OPT_BIN at a binary."
    )

llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
for tool in ("FileCheck", "not", "mlir-opt"):
    if not os.access(os.path.join(llvm_bin, tool), os.X_OK):
        lit_config.fatal(f"{tool} not found in {llvm_bin}: run tools/bootstrap or set LLVM_BIN.")


def tool_pattern(name):
    """Matches `name` as a command word: not inside a path, a flag or a longer name."""
    return r"(?<![\w%/.-])" + re.escape(name) + r"(?![\w/.-])"


# Substitutions are applied in order, before lit's own (%s, %t, ...). `%stencil-opt` comes first
# so the plain-name pattern never sees it; the plain names are rewritten to absolute paths too,
# so a failing test prints a command line that can be pasted into a shell as is.
stencil_run = os.environ.get("STENCIL_RUN_BIN") or os.path.join(os.path.dirname(stencil_opt), "stencil-run")
# The stencil-run built without the `mlir` feature (no LLVM/MLIR linked; docs/gpu.md,
# "Precompiled PTX"): `make test` builds it into <target>/mlir-free. It comes first: `%stencil-run`
# is a prefix of its name.
stencil_run_mlir_free = os.environ.get("STENCIL_RUN_MLIR_FREE_BIN") or os.path.join(
    target_dir, "mlir-free", build_mode, "stencil-run"
)
if not os.access(stencil_run_mlir_free, os.X_OK):
    lit_config.warning(
        f"{stencil_run_mlir_free} does not exist: tests of the MLIR-free build will fail. Build it with "
        "CARGO_TARGET_DIR=target/mlir-free cargo build -p stencil-driver --no-default-features --bins "
        "(make test does) or point STENCIL_RUN_MLIR_FREE_BIN at a binary."
    )
config.substitutions.append(("%stencil-run-mlir-free", stencil_run_mlir_free))
config.substitutions.append(("%stencil-opt", stencil_opt))
config.substitutions.append(("%stencil-run", stencil_run))
config.substitutions.append((tool_pattern("stencil-opt"), stencil_opt))
config.substitutions.append((tool_pattern("stencil-run"), stencil_run))
for tool in ("FileCheck", "not", "mlir-opt"):
    config.substitutions.append((tool_pattern(tool), os.path.join(llvm_bin, tool)))

# lit runs tests with a clean environment; put our binaries and the LLVM tools first on PATH so
# anything a RUN line calls by name (e.g. `split-file`) resolves to the right version.
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(stencil_opt), llvm_bin, config.environment.get("PATH", os.environ["PATH"])]
)

# GPU feature: `cuda-driver` when the NVIDIA driver library (libcuda.so.1) loads, as
# stencil-run --target gpu needs. Tests that run on a real GPU say `REQUIRES: cuda-driver`; the
# test of the no-driver message says `UNSUPPORTED: cuda-driver`.
import ctypes

try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    lit_config.note("no NVIDIA driver (libcuda.so.1): GPU lit tests are unsupported here")
