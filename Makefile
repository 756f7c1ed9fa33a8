# Entry points; see README.md.
#   make run     build (release) and run a Jacobi and an SOR example with stencil-run, checked
#                against the reference interpreter
#   make test    everything CI checks: bootstrap, cargo build + test, the lit suite
#                (STENCIL_REQUIRE_PTXAS=1: bootstrap installed ptxas, so PTX tests must not skip)
#   make lit     the lit suite only, against the binaries already in target/debug

CARGO ?= cargo
LLVM_BIN ?= /usr/lib/llvm-22/bin
export LLVM_BIN
# Where cargo puts binaries; tests/lit/lit.cfg.py follows CARGO_TARGET_DIR the same way.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

RUN_PIPELINE := builtin.module(canonicalize,cse)
RUN_SIZE := --param N=512 --param M=512 --param T=20

.PHONY: bootstrap test run lit fmt clippy bench

bootstrap:
	tools/bootstrap

test: bootstrap
	$(CARGO) build --workspace --bins
	STENCIL_REQUIRE_PTXAS=1 $(CARGO) test --workspace
	STENCIL_OPT_BIN= $(LLVM_BIN)/lit -sv tests/lit

run: bootstrap
	$(CARGO) build --release --bins
	$(TARGET_DIR)/release/stencil-run examples/jacobi-2d-5pt.mlir $(RUN_SIZE) --pass-pipeline='$(RUN_PIPELINE)' --check
	$(TARGET_DIR)/release/stencil-run examples/sor-2d-5pt.mlir $(RUN_SIZE) --pass-pipeline='$(RUN_PIPELINE)' --check

lit:
	$(LLVM_BIN)/lit -sv tests/lit

fmt:
	$(CARGO) fmt --all

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench:
	tools/bench
