#!/usr/bin/env bash
# The merged code of 2026-12-02 on the H200, in priority order, for a session
# with little device time left (about 150 s of command): each step under its
# own timeout, its lines appended to $OUT/s4.log as it ends, so a run stopped
# at the limit still says what it got. Binaries in .carry/bin
# (scripts/build-carry.sh). STEPS="a b c" picks steps (default: all, in order).
# LOG=file: the log (default $O/s4.log); TGZ=file: every step's logs in one
# archive at the end (the device gives back at most 8 files).
set -u
. bench/h200_env.sh
DEFAULT_LOG=s4.log
. bench/h200_steps.sh
say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
export RUNG=$B/rung RUNG_SRC=$ROOT RUNG_WORKER_EXE=$B/rung
step mcp_warm 40 env N=5 bash bench/h200_mcp_warm.sh
[ -f "$O/mcp_warm.md" ] && cat "$O/mcp_warm.md" >> "$L"
step laps 20 env RUNS=2 bash bench/h200_laps.sh
step mcp_gpu_exit 45 bash tests/sh/mcp_gpu_exit.sh
step faults 45 "$B/gpu_faults"
step l2hints 20 "$B/gpu_l2hints"
step exploits 70 "$B/gpu_exploits"
step gate 60 "$B/gpu_sanitize_gate"
step compare 40 "$B/gpu_compare"
say "# end $(date -u +%FT%TZ)"
[ -n "${TGZ:-}" ] && cp "$W"/*.out "$O"/ 2>/dev/null && tar czf "$TGZ" -C "$O" . 2>/dev/null
exit 0
