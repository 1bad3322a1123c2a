#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds mrlocal, then runs the demo or the
# test suite. The README's Quick start and .ci/run call this script.
#
#   bash tools/setup.sh demo            build, then: mrlocal wordcount --deadline 30s (on
#                                       the built-in corpus, generated in memory)
#   bash tools/setup.sh test            build, then the whole test suite (ctest), then the
#                                       fuzzers' smoke runs (a clang build in build-fuzz)
#   bash tools/setup.sh test --asan     the suite under AddressSanitizer + UBSan
#   bash tools/setup.sh test --tsan     the suite under ThreadSanitizer
#   bash tools/setup.sh test --fuzz     the fuzzers' smoke runs only (tests/fuzz/README.md)
#   bash tools/setup.sh build           build only
set -euo pipefail

mode=${1:-demo}
flavor=${2:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(cmake g++ make pkg-config xz-utils libboost-dev libxxhash-dev libmimalloc-dev
          libcli11-dev libgtest-dev libbenchmark-dev coinor-libclp-dev zlib1g-dev
          nlohmann-json3-dev openmpi-bin libopenmpi-dev libmrmpi-dev
          libssl-dev libsqlite3-dev  # mrlocal serve: request signing, its state
          clang libclang-rt-14-dev)  # clang and libFuzzer: the fuzzers of tests/fuzz
# Only the test suite's: Chromium for the web console's browser test, and a font for it to
# draw text with when headless.
test_packages=(chromium fonts-dejavu-core)
if [ "$mode" = test ] && [ "$flavor" != --fuzz ]; then packages+=("${test_packages[@]}"); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build="$root/build"
cmake_flags=(-DCMAKE_BUILD_TYPE=Release)
# ccache, when installed, makes rebuilds of other trees (worktrees, sanitizer builds) cheap.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
case "$flavor" in
  "") ;;
  --asan) build="$root/build-asan"; cmake_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMRLOCAL_ASAN=ON) ;;
  --tsan) build="$root/build-tsan"; cmake_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMRLOCAL_TSAN=ON) ;;
  --fuzz) ;;
  *) echo "setup: unknown flavor '$flavor' (use --asan, --tsan or --fuzz)" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)

# The fuzzers' smoke runs: the parsers and what they need (not the whole tree) built by
# clang with libFuzzer, ASan and UBSan in build-fuzz, then a few seconds of each fuzzer.
fuzz_smoke() {
  local fuzz_build="$root/build-fuzz"
  cmake -S "$root" -B "$fuzz_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMRLOCAL_FUZZ=ON \
    -DMRLOCAL_BENCHMARKS=OFF -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
  cmake --build "$fuzz_build" -j "$jobs" --target fuzz_targets
  (cd "$fuzz_build" && ctest --output-on-failure -j "$jobs" -L fuzz)
}
if [ "$flavor" = --fuzz ]; then
  [ "$mode" = test ] || { echo "setup: --fuzz goes with test" >&2; exit 2; }
  fuzz_smoke
  exit 0
fi

cmake -S "$root" -B "$build" "${cmake_flags[@]}" "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$jobs"

case "$mode" in
  demo) exec "$build/mrlocal" wordcount --deadline 30s ;;
  test)
    (cd "$build" && ctest --output-on-failure -j "$jobs")
    if [ -z "$flavor" ]; then fuzz_smoke; fi
    ;;
  build) ;;
  *) echo "setup: unknown mode '$mode' (use demo, test or build)" >&2; exit 2 ;;
esac
