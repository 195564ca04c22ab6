#!/usr/bin/env bash
# Configures and builds Ember: scripts/build.sh [build-dir] [extra cmake args...]
# EMBER_SANITIZE=address,undefined selects a sanitizer build; EMBER_TARGETS="a b"
# builds only those targets (and what they need) instead of everything.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
# ccache: hash paths relative to the checkout so fresh clones reuse the cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# The tests compile against a precompiled header, which ccache caches only when
# told that the header's __DATE__/__TIME__ and macro set cannot differ.
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DEMBER_SANITIZE="${EMBER_SANITIZE:-}" "$@" >/dev/null
# shellcheck disable=SC2086  # EMBER_TARGETS is a list of target names
cmake --build "$dir" -j "$(nproc)" ${EMBER_TARGETS:+--target $EMBER_TARGETS}
