#!/usr/bin/env bash
# The H200 session of 2026-12-01 (evening), in two parts so that each fits a
# 10-minute call. PART=A: every GPU test binary, the GPU-facing shell tests
# and the exploit suite three times more. PART=B: time to verdict before and
# after (.carry/bin/rung-before = 08e8e02), a printing flood, the 40-commit
# sweep (suspects counted), the durability runs of #30 and the pool on one GPU.
# Logs under $OUT. Binaries from scripts/build-carry.sh (RUNG_BEFORE=08e8e02).
set -u
. bench/h200_env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader
export RUNG=$B/rung RUNG_SRC=$ROOT
W=$(mktemp -d)
if [ "${PART:-A}" = A ]; then
  echo "== gpu tests"; STEPS=tests bash bench/h200_session.sh 2>&1 | grep -vE "^NVIDIA"
  echo "== gpu_exploits, three more runs"
  for i in 1 2 3; do timeout 240 "$B/gpu_exploits" > "$W/x.log" 2>&1; echo "run $i rc=$? $(tail -1 "$W/x.log")"; grep -E "^FAIL|CHECK" "$W/x.log" | head -5; cat "$W/x.log" >> "$O/exploits.log"; done
  echo "== shell tests that need the GPU"
  for t in mcp_gpu_exit signals mcp_limits mcp_concurrency pool_local tui_live watch sanitize check_suspect noop compare_nogpu; do
    [ -f tests/sh/$t.sh ] || continue
    s=$(date +%s); timeout 240 bash tests/sh/$t.sh > "$W/s.log" 2>&1; rc=$?
    echo "sh $t rc=$rc ($(( $(date +%s) - s )) s) $(tail -1 "$W/s.log" | cut -c1-160)"
    [ $rc != 0 ] && [ $rc != 77 ] && grep -E "FAIL" "$W/s.log" | head -5 | cut -c1-300
    cat "$W/s.log" >> "$O/shtests.log"
  done
else
  echo "== time to verdict, before (08e8e02) and after, interleaved"
  RUNS=3 STEPS=verdict bash bench/h200_session.sh 2>&1 | grep -vE "^NVIDIA"
  echo "== a printing flood (tests/exploits/print_flood)"
  s=$(date +%s.%N); timeout 120 rung check tests/exploits/print_flood > "$W/p.log" 2>&1; rc=$?
  echo "rc=$rc in $(echo "$(date +%s.%N) - $s" | bc) s"; grep -E "^\[(run|check|bench)\]" "$W/p.log" | cut -c1-240; head -c 300 "$W/p.log" | cat -v | head -3
  echo "== the 40-commit sweep"; AFTER_RUNS=4 timeout 200 bash bench/h200_sweep.sh 2>&1
  echo "== durability (#30)"; KILLS=${KILLS:-30} timeout 200 bash bench/h200_durability.sh 2>&1 | tail -25
  echo "== the pool on one GPU: local:0,0 on the sweep's first 10 versions"
  D=/tmp/rung-demo-p; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
  timeout 120 rung eval -C "$D" --task sgemm --all --stats --workers local:0,0 2>&1 | tail -16 | cut -c1-200
fi
rm -rf "$W"
