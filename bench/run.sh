#!/usr/bin/env bash
# Side-by-side benchmark driver (bench/SPEC.md).
#   bench/run.sh [W1 ... W6 M1 | case ...]      (default: W1 W2 W3 W4 W5 W6)
# Environment: BUILD (build dir, default build), ROUNDS (process rounds per
# workload, default 2), SAMPLES (samples per thread count per process,
# default 4), OUT (jsonl file, default bench/results/<utc>.jsonl).
# For each workload it alternates processes: Ember, LibTorch stock, LibTorch
# tuned, Ember, ... (ROUNDS times); inside a process the two thread counts
# are interleaved. Ember and LibTorch "stock" run with OPENBLAS_CORETYPE and
# ATEN_CPU_CAPABILITY unset; "tuned" sets them before LibTorch loads.
# LEVEL=avx2|avx512|default runs both at one CPU capability (Note [CPU capability]):
# Ember with EMBER_CPU_CAPABILITY=$LEVEL, both LibTorch configs with
# ATEN_CPU_CAPABILITY=$LEVEL, and Ember and "tuned" with the OpenBLAS core of that
# level (avx2: Haswell, avx512: SkylakeX), so an AVX-512 machine measures what an
# AVX2 one runs. Only kernels dispatched at run time follow the level; the rest of
# Ember is compiled for the build machine (Note [Native instruction set]).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
BUILD=${BUILD:-$root/build}
ROUNDS=${ROUNDS:-2}
SAMPLES=${SAMPLES:-4}
mkdir -p "$here/results"
OUT=${OUT:-$here/results/$(date -u +%Y%m%dT%H%M%SZ).jsonl}
workloads=("$@")
[ ${#workloads[@]} -eq 0 ] && workloads=(W1 W2 W3 W4 W5 W6)

ember="$BUILD/bench/ember_bench"
torch="$BUILD/bench/libtorch_bench"
[ -x "$ember" ] || { echo "run.sh: $ember not built (cmake -DEMBER_BUILD_BENCH=ON)" >&2; exit 1; }
[ -x "$torch" ] || echo "run.sh: $torch not built (-DEMBER_BENCH_LIBTORCH=ON); Ember only" >&2

clean_env=(env -u OPENBLAS_CORETYPE -u ATEN_CPU_CAPABILITY -u EMBER_CPU_CAPABILITY -u OMP_NUM_THREADS)
LEVEL=${LEVEL:-}
ember_env=() stock_env=() tuned_env=(OPENBLAS_CORETYPE=SkylakeX ATEN_CPU_CAPABILITY=avx512)
case "$LEVEL" in
  "") ;;
  avx2 | avx512 | default)
    core=SkylakeX
    [ "$LEVEL" = avx2 ] && core=Haswell
    [ "$LEVEL" = default ] && core=Prescott
    ember_env=(EMBER_CPU_CAPABILITY="$LEVEL" OPENBLAS_CORETYPE="$core")
    stock_env=(ATEN_CPU_CAPABILITY="$LEVEL")
    tuned_env=(OPENBLAS_CORETYPE="$core" ATEN_CPU_CAPABILITY="$LEVEL")
    ;;
  *) echo "run.sh: LEVEL must be avx2, avx512 or default, not '$LEVEL'" >&2; exit 2 ;;
esac
{
  echo "# $(date -u) $(uname -n) load: $(cut -d' ' -f1-3 /proc/loadavg) level: ${LEVEL:-native}"
} >&2
for w in "${workloads[@]}"; do
  for ((r = 0; r < ROUNDS; r++)); do
    echo "run.sh: $w round $((r + 1))/$ROUNDS" >&2
    "${clean_env[@]}" "${ember_env[@]}" BENCH_CONFIG=default "$ember" --samples "$SAMPLES" "$w" >>"$OUT"
    if [ -x "$torch" ]; then
      "${clean_env[@]}" "${stock_env[@]}" BENCH_CONFIG=stock "$torch" --samples "$SAMPLES" "$w" >>"$OUT"
      "${clean_env[@]}" "${tuned_env[@]}" BENCH_CONFIG=tuned "$torch" --samples "$SAMPLES" "$w" >>"$OUT"
    fi
  done
done
echo "run.sh: samples in $OUT" >&2
python3 "$here/summarize.py" "$OUT"
