#!/usr/bin/env bash
# Installs every build, test and run dependency of Ember from Debian packages.
# Idempotent: does nothing when all packages are present. Needs root (or sudo).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  clang libclang-rt-14-dev libomp-dev
  libopenblas-openmp-dev liblapacke-dev libsleef-dev
  libdnnl-dev ocl-icd-opencl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libkissfft-dev libboost-dev
  zlib1g-dev libminizip-dev nlohmann-json3-dev
  libjpeg62-turbo-dev libpng-dev libwebp-dev libfreetype-dev fonts-dejavu-core
  libsndfile1-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev
  libgloo-dev libicu-dev libexpat1-dev libopenmpi-dev openmpi-bin
  dataset-fashion-mnist
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
