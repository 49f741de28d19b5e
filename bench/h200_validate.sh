#!/usr/bin/env bash
# One H200 call that checks this session's GPU-facing work: every GPU test
# (or TESTS=...), the L1 ceiling (bench/h200_ceil_l1.sh), ncu's pages read back
# (bench/h200_ncu_import.sh) and stall sampling of the Triton PTX version.
# Logs on stdout; files tarred into $OUT/validate.tgz.
set -u
. bench/h200_env.sh
S=$(date +%s)
echo "== gpu tests"; STEPS=tests bash bench/h200_session.sh 2>&1 | grep -v "^NVIDIA H200,"
echo "(tests: $(( $(date +%s) - S )) s)"
echo "== L1 ceiling"; timeout 180 bash bench/h200_ceil_l1.sh 2>&1 | tail -40
echo "== ncu import"; timeout 240 bash bench/h200_ncu_import.sh 2>&1 | tail -60
echo "== stalls of the Triton version (PTX)"
D=/tmp/rung-demo-v; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
rev=$(git -C "$D" log --format=%h -1 -- softmax)
(cd "$D" && timeout 120 rung profile --stalls --task softmax "$rev" 2>&1 | head -30)
echo "(all: $(( $(date +%s) - S )) s)"
cd "$O" && tar czf validate.tgz --exclude=validate.tgz . 2>/dev/null; ls -la "$O" | head
