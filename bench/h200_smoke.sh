#!/usr/bin/env bash
# First GPU validation on the H200: run from the repo root on the device with
# binaries carried in .carry/bin and libraries in .carry/lib. Logs to $OUT.
set -u
ROOT=$PWD
B=$ROOT/.carry/bin
export LD_LIBRARY_PATH=$ROOT/.carry/lib:${LD_LIBRARY_PATH:-}
# The test binaries carry the source path they were built from: make it resolve here.
SRC=${RUNG_BUILT_SRC:-/tmp/rh}
mkdir -p "$SRC" && for d in tests examples; do ln -sfn "$ROOT/$d" "$SRC/$d"; done
mkdir -p "$SRC/build" && ln -sfn "$B/rung" "$SRC/build/rung"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
ldd "$B/rung" | grep "not found"
echo "== hello"; timeout 30 "$B/rung" worker </dev/null | head -c 700; echo
echo "== check tests/tasks/sgemm"; timeout 120 "$B/rung" check tests/tasks/sgemm; echo "rc=$?"
echo "== gpu_faults"; timeout 400 "$B/gpu_faults"; echo "rc=$?"
for d in tests/faults/*/; do
  echo "== fault $d"; RUNG_DEADLINE=5 timeout 60 "$B/rung" check --budget 0.5 "$d"; echo "rc=$?"
done
for t in sgemm softmax; do
  for f in examples/$t/ladder/*.cu; do
    n=$(basename "$f" .cu)
    cp "$f" "examples/$t/_$n.cu"
    echo "== $t $n"; timeout 90 "$B/rung" check --budget 1 "examples/$t/_$n.cu"; echo "rc=$?"
    rm -f "examples/$t/_$n.cu"
  done
done
