#!/usr/bin/env bash
# ThreadSanitizer job for the autograd engine's concurrency tests:
#   scripts/tsan.sh [build-dir]
# Builds only ember_autograd_tests and ember_vmap_tests with -fsanitize=thread
# and runs the tests labelled "tsan" (tests/CMakeLists.txt): Engine.*,
# Checkpoint.*, CopySlices.*, including concurrent backward from 8 threads and
# reentrant checkpointing, and vmap on several threads at once.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-tsan}
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# The tests compile against a precompiled header, which ccache caches only when
# told that the header's __DATE__/__TIME__ and macro set cannot differ.
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMBER_SANITIZE=thread >/dev/null
cmake --build "$dir" -j "$(nproc)" --target ember_tsan_tests
ctest --test-dir "$dir" -L tsan --output-on-failure --timeout 1800
