#!/usr/bin/env bash
# Builds rung and the GPU tests (Release) for a GPU box that lacks libgit2 and
# friends: binaries into .carry/bin, the shared libraries they need into
# .carry/lib (scripts/carry-libs.sh). The build runs in a copy of the tree at
# /tmp/rh because the test binaries embed their source path; the bench/h200_*.sh
# scripts recreate that path on the GPU box with links into the carried tree.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
src=${RUNG_BUILT_SRC:-/tmp/rh}
mkdir -p "$src"
find "$src" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
git ls-files -co --exclude-standard -z | tar -C "$root" --null -T - -cf - | tar -C "$src" -xf -
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$src/build" -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
rm -rf .carry/bin .carry/lib
mkdir -p .carry/bin
cp "$src/build/rung" .carry/bin/
cp "$src/build/bench_tui_eval" .carry/bin/
for t in "$src"/build/gpu_*; do # every GPU test (tests/gpu_*.c)
  [ -x "$t" ] && cp "$t" .carry/bin/
done
# RUNG_BEFORE=<rev>: also the rung of that revision, as .carry/bin/rung-before
# (for measurements before and after a change in one run)
if [ -n "${RUNG_BEFORE:-}" ]; then
  old=${src}-before
  rm -rf "$old" && mkdir -p "$old"
  git archive "$RUNG_BEFORE" | tar -C "$old" -xf -
  cmake -S "$old" -B "$old/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$old/build" -j"$(nproc 2>/dev/null || echo 2)" --target rung >/dev/null
  cp "$old/build/rung" .carry/bin/rung-before
fi
scripts/carry-libs.sh .carry/bin/rung .carry/lib >/dev/null
# RUNG_ASAN=1: also an ASan+UBSan rung with debug info, as .carry/asan/rung, and
# its libraries (libasan, libubsan) in .carry/asan/lib; on the GPU box run it with
# ASAN_OPTIONS=protect_shadow_gap=0 (the CUDA driver maps the shadow gap)
if [ "${RUNG_ASAN:-0}" = 1 ]; then
  asan=${src}-asan
  rm -rf "$asan" && mkdir -p "$asan"
  git ls-files -co --exclude-standard -z | tar -C "$root" --null -T - -cf - | tar -C "$asan" -xf -
  cmake -S "$asan" -B "$asan/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNG_SANITIZE=ON >/dev/null
  cmake --build "$asan/build" -j"$(nproc 2>/dev/null || echo 2)" --target rung >/dev/null
  rm -rf .carry/asan && mkdir -p .carry/asan
  cp "$asan/build/rung" .carry/asan/
  scripts/carry-libs.sh .carry/asan/rung .carry/asan/lib >/dev/null
fi
# the plain-CUDA copy timing of bench/h200_final.sh (static cudart: nothing to carry)
if command -v nvcc >/dev/null; then
  nvcc -O3 -arch=sm_90 -o .carry/bin/copy_events bench/copy_events.cu
  nvcc -O2 -arch=sm_90 -o .carry/bin/printf_fifo bench/printf_fifo.cu
fi
du -sh .carry
