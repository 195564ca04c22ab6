#!/usr/bin/env bash
# The newcomer's first command: install dependencies, build, run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
./build/examples/tensor_demo
