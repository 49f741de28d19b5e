#!/usr/bin/env bash
# Warp stall sampling on the H200 (issue 15 item 1): the PC sampling probe,
# `rung profile --stalls` on every demo version (its cost, against a plain
# `rung check`), and the top-5 stall reasons of rung against ncu's
# smsp__pcsamp_* for the same kernels, in one run. With RECORD=1 the demo
# ladders are also evaluated, profiled (counters, SASS counts, stalls) and
# exported with their extras into $OUT/recorded-<task>.jsonl.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader
if [ -f bench/probes/pcsamp_probe.c ]; then
  nvcc -O2 -lineinfo -arch=sm_90 -cubin -o "$W/k.cubin" bench/probes/pcsamp_probe_kernel.cu
  gcc -O1 -o "$W/probe" bench/probes/pcsamp_probe.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcupti -lcuda -Wl,-rpath,/usr/local/cuda/lib64
  echo "== probe"; timeout 60 "$W/probe" "$W/k.cubin" work 4194304 0 0 2>&1 | grep -v "^reasons" | head -24
  nvdisasm -c "$W/k.cubin" | grep -E "^\s+/\*0[0-9a-f]{3}\*/" | head -12
fi
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
if [ "${RECORD:-0}" = 1 ]; then
  for task in sgemm softmax; do
    s=$(date +%s%N); rung eval -C "$D" --task $task --all > /dev/null 2>&1; echo "eval $task: $(( ($(date +%s%N) - s) / 1000000 )) ms"
  done
fi
for task in sgemm softmax; do
  for rev in $(git -C "$D" log --format=%h -- "$task/$task.cu" | tac); do
    subj=$(git -C "$D" log -1 --format=%s "$rev" | cut -c1-60)
    s=$(date +%s%N); (cd "$D" && timeout 120 rung profile --stalls --task $task "$rev" > "$W/st.log" 2>&1); rc=$?
    ms=$(( ($(date +%s%N) - s) / 1000000 ))
    echo "-- $task $rev ($subj): rc=$rc ${ms} ms"; grep -A7 "^\[stalls\] [0-9]" "$W/st.log" | head -8; grep -E "^\[stalls\] (FAILED|SKIPPED)" "$W/st.log"
    if [ "${RECORD:-0}" = 1 ]; then
      (cd "$D" && rung profile --task $task "$rev" > /dev/null 2>&1; rung profile --sass --task $task "$rev" > /dev/null 2>&1)
    fi
  done
done
echo "== cost: rung check vs rung profile --stalls, the fastest sgemm"
rev=$(git -C "$D" log --format='%h %s' -- sgemm/sgemm.cu | grep -F "fix illegal address" | cut -d' ' -f1)
for i in 1 2 3; do
  s=$(date +%s%N); (cd "$D" && rung check --task sgemm "$rev" > /dev/null 2>&1); a=$(( ($(date +%s%N) - s) / 1000000 ))
  s=$(date +%s%N); (cd "$D" && rung profile --stalls --task sgemm "$rev" > "$W/st.log" 2>&1); b=$(( ($(date +%s%N) - s) / 1000000 ))
  s=$(date +%s%N); (cd "$D" && rung profile --sass --task sgemm "$rev" > /dev/null 2>&1); c=$(( ($(date +%s%N) - s) / 1000000 ))
  echo "check ${a} ms, profile --stalls ${b} ms, profile --sass ${c} ms"
done
head -3 "$W/st.log" | tail -1
echo "== rung against ncu: top-5 stall reasons (all samples), same kernels"
for spec in "sgemm|128x128 block tile" "sgemm|fix illegal address" "softmax|float4 body" "softmax|one warp per row"; do
  IFS='|' read -r task subj <<< "$spec"
  rev=$(git -C "$D" log --format='%h %s' -- "$task/$task.cu" | grep -F "$subj" | head -1 | cut -d' ' -f1)
  (cd "$D" && rung profile --stalls --json --task $task "$rev") > "$W/rung.json" 2>/dev/null
  lowered=$(cd "$D" && rung check --json --task $task "$rev" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["compile"]["lowered_name"])' 2>/dev/null)
  (cd "$D" && timeout 300 ncu --clock-control none --target-processes all --kernel-name-base mangled --kernel-name "$lowered" \
     --launch-count 1 --section SourceCounters --section WarpStateStats --page raw --csv rung profile --launch-only --task $task "$rev") > "$W/ncu.csv" 2>/dev/null
  python3 - "$W/rung.json" "$W/ncu.csv" "$task $rev $subj" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1])).get("stall")
rows = [x for x in csv.reader(open(sys.argv[2])) if x]
hdr = next((x for x in rows if "ID" in x[:2]), None)
P = "smsp__pcsamp_warps_issue_stalled_"
ncu = {}
if hdr:
    val = rows[rows.index(hdr) + 2]
    for h, v in zip(hdr, val):
        if h.startswith(P) and not h.endswith("_not_issued"):
            try: ncu[h[len(P):]] = float(v.replace(",", ""))
            except ValueError: pass
mine = {}
if r:
    for rec in r["records"]:
        for k in range(1, len(rec), 2):
            name = r["reasons"][rec[k]]
            if not name.endswith("_not_issued"):
                mine[name] = mine.get(name, 0) + rec[k + 1]
def top(d): 
    t = sum(d.values()) or 1
    return [(k, round(100 * v / t, 1)) for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:5]]
a, b = top(mine), top(ncu)
print(sys.argv[3])
print("  rung:", a, "total", sum(mine.values()))
print("  ncu: ", b, "total", sum(ncu.values()))
print("  same top-5 ranking:", [k for k, _ in a] == [k for k, _ in b], "; same top-5 set:", set(k for k, _ in a) == set(k for k, _ in b))
PY
done
if [ "${RECORD:-0}" = 1 ]; then
  for task in sgemm softmax; do rung export -C "$D" --task $task --out "$O/recorded-$task.jsonl"; done
  cat "$O"/recorded-*.jsonl | python3 -c 'import json,sys
for l in sys.stdin:
    o=json.loads(l); print(o["result"]["label"][:50], sorted(o.get("extras",{}).keys()))'
fi
rm -rf "$W"
