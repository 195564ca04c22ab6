#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang and runs each from its seed
# corpus fuzz/corpus/<target>/ with its dictionary fuzz/dict/<target>.dict:
#   scripts/fuzz.sh [seconds] [build-dir]                    # each target for N seconds (default 20; CI: 10)
#   scripts/fuzz.sh --long RUNS [build-dir] [target...]      # each target for RUNS executions
# The long mode is the campaign docs/reliability.md reports: it stops a target
# at its first finding, keeps a log per target in <build-dir>/fuzz/<target>.long.log
# and merges the inputs that add coverage into the committed corpus
# (fuzz/corpus/<target>/, seeds kept), so the next run starts where this one ended.
# Exits non-zero when a target crashes, trips a sanitizer, leaks, exceeds the
# per-input time limit or the RSS limit; the reproducer is left in <build-dir>/fuzz/
# as crash-*/leak-*/timeout-*/oom-*.
set -euo pipefail
cd "$(dirname "$0")/.."
long=0
if [[ "${1:-}" == "--long" ]]; then
  long=1
  runs=${2:?usage: scripts/fuzz.sh --long RUNS [build-dir] [target...]}
  shift 2
  dir=${1:-build-fuzz}
  shift || true
else
  seconds=${1:-20}
  dir=${2:-build-fuzz}
  shift $(( $# < 2 ? $# : 2 ))
fi
all_targets=(safetensors pickle pt_reader archive mnist decode_image video_reader audio_load arpa store_frame rpc_frame
  tokenizer_json sentencepiece_model text_dataset_csv)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# The tests compile against a precompiled header, which ccache caches only when
# told that the header's __DATE__/__TIME__ and macro set cannot differ.
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# The fuzzers live in the AddressSanitizer + UndefinedBehaviorSanitizer build
# (clang, -O1), the same configuration as CI's sanitised test run, so passing
# that build's directory reuses its library instead of compiling a fifth one.
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DEMBER_SANITIZE=address,undefined -DEMBER_BUILD_FUZZ=ON >/dev/null
cmake --build "$dir" -j "${EMBER_FUZZ_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

# Limits that make a slow or huge input a finding: 10 s per input (the largest
# committed inputs take milliseconds), 2 GiB of RSS, 64 KiB inputs.
# The fuzzers link a second, coverage-instrumented copy of the readers beside
# libember's (fuzz/CMakeLists.txt), so the readers' globals (e.g. MNIST's vtable)
# exist twice by design: ASan's level-1 ODR check still reports a size mismatch.
export ASAN_OPTIONS="detect_odr_violation=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
common=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1)
status=0
for t in "${targets[@]}"; do
  # Work on a copy so that only the merge below changes the committed corpus.
  work=$(mktemp -d)
  cp fuzz/corpus/"$t"/* "$work"/
  dict=(-dict="$PWD/fuzz/dict/$t.dict")
  if [[ $long == 0 ]]; then
    echo "== fuzz_$t for ${seconds}s"
    if ! (cd "$dir/fuzz" && ./fuzz_"$t" -max_total_time="$seconds" "${common[@]}" "${dict[@]}" "$work" 2>&1 | tail -n 25); then
      echo "fuzz_$t FAILED" >&2
      status=1
    fi
  else
    log="$PWD/$dir/fuzz/$t.long.log"
    echo "== fuzz_$t for $runs executions (log: $log)"
    start=$(date +%s)
    if (cd "$dir/fuzz" && ./fuzz_"$t" -runs="$runs" "${common[@]}" "${dict[@]}" "$work" >"$log" 2>&1); then
      echo "   $(( $(date +%s) - start )) s; $(grep -E '^#[0-9]+' "$log" | tail -n 1)"
      grep -E '^stat::' "$log" | sed 's/^/   /'
      # Minimise: keep the seeds, add each input that reaches new coverage.
      merged=$(mktemp -d)
      cp fuzz/corpus/"$t"/* "$merged"/
      (cd "$dir/fuzz" && ./fuzz_"$t" -merge=1 "${common[@]}" "$merged" "$work" >>"$log" 2>&1)
      rm -f fuzz/corpus/"$t"/*
      cp "$merged"/* fuzz/corpus/"$t"/
      rm -rf "$merged"
      echo "   corpus: $(ls fuzz/corpus/"$t" | wc -l) files, $(du -sk fuzz/corpus/"$t" | cut -f1) KiB"
    else
      echo "fuzz_$t FAILED after $(( $(date +%s) - start )) s; see $log" >&2
      tail -n 40 "$log" >&2
      status=1
    fi
  fi
  rm -rf "$work"
done
exit $status
