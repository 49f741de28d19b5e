#!/usr/bin/env bash
# One H200 run after a change to the worker's timing: GPU tests, the copy
# against ncu by CUPTI mode (h200_fidelity.sh), the rung-vs-ncu table and
# rung compare (h200_bench.sh parts 2 and 3), rung ceilings, and the demo
# ladders evaluated, profiled and exported (h200_full.sh step demo). Logs to
# $OUT. Run from the repo root with binaries in .carry/bin.
set -u
. bench/h200_env.sh
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
echo "== gpu tests"
for t in gpu_faults gpu_profile gpu_rev_store gpu_trace; do
  timeout 300 "$B/$t" > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
done
echo "== fidelity"; timeout 200 bash bench/h200_fidelity.sh
echo "== rung vs ncu, compare"
COPY_SIZES="1048576 4194304 16777216 67108864 268435456" SGEMM_SIZES="1024 4096" PARTS="2 3" timeout 240 bash bench/h200_bench.sh
echo "== ceilings"; timeout 60 rung ceilings
echo "== demo"; STEPS=demo timeout 300 bash bench/h200_full.sh | grep -E "^== |^-- |\[bench\]|\[profile\]|recorded|rung eval|FAILED|failed" | head -80
