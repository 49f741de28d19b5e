#!/usr/bin/env bash
# The H200 run behind this session's recorded data and figures:
#  1. the demo ladders evaluated, then every version profiled four ways
#     (range-profiler counters, per-PC SASS counts, warp stall samples, ncu's
#     pages read back) and exported with their extras: $OUT/recorded-<task>.jsonl
#     (their "extras" go into examples/<task>/recorded.jsonl);
#  2. the Triton softmax: rung against do_bench and do_bench_cudagraph
#     (bench/h200_triton.sh) and against ncu's gpu__time_duration of the same
#     kernel launched by rung;
#  3. time to verdict and peak RSS, rung check against the Python loop
#     (bench/python_loop.py: cupy + torch + triton do_bench), interleaved,
#     RUNS times each, for the 4096^3 SGEMM, the demo softmax and a 2^20 saxpy.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem,driver_version --format=csv,noheader
if [ -z "${SKIP_DEMO:-}" ]; then
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
for task in sgemm softmax; do
  s=$(date +%s%N); rung eval -C "$D" --task $task --all > /dev/null 2>&1; echo "eval $task: $(( ($(date +%s%N) - s) / 1000000 )) ms"
done
for task in sgemm softmax; do
  for rev in $(git -C "$D" log --format=%h -- "$task" | tac); do
    git -C "$D" diff-tree --no-commit-id --name-only -r "$rev" | grep -q "^$task/" || continue
    line="-- $task $rev:"
    for mode in "" --sass --stalls --ncu; do
      s=$(date +%s%N); (cd "$D" && timeout 200 rung profile $mode --task $task "$rev" > "$W/p.log" 2>&1); rc=$?
      line="$line ${mode:-counters} rc=$rc $(( ($(date +%s%N) - s) / 1000000 ))ms;"
    done
    echo "$line"
  done
done
rung export -C "$D" --out "$W/all.jsonl" 2>&1
python3 - "$W/all.jsonl" "$O" <<'PY'
import json, sys
out = {t: open(f"{sys.argv[2]}/recorded-{t}.jsonl", "w") for t in ("sgemm", "softmax")}
for l in open(sys.argv[1]):
    o = json.loads(l)
    t = o["result"]["label"].split(":")[0]
    if t in out:
        out[t].write(l)
        print(t, o["result"]["label"][:44], sorted(o.get("extras", {})), len(l))
PY
fi
echo "== Triton softmax: rung, do_bench, ncu"
bash bench/h200_triton.sh > "$W/triton.log" 2>&1; grep -E "do_bench|\[bench\]|rung|median" "$W/triton.log" | grep -v "^\s*$" | tail -14
D2=/tmp/rung-demo-t; rm -rf "$D2"; rung demo --no-tui "$D2" > /dev/null 2>&1
rev=$(git -C "$D2" log --format=%h -1 -- softmax)
lowered=$(cd "$D2" && rung check --json --task softmax "$rev" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["compile"]["lowered_name"])')
for i in 1 2 3; do
  (cd "$D2" && ncu --target-processes all --kernel-name "$lowered" --launch-count 1 --metrics gpu__time_duration.sum --csv \
     rung profile --launch-only --task softmax "$rev" 2>/dev/null) | grep gpu__time_duration | tail -1
  (cd "$D2" && rung check --json --force --task softmax "$rev" 2>/dev/null) | python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("rung median %.6f ms n=%d %s" % (b["median"], b["n"], b.get("method","")))'
done
echo "== time to verdict: rung check against the Python loop"
S=$W/saxpy20; mkdir -p "$S"; cp bench/tasks/saxpy/*.cu "$S/"; sed 's/^N = .*/N = 1048576/' bench/tasks/saxpy/rung.ini > "$S/rung.ini"
for task in bench/tasks/sgemm4096 examples/softmax "$S"; do
  for i in $(seq ${RUNS:-3}); do
    echo "rung   $(basename $task) $(python3 bench/rusage.py rung check "$task" | grep -E '^\[(check|bench)\]|wall=' | tr '\n' ' ' | cut -c1-400)"
    echo "python $(basename $task) $(python3 bench/rusage.py python3 bench/python_loop.py "$task" 2>&1 | grep -E 'do_bench|python loop|wall=|max_abs|Error|error' | tr '\n' ' ' | cut -c1-400)"
  done
done
rm -rf "$W"
ls -la "$O"
