#!/usr/bin/env bash
# Builds Ember and runs the whole test suite: scripts/test.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
scripts/build.sh "$dir" "$@"
ctest --test-dir "$dir" -j "$(nproc)" --output-on-failure --timeout 600
