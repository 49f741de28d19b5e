#!/usr/bin/env bash
# #26 item 7 on the H200: the warm MCP check against the one-shot `rung check`
# on the 4096^3 SGEMM (bench/tasks/sgemm4096), interleaved in one run
# (bench/h200_mcp_warm.py): N=10 each, median, min, max; the table in
# $O/mcp_warm.md. Goal: the warm MCP check's median <= 0.35 s.
set -u
. bench/h200_env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader
python3 bench/h200_mcp_warm.py "$B/rung" bench/tasks/sgemm4096 "${N:-10}" "$O/mcp_warm.md" # KERNEL=new: both kinds of call
# where a warm call's time goes: 3 more calls in a session of their own with the
# parent's laps (RUNG_TIMING=1: task load, store open, compile, worker job) on its stderr
RUNG_TIMING=1 OUT="$O/timing" N=3 bash -c 'mkdir -p "$OUT"; python3 bench/h200_mcp_warm.py "$0" bench/tasks/sgemm4096 3 "$OUT/mcp_warm.md"' "$B/rung" > "$O/mcp_warm_timing.txt" 2>&1
grep -E 'rung timing \[parent\]' "$O/timing/mcp_warm.stderr" | tail -12
