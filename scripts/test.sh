#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: a -Werror build and an
# ASan+UBSan build, each with ctest. GPU tests skip (exit 77) without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DRUNG_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
if [ "${RUNG_SKIP_SANITIZE:-0}" != 1 ]; then
  cmake -S . -B build-asan -DRUNG_WERROR=ON -DRUNG_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi
