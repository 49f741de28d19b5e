#!/usr/bin/env bash
# The third session's last device call (2026-12-02): the merged code (the
# workbench's first frame before its results, the kernel's CUBIN cache, the
# device check's feed, the bench's warm-up rule) on the H200: the workbench
# opened on the demo evaluates by itself and its rows fill in (screen dumps at
# 0, 10 and 35 s), the workbench's in-process evaluation against rung eval
# (bench/h200_tui_eval.sh, one round), and the GPU tests. Logs in $OUT.
set -u
. bench/h200_env.sh
DEFAULT_LOG=s6.log
. bench/h200_steps.sh
say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
export RUNG=$B/rung RUNG_SRC=$ROOT RUNG_WORKER_EXE=$B/rung
TAILN=80 step tui_auto 60 bash -c tui_auto
step tui_eval 120 env ROUNDS=1 bash bench/h200_tui_eval.sh
for t in devcheck faults exploits sanitize_gate rev_store compare; do
  step "$t" 120 "$B/gpu_$t"
done
say "# end $(date -u +%FT%TZ)"
[ -n "${TGZ:-}" ] && cp "$W"/*.out "$O"/ 2>/dev/null && tar czf "$TGZ" -C "$O" --exclude="$(basename "$TGZ")" . 2>/dev/null
exit 0
