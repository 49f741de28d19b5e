#!/usr/bin/env bash
# rung brief's stall lines on the H200: the demo's sgemm ladder evaluated
# live, the best version's warps sampled, then the brief's best section.
set -u
. bench/h200_env.sh
D=/tmp/rung-demo-b; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
rung eval -C "$D" --task sgemm --all > /dev/null 2>&1
rung brief -C "$D" --task sgemm 2>&1 | sed -n '/^## Best passing version/,/^## Baseline/p'
best=$(rung brief -C "$D" --task sgemm 2>/dev/null | sed -n '/^## Best passing version/{n;n;p}' | cut -d' ' -f1)
echo "best: $best"
(cd "$D" && rung profile --stalls --task sgemm "$best" 2>&1 | tail -16)
rung brief -C "$D" --task sgemm 2>&1 | sed -n '/^## Best passing version/,/^## Baseline/p'
