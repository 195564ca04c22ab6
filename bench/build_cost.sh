#!/usr/bin/env bash
# Build-cost benchmark (issue: architecture and build cost): what a new user and
# CI pay to compile Ember. Prints one table for BENCHMARKS.md ("Build cost").
#   bench/build_cost.sh [build-dir]
# The build dir is built cold (ccache disabled) from the current checkout, so
# run it on an otherwise idle machine. Measures
#   - the cold build of the library and of the tests (CPU seconds summed over
#     .ninja_log, wall seconds of the whole build), and the 20 costliest steps;
#   - a LibTorch hello-world (torch::ones + print) compiled and linked against
#     the built tree with the flags `pkg-config --cflags --libs ember` gives;
#   - the stripped size of libember and the size of what it links at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-cost}
rm -rf "$dir"
export CCACHE_DISABLE=1
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

step() {  # step <label> <ninja targets...>: builds them, prints wall seconds
  local label=$1
  shift
  local t0
  t0=$(date +%s)
  cmake --build "$dir" -j "$(nproc)" --target "$@" >/dev/null
  echo "$label wall $(($(date +%s) - t0)) s"
}
step "library + main example" fashion_mnist
step "everything else (tests)" all

python3 - "$dir/.ninja_log" <<'PY'
import sys
steps = {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    start, end, _, out, _ = line.rstrip("\n").split("\t")
    steps[out] = (int(end) - int(start)) / 1000
lib = sum(t for o, t in steps.items() if o.startswith("CMakeFiles/ember.dir"))
tests = sum(t for o, t in steps.items() if o.startswith("tests/"))
print(f"steps {len(steps)}; CPU seconds: library {lib:.0f}, tests {tests:.0f}, all {sum(steps.values()):.0f}")
print("20 costliest steps (s):")
for o, t in sorted(steps.items(), key=lambda kv: -kv[1])[:20]:
    print(f"  {t:6.1f}  {o}")
PY

# The hello-world a LibTorch user writes, built as pkg-config says.
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$dir" --prefix "$prefix" >/dev/null
cat >"$prefix/hello.cpp" <<'CPP'
#include <torch/torch.h>
#include <iostream>
int main() { std::cout << torch::ones({2, 3}) << std::endl; }
CPP
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs ember)
compat="-I$prefix/include/ember-compat"
/usr/bin/time -f "hello-world compile+link: %e s wall, %U s user + %S s sys" \
  g++ -std=c++20 $compat "$prefix/hello.cpp" -o "$prefix/hello" $flags -Wl,-rpath,"$prefix/lib"
"$prefix/hello" >/dev/null
# User CPU time drifts on shared VMs; the compiler's instruction count does not.
if command -v valgrind >/dev/null; then
  cg=$(mktemp -d)
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$cg/cg.%p" \
    g++ -std=c++20 $compat $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags ember) \
    -c "$prefix/hello.cpp" -o "$cg/hello.o" >/dev/null 2>&1
  grep -h '^summary: ' "$cg"/cg.* | awk '{s += $2} END {printf "hello-world compile: %.3f G instructions\n", s / 1e9}'
  rm -rf "$cg"
fi

lib=$(readlink -f "$dir/libember.so")
strip -o "$prefix/libember.stripped" "$lib"
printf 'libember: %.1f MiB, stripped %.1f MiB\n' "$(stat -c %s "$lib" | awk '{print $1/1048576}')" \
  "$(stat -c %s "$prefix/libember.stripped" | awk '{print $1/1048576}')"
echo "linked at run time (ldd, sizes of the resolved files):"
ldd "$lib" | awk '/=> \//{print $3}' | sort -u | while read -r f; do
  printf '  %6.1f MiB  %s\n' "$(stat -L -c %s "$f" | awk '{print $1/1048576}')" "$f"
done
