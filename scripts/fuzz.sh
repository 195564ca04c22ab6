#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang and runs each for N seconds
# (default 20) from its seed corpus fuzz/corpus/<target>/:
#   scripts/fuzz.sh [seconds] [build-dir]
# Exits non-zero when a target crashes, trips a sanitizer or leaks; the
# reproducer is left in <build-dir>/fuzz/ as crash-*/leak-*/timeout-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
dir=${2:-build-fuzz}
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# The tests compile against a precompiled header, which ccache caches only when
# told that the header's __DATE__/__TIME__ and macro set cannot differ.
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# The fuzzers live in the AddressSanitizer + UndefinedBehaviorSanitizer build
# (clang, -O1), the same configuration as CI's sanitised test run, so passing
# that build's directory reuses its library instead of compiling a fifth one.
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DEMBER_SANITIZE=address,undefined -DEMBER_BUILD_FUZZ=ON >/dev/null
targets=(safetensors pickle pt_reader)
cmake --build "$dir" -j "${EMBER_FUZZ_JOBS:-2}" --target "${targets[@]/#/fuzz_}"
status=0
for t in "${targets[@]}"; do
  # Work on a copy so new inputs do not pile up in the committed seeds.
  work=$(mktemp -d)
  cp fuzz/corpus/"$t"/* "$work"/
  echo "== fuzz_$t for ${seconds}s"
  if ! (cd "$dir/fuzz" && ./fuzz_"$t" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 \
          -print_final_stats=1 "$work" 2>&1 | tail -n 25); then
    echo "fuzz_$t FAILED" >&2
    status=1
  fi
  rm -rf "$work"
done
exit $status
