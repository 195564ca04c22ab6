#!/usr/bin/env bash
# Configures and builds Ember: scripts/build.sh [build-dir] [extra cmake args...]
# EMBER_SANITIZE=address,undefined selects a sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
# ccache: hash paths relative to the checkout so fresh clones reuse the cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DEMBER_SANITIZE="${EMBER_SANITIZE:-}" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
