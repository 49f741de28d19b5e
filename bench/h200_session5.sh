#!/usr/bin/env bash
# The third session's first device call (2026-12-02 06:xx UTC): the laps of the
# one-shot verdict (#31 item 1), the warm MCP check (#26 item 7), the GPU tests
# not yet run on the merged code, and the pool on the one H200 (#29 item 6).
# Each step under its own timeout, its last lines appended to $LOG as it ends;
# STEPS="a b" picks steps; TGZ=file: every step's whole output in one archive.
# Binaries in .carry/bin (scripts/build-carry.sh).
set -u
. bench/h200_env.sh
DEFAULT_LOG=s5.log
. bench/h200_steps.sh
TAILN=${TAILN:-25}
say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>/dev/null)"
export RUNG=$B/rung RUNG_SRC=$ROOT RUNG_WORKER_EXE=$B/rung
step laps 90 env RUNS=3 bash bench/h200_laps.sh
step mcp_warm 90 env N=7 bash bench/h200_mcp_warm.sh
[ -f "$O/mcp_warm.md" ] && cat "$O/mcp_warm.md" >> "$L"
for t in faults devcheck inputs output profile rev_store scratch shared trace; do
  step "$t" 75 "$B/gpu_$t"
done
step pool 260 bash bench/h200_pool.sh
say "# end $(date -u +%FT%TZ)"
[ -n "${TGZ:-}" ] && cp "$W"/*.out "$O"/ 2>/dev/null && tar czf "$TGZ" -C "$O" --exclude="$(basename "$TGZ")" . 2>/dev/null
exit 0
