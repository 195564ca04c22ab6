#!/usr/bin/env bash
# PyTorch 1.13.1's own C++ API tests (test/cpp/api) compiled unchanged against Ember
# (issue: LibTorch compatibility). Not part of CI: it takes 20-40 minutes.
#   scripts/peer-tests.sh [build-dir] [work-dir]
# Fetches PyTorch's source package from the Debian registry this machine already uses,
# through a private apt configuration (a deb-src entry for the same mirror and suite, its own
# state and cache directories; the machine's apt state is not touched), installs the build
# dir's Ember into the work dir, and runs scripts/peer_tests.py, which prints per-file and
# total compiled/passed/failed (record the table in docs/compat.md). Nothing of PyTorch is
# kept in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(realpath -m "${2:-/tmp/ember-peer-tests}")
mkdir -p "$work/apt/etc" "$work/apt/lists/partial" "$work/apt/cache/archives/partial"

# The machine's first Debian entry: deb822 (.sources) or one-line (.list) form.
mirror="" suite=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  mirror=$(awk '/^URIs:/ {print $2; exit}' "$f")
  suite=$(awk '/^Suites:/ {print $2; exit}' "$f")
  [ -n "$mirror" ] && break
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  read -r mirror suite < <(awk '$1 == "deb" {print $2, $3; exit}' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "peer-tests: no Debian entry in the apt sources" >&2; exit 1; }
echo "deb-src $mirror $suite main" >"$work/apt/etc/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/apt/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)

src="$work/pytorch-1.13.1"
if [ ! -d "$src/test/cpp/api" ]; then
  apt-get "${apt_opts[@]}" -qq update
  # Only the upstream tarball is needed; a missing Debian delta does not matter.
  (cd "$work" && apt-get "${apt_opts[@]}" -qq source --download-only pytorch) || true
  orig=$(ls "$work"/pytorch_1.13.1*.orig.tar.* 2>/dev/null | head -1)
  [ -n "$orig" ] || { echo "peer-tests: PyTorch 1.13.1's source did not download" >&2; exit 1; }
  tar -xf "$orig" -C "$work" pytorch-1.13.1/test/cpp/api pytorch-1.13.1/test/cpp/common
fi

cmake --build "$build" --target ember >/dev/null
rm -rf "$work/prefix"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
python3 scripts/peer_tests.py "$src" "$work/prefix" "$work/out"
