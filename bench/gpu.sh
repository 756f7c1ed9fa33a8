#!/usr/bin/env bash
# GPU benchmarks: naive vs tiled gpu-map on the example suite at 16384^2 / 512^3 (bench/gpu.py,
# see bench/README.md). Without an NVIDIA driver: prints that they were skipped, exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/gpu.py "$@"
