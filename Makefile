# Entry points; see README.md.
#   make run     build stencil-opt (release) and run it on examples/canonicalize-demo.mlir
#   make test    everything CI checks: bootstrap, cargo build + test, the lit suite
#   make lit     the lit suite only, against the binaries already in target/debug

CARGO ?= cargo
LLVM_BIN ?= /usr/lib/llvm-22/bin
export LLVM_BIN
# Where cargo puts binaries; tests/lit/lit.cfg.py follows CARGO_TARGET_DIR the same way.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

RUN_EXAMPLE := examples/canonicalize-demo.mlir
RUN_PIPELINE := builtin.module(canonicalize,cse)

.PHONY: bootstrap test run lit fmt clippy bench

bootstrap:
	tools/bootstrap

test: bootstrap
	$(CARGO) build --workspace --bins
	$(CARGO) test --workspace
	STENCIL_OPT_BIN= $(LLVM_BIN)/lit -sv tests/lit

run: bootstrap
	$(CARGO) build --release --bin stencil-opt
	$(TARGET_DIR)/release/stencil-opt --pass-pipeline='$(RUN_PIPELINE)' $(RUN_EXAMPLE)

lit:
	$(LLVM_BIN)/lit -sv tests/lit

fmt:
	$(CARGO) fmt --all

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench:
	tools/bench
