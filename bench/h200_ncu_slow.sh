#!/usr/bin/env bash
# ncu's pages of the demo's two slow SGEMM versions (naive, coalesced) for the
# recorded results: evaluated live first (the export takes live results),
# then rung profile --ncu, exported to $OUT/ncu-slow.jsonl for
# bench/merge_extras.py. Then the Triton softmax against ncu's
# gpu__time_duration with --clock-control none, as rung times it.
set -u
. bench/h200_env.sh
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
for subj in "naive kernel" "map threadIdx.x"; do
  rev=$(git -C "$D" log --format='%h %s' -- sgemm | grep -F "$subj" | cut -d' ' -f1)
  (cd "$D" && rung check --task sgemm "$rev" 2>&1 | grep -E "^\[bench\]")
  s=$(date +%s%N); (cd "$D" && timeout 300 rung profile --ncu --task sgemm "$rev" 2>&1 | grep -E "^\[ncu\] (imported|SOL)"); echo "ncu $rev: $(( ($(date +%s%N) - s) / 1000000 )) ms"
done
rung export -C "$D" --out "$O/ncu-slow.jsonl" 2>&1
rev=$(git -C "$D" log --format=%h -1 -- softmax)
lowered=$(cd "$D" && rung check --json --task softmax "$rev" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["compile"]["lowered_name"])')
for i in 1 2 3; do
  (cd "$D" && ncu --clock-control none --target-processes all --kernel-name "$lowered" --launch-count 1 --metrics gpu__time_duration.sum --csv \
     rung profile --launch-only --task softmax "$rev" 2>/dev/null) | grep gpu__time_duration | tail -1 | awk -F'","' '{print "ncu (clock-control none) gpu__time_duration", $NF}'
  (cd "$D" && rung check --json --force --task softmax "$rev" 2>/dev/null) | python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("rung median %.6f ms n=%d" % (b["median"], b["n"]))'
done
ls -la "$O"
