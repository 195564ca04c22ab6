#!/usr/bin/env bash
# The newcomer's first command: install dependencies, build, run the main job
# (train the Fashion-MNIST classifier on Debian's dataset-fashion-mnist package).
# Extra arguments go to the trainer, e.g. `--epochs 5` or `--threads 1`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Only the library and the trainer: the tests are the second command's.
EMBER_TARGETS=fashion_mnist scripts/build.sh build
./build/examples/fashion_mnist --checkpoint build/fashion_mnist.safetensors "$@"
