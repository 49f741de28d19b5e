#!/usr/bin/env bash
# Probe and fixtures for the ncu kernel view (issue 15), on the H200:
#  1. CUPTI PC sampling from C (bench/probes/pcsamp_probe.c): stall reason names,
#     pc offsets, totals, with the module loaded before and after enabling;
#  2. ncu reports of demo versions (--set detailed), imported back as the
#     details, source (SASS) and raw pages in CSV: the parser fixtures of
#     tests/fixtures/ncu/.
# Everything lands in $OUT/ncu.tgz plus the log on stdout.
set -u
. bench/h200_env.sh
W=$(mktemp -d); F=$W/fx; mkdir -p "$F"
nvcc -O2 -lineinfo -arch=sm_90 -cubin -o "$W/k.cubin" bench/probes/pcsamp_probe_kernel.cu
gcc -O1 -o "$W/probe" bench/probes/pcsamp_probe.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcupti -lcuda -Wl,-rpath,/usr/local/cuda/lib64 || { echo "probe build failed"; }
echo "== probe: loaded before enable"; timeout 60 "$W/probe" "$W/k.cubin" work 4194304 0 0 2>&1 | head -40
echo "== probe: reloaded after enable"; timeout 60 "$W/probe" "$W/k.cubin" work 4194304 0 1 2>&1 | tail -3
echo "== probe: period 5"; timeout 60 "$W/probe" "$W/k.cubin" work 4194304 5 0 2>&1 | tail -2
nvdisasm -c -g "$W/k.cubin" | head -40 > "$F/probe.sass"
cp "$W/k.cubin" "$F/probe.cubin"
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
git -C "$D" log --format='%h %s' | head -30
pick() { git -C "$D" log --format='%h %s' -- "$1" | grep -F "$2" | head -1 | cut -d' ' -f1; }
for spec in "sgemm|sgemm/sgemm.cu|TF32 tensor cores (mma.sync m16n8k8), 128x128x64|tf32" "sgemm|sgemm/sgemm.cu|128x128 block tile|regblock2d" "softmax|softmax/softmax.cu||softmax"; do
  IFS='|' read -r task file subj tag <<< "$spec"
  if [ -n "$subj" ]; then rev=$(pick "$file" "$subj"); else rev=$(git -C "$D" log --format=%h -1 -- "$file"); fi
  lowered=$(cd "$D" && rung check --json --task $task "$rev" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["compile"]["lowered_name"])' 2>/dev/null)
  echo "== ncu $tag ($task $rev, kernel $lowered)"
  s=$(date +%s%N)
  (cd "$D" && timeout 300 ncu --clock-control none --target-processes all --kernel-name-base mangled --kernel-name "$lowered" \
     --launch-count 1 --set detailed --import-source no -f --export "$W/$tag" rung profile --launch-only --task $task "$rev") > "$W/$tag.log" 2>&1
  echo "ncu rc=$? in $(( ($(date +%s%N) - s) / 1000000 )) ms"; tail -3 "$W/$tag.log"
  ncu --import "$W/$tag.ncu-rep" --page details --csv > "$F/$tag.details.csv" 2> "$F/$tag.details.err"
  ncu --import "$W/$tag.ncu-rep" --page source --csv --print-source sass > "$F/$tag.source.csv" 2> "$F/$tag.source.err"
  ncu --import "$W/$tag.ncu-rep" --page raw --csv > "$F/$tag.raw.csv" 2> "$F/$tag.raw.err"
  ncu --import "$W/$tag.ncu-rep" --page details > "$F/$tag.details.txt" 2>&1
  wc -c "$F/$tag".*; head -c 600 "$F/$tag.source.csv"; echo
  python3 - "$F/$tag.raw.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) >= 3:
    h, u, v = rows[0], rows[1], rows[2]
    st = [(h[i], v[i]) for i in range(len(h)) if 'pcsamp' in h[i]]
    print(len(h), "raw metrics;", len(st), "pcsamp:", st[:40])
PY
done
ncu --version | tail -1
tar -C "$F" -czf "$O/ncu.tgz" . ; ls -la "$O"
rm -rf "$W"
