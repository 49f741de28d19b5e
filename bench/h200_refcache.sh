#!/usr/bin/env bash
# Issue #31 item 1, the CPU-side groundwork, on the H200: the time to verdict of
# `rung check` on the 4096^3 SGEMM (bench/tasks/sgemm4096) and the softmax demo
# task (examples/softmax), 5 runs each with the reference's CUBIN cache cold
# (the user's cache directory's cubin/ emptied before the run: NVRTC compiles the reference) and
# warm (read back), interleaved. Per run: the wall time from process start to
# exit (bench/rusage.py), the verdict lines, and the parent's laps (task load,
# store open, compile, worker start = the wait for the worker's hello, worker
# job); then the median wall per task and mode. The worker is started before
# the task is read (cli/cmd_check.c), so "worker start" is what the context
# still costs after the task load and both compiles.
# Logs to $OUT (one file per run). Run from the repo root (its own cache
# directory: RUNG_CACHE_DIR is set to a fresh one) with binaries in .carry/bin
# (scripts/build-carry.sh). RUNG_BIN=path/to/old/rung measures another build
# the same way (its "cold" and "warm" are then the same thing).
set -u
. bench/h200_env.sh
R=${RUNG_BIN:-$B/rung}
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null) rung=$R $("$R" --version 2>/dev/null | head -1)"
export RUNG_CACHE_DIR=$(mktemp -d)
cache=$RUNG_CACHE_DIR/cubin # (before 2026-12-02: the repository's .git/rung/cubin; RUNG_BIN of such a build: clear both)
[ -n "${RUNG_BIN:-}" ] && cache="$cache $(git rev-parse --absolute-git-dir)/rung/cubin"
laps='task load|store open|compile \(NVRTC|worker start|worker job'
for task in bench/tasks/sgemm4096 examples/softmax; do
  name=$(basename "$task")
  echo "== rung check $task (5 x cold, 5 x warm, interleaved)"
  : > "$O/refcache_walls_$name.txt"
  for i in 1 2 3 4 5; do
    for mode in cold warm; do
      # shellcheck disable=SC2086
      [ "$mode" = cold ] && rm -rf $cache
      log=$O/refcache_${name}_${mode}_$i.log
      RUNG_TIMING=1 timeout 120 python3 bench/rusage.py sh -c "'$R' check $task 2>&1" > "$log" 2>&1
      wall=$(sed -n 's/^wall=\([0-9.]*\)s.*/\1/p' "$log" | tail -1)
      echo "$mode $wall" >> "$O/refcache_walls_$name.txt"
      verdict=$(grep -E '^\[check\]|^\[bench\]' "$log" | tr '\n' ' ' | cut -c1-160)
      echo "-- $mode run $i: wall ${wall:-?} s  $verdict"
      grep -E "rung timing \[parent\] +($laps)" "$log" | sed 's/^rung timing \[parent\] */     /'
    done
  done
  for mode in cold warm; do
    med=$(awk -v m=$mode '$1 == m && $2 != "" { print $2 }' "$O/refcache_walls_$name.txt" | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
    echo "median wall $name $mode: ${med:-?} s"
  done
done
# the cache's key works on the device too: a warm check's verdict is the cold one's
echo "== --json of a warm check: the reference read back"
"$R" check --json bench/tasks/sgemm4096 2>/dev/null | python3 -c 'import json, sys; d = json.load(sys.stdin); print("reference cached:", d["reference"].get("cached"), "status:", d["status"])'
