#!/usr/bin/env bash
# Installs a built tree into a temporary prefix and builds a consumer against
# it with find_package(Ember) and with pkg-config: scripts/check-install.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$dir" --prefix "$prefix" >/dev/null
cmake -S tests/install -B "$prefix/consumer-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
"$prefix/consumer-build/consumer" >/dev/null
"$prefix/consumer-build/compat_consumer" >/dev/null
"$prefix/consumer-build/domain_consumer" >/dev/null
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" g++ tests/install/consumer.cpp -o "$prefix/consumer-pc" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs ember) -Wl,-rpath,"$prefix/lib"
"$prefix/consumer-pc" >/dev/null
echo "check-install: find_package(Ember) (plain, torch_compat, the domain components) and pkg-config consumers build and run"
