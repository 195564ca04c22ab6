#!/usr/bin/env bash
# Regenerates tests/golden/print.txt from LibTorch (Debian's libtorch-dev).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
g++ -std=c++17 -O0 gen_print.cpp -o "$tmp/gen_print" -I/usr/include/torch/csrc/api/include \
  -ltorch -ltorch_cpu -lc10
"$tmp/gen_print" > ../../tests/golden/print.txt
rm -rf "$tmp"
echo "wrote tests/golden/print.txt"
