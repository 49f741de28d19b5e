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
for t in gpu_faults gpu_profile gpu_rev_store gpu_trace; do
  [ -x "$src/build/$t" ] && cp "$src/build/$t" .carry/bin/
done
scripts/carry-libs.sh .carry/bin/rung .carry/lib >/dev/null
# the plain-CUDA copy timing of bench/h200_final.sh (static cudart: nothing to carry)
if command -v nvcc >/dev/null; then
  nvcc -O3 -arch=sm_90 -o .carry/bin/copy_events bench/copy_events.cu
fi
du -sh .carry
