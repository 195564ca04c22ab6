#!/usr/bin/env bash
# Runs both sides of the vision-model benchmark in one go and prints Ember/LibTorch ratios
# (time ratios: below 1 means Ember is faster).
# Needs a build with -DEMBER_BUILD_BENCH=ON -DEMBER_BENCH_LIBTORCH=ON:
#   bench/vision_models/run.sh build [reps]
set -euo pipefail
build=${1:-build}
reps=${2:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 "$(dirname "$0")/export_torchscript.py" "$dir" >/dev/null
"$build/bench/vision_models/bench_vision_models" "$reps" >"$dir/ember.txt"
"$build/bench/vision_models/bench_vision_models_libtorch" "$dir" "$reps" >"$dir/libtorch.txt"
paste -d' ' "$dir/ember.txt" "$dir/libtorch.txt" | awk '{
  split($3, e, "="); split($6, l, "=");
  printf "%-24s %s ember %8.2f ms  libtorch %8.2f ms  ratio %.2f\n", $1, $2, e[2], l[2], e[2] / l[2] }'
# Faster R-CNN ResNet-50 FPN, one 800x800 image: Ember against torchvision's eager model.
"$build/bench/vision_models/bench_detection" "$(( (reps + 1) / 2 ))" >"$dir/ember_det.txt"
/usr/bin/python3 "$(dirname "$0")/bench_detection_torchvision.py" "$(( (reps + 1) / 2 ))" >"$dir/tv_det.txt"
paste -d' ' "$dir/ember_det.txt" "$dir/tv_det.txt" | awk '{
  split($3, e, "="); split($6, l, "=");
  printf "%-24s %s ember %8.2f ms  torchvision %8.2f ms  ratio %.2f\n", $1, $2, e[2], l[2], e[2] / l[2] }'
