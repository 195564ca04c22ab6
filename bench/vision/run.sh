#!/usr/bin/env bash
# bench/vision: times ember::vision and torchvision (Debian's /usr/bin/python3) on the same
# inputs in one run, at 1 and 2 threads, and prints the ratios reference_ms / ember_ms
# (>= 1: Ember is as fast or faster).
#   bench/vision/run.sh [build-dir]     (the build needs -DEMBER_BUILD_BENCH=ON, target vision_bench)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
exe="$build/bench/vision/vision_bench"
[ -x "$exe" ] || { echo "build $exe first: EMBER_TARGETS=vision_bench scripts/build.sh build -DEMBER_BUILD_BENCH=ON" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "ISA: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(sse4_2|avx|avx2|avx512f|fma)$' | tr '\n' ' ')"
printf '%-52s %7s %10s %10s %8s\n' case threads ember_ms ref_ms ratio
for t in 1 2; do
  "$exe" "$work" "$t" > "$work/ember.txt"
  /usr/bin/python3 "$here/bench_torchvision.py" "$work" "$t" > "$work/ref.txt"
  while read -r name ms; do
    case "$name" in *.*) continue ;; esac
    for ref in "$name.tjDecompress2" "$name.tjDecompress2_fresh_buffer" "$name.torchvision"; do
      r=$(awk -v n="$ref" '$1 == n { print $2 }' "$work/ember.txt" "$work/ref.txt")
      [ -n "$r" ] && printf '%-52s %7s %10.3f %10.3f %8.2f\n' "$name vs ${ref#"$name".}" "$t" "$ms" "$r" \
        "$(awk -v a="$r" -v b="$ms" 'BEGIN { print a / b }')"
    done
  done < "$work/ember.txt"
done
