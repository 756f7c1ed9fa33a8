# Entry points; see README.md.
#   make run     build (release) and run a Jacobi and an SOR example with stencil-run, tiled (sizes
#                and blocks from the tile model) and mapped to the GPU: on the GPU when an NVIDIA
#                driver is present, else on the GPU simulator (RUN_TARGET=sim|gpu overrides);
#                checked against the reference interpreter
#   make test    everything CI checks: bootstrap, cargo build + test in both configurations
#                (with MLIR, the default, and without: --no-default-features into
#                target/mlir-free, docs/gpu.md), the library's examples, a crate outside the
#                workspace that depends on the library (docs/library.md), the lit suite
#                (STENCIL_REQUIRE_PTXAS=1: bootstrap installed ptxas, so PTX tests must not skip)
#   make lit     the lit suite only, against the binaries already in target/debug

CARGO ?= cargo
LLVM_BIN ?= /usr/lib/llvm-22/bin
export LLVM_BIN
# Where cargo puts binaries; tests/lit/lit.cfg.py follows CARGO_TARGET_DIR the same way.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# The build without the `mlir` feature: its own target folder, so the two configurations never
# overwrite each other's binaries.
MLIR_FREE := CARGO_TARGET_DIR=$(TARGET_DIR)/mlir-free $(CARGO)

# The library's runnable examples (stencil/examples/, docs/library.md).
LIBRARY_EXAMPLES := embed_pipeline build_program custom_pass
# A crate outside the workspace that depends on the library. It is built from a fresh folder
# outside this repository, so that this workspace's .cargo/config.toml does not apply to it
# (cargo reads that file from the current folder upwards), as for any dependent; into the
# MLIR-free target folder, whose artifacts it shares (same crates, features and profiles), so
# it costs the build of one small crate.
EXTERNAL_CRATE := $(abspath tests/external-crate/Cargo.toml)

# Tiled wavefronts with the tile sizes and blocks the tile model chooses for the run's problem
# sizes (docs/tile-models.md). The size keeps the simulator (which checks for races as it goes)
# at a few seconds per example.
RUN_PIPELINE := builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})
RUN_SIZE := --param N=96 --param M=96 --param T=8
# gpu where the NVIDIA driver library loads (what stencil-run --target gpu needs), else sim.
RUN_TARGET ?= $(shell { ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' || ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 >/dev/null 2>&1; } && echo gpu || echo sim)

.PHONY: bootstrap test run lit fmt clippy bench external-mlir

bootstrap:
	tools/bootstrap

test: bootstrap
	$(CARGO) build --workspace --bins
	$(MLIR_FREE) build -p stencil-driver --no-default-features --bins
	STENCIL_REQUIRE_PTXAS=1 $(CARGO) test --workspace
	$(MLIR_FREE) test -p stencil-lowering -p stencil-driver -p stencil --no-default-features
	set -e; for example in $(LIBRARY_EXAMPLES); do $(MLIR_FREE) run -q -p stencil --example $$example; done
	$(CARGO) run -q -p stencil --features mlir --example embed_pipeline
	outside="$$(mktemp -d)"; cd "$$outside" && CARGO_TARGET_DIR=$(abspath $(TARGET_DIR))/mlir-free \
		$(CARGO) run -q --manifest-path $(EXTERNAL_CRATE); status=$$?; rm -rf "$$outside"; exit $$status
	STENCIL_OPT_BIN= $(LLVM_BIN)/lit -sv tests/lit

run: bootstrap
	$(CARGO) build --release --bins
	@echo "stencil-run --target $(RUN_TARGET)"
	$(TARGET_DIR)/release/stencil-run examples/jacobi-2d-5pt.mlir $(RUN_SIZE) --pass-pipeline='$(RUN_PIPELINE)' --target $(RUN_TARGET) --check
	$(TARGET_DIR)/release/stencil-run examples/sor-2d-5pt.mlir $(RUN_SIZE) --pass-pipeline='$(RUN_PIPELINE)' --target $(RUN_TARGET) --check

lit:
	$(LLVM_BIN)/lit -sv tests/lit

# The out-of-workspace crate with the library's `mlir` feature, set up exactly as
# docs/library.md says (tests/external-crate/mlir-config.toml as .cargo/config.toml, its
# build.rs for the rpath). Not part of `make test`: this feature set shares no artifacts with
# the other builds, so it costs a build of its own (three and a half minutes from scratch on
# two cores).
external-mlir: bootstrap
	outside="$$(mktemp -d)"; mkdir "$$outside/.cargo" && cp tests/external-crate/mlir-config.toml "$$outside/.cargo/config.toml" \
		&& cd "$$outside" && CARGO_TARGET_DIR=$(abspath $(TARGET_DIR))/external-mlir \
		$(CARGO) run -q --manifest-path $(EXTERNAL_CRATE) --features mlir; status=$$?; rm -rf "$$outside"; exit $$status

fmt:
	$(CARGO) fmt --all

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench:
	tools/bench
