#!/usr/bin/env bash
# The last H200 call of the 2026-12-01 evening session: every GPU test on the
# final code; ncu's pages of the two slow demo versions (naive, coalesced),
# which the 10 s deadline had killed under ncu's replays, exported for
# bench/merge_extras.py; time to verdict, rung check against the Python loop.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem,driver_version --format=csv,noheader
echo "== gpu tests"; STEPS=tests bash bench/h200_session.sh 2>&1 | grep -E " rc=" 
grep -E "passed, [0-9]+ failed" "$O/gputests.log" | tr '\n' ' '; echo
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
for subj in "naive kernel" "map threadIdx.x"; do
  rev=$(git -C "$D" log --format='%h %s' -- sgemm | grep -F "$subj" | cut -d' ' -f1)
  s=$(date +%s%N); (cd "$D" && timeout 300 rung profile --ncu --task sgemm "$rev" 2>&1 | grep -E "^\[ncu\]" | head -4); echo "ncu $rev: $(( ($(date +%s%N) - s) / 1000000 )) ms"
done
rung export -C "$D" --out "$O/ncu-slow.jsonl" 2>&1
echo "== time to verdict: rung check against the Python loop"
S=$W/saxpy20; mkdir -p "$S"; cp bench/tasks/saxpy/*.cu "$S/"; sed 's/^N = .*/N = 1048576/' bench/tasks/saxpy/rung.ini > "$S/rung.ini"
for task in bench/tasks/sgemm4096 examples/softmax "$S"; do
  echo "-- $(basename $task) (python loop alone, its output):"; timeout 120 python3 bench/python_loop.py "$task" 2>&1 | tail -4
  for i in $(seq ${RUNS:-3}); do
    echo "rung   $(basename $task) $(python3 bench/rusage.py rung check "$task" | grep -E '^\[bench\]|wall=' | tr '\n' ' ' | cut -c1-300)"
    echo "python $(basename $task) $(python3 bench/rusage.py python3 bench/python_loop.py "$task" 2>&1 | grep -E 'do_bench|python loop|wall=' | tr '\n' ' ' | cut -c1-300)"
  done
done
rm -rf "$W"; ls -la "$O"
