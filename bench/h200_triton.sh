#!/usr/bin/env bash
# The Triton softmax on the H200 (issue #16; docs/BENCHMARKS.md, "Triton
# kernels"): run from the repo root on the device after scripts/build-carry.sh,
# with triton and torch installed. It
#   1. runs examples/softmax-triton/triton_softmax.py (not rung: rung never runs
#      host code from a repository), which writes softmax.ptx and softmax.json,
#      and times the kernel with triton.testing.do_bench (median);
#   2. runs `rung check` on that PTX (ptxas ahead: Triton's bundled one) and on
#      the CUDA version of the same task, and `rung dump` of the PTX;
#   3. times the kernel with do_bench again, so that rung's median sits between
#      two do_bench medians of the same run.
# Everything lands in $OUT/softmax-triton/; commit softmax.ptx and softmax.json
# from there into examples/softmax-triton/.
set -u
. bench/h200_env.sh
D=$O/softmax-triton
mkdir -p "$D"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$D/gpu.txt"
python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)' | tee "$D/versions.txt"
TP=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))')
[ -x "$TP" ] && export RUNG_PTXAS=$TP && echo "ptxas: $TP ($("$TP" --version | tail -1))" | tee -a "$D/versions.txt"
T=$(mktemp -d /tmp/rung-triton.XXXXXX)
cp examples/softmax-triton/rung.ini examples/softmax-triton/reference.cu examples/softmax-triton/softmax.cu "$T/"
echo "== triton_softmax.py (1)"
python3 examples/softmax-triton/triton_softmax.py --out "$T" --bench 2>&1 | tee "$D/do_bench_1.txt"
cp "$T/softmax.ptx" "$T/softmax.json" "$D/"
echo "== rung check softmax.ptx (Triton)"
"$B/rung" check --budget 4 "$T" 2>&1 | tee "$D/check_triton.txt"; echo "rc=${PIPESTATUS[0]}" | tee -a "$D/check_triton.txt"
"$B/rung" check --json --budget 4 --force "$T" >"$D/check_triton.json" 2>"$D/check_triton.json.err"
echo "== rung check softmax.cu (CUDA, examples/softmax 04)"
"$B/rung" check --budget 4 "$T/softmax.cu" 2>&1 | tee "$D/check_cuda.txt"; echo "rc=${PIPESTATUS[0]}" | tee -a "$D/check_cuda.txt"
echo "== rung dump softmax.ptx"
"$B/rung" dump -o "$D/dump" "$T" 2>&1 | tee "$D/dump.txt"
echo "== triton_softmax.py (2)"
python3 examples/softmax-triton/triton_softmax.py --out "$T" --bench 2>&1 | tee "$D/do_bench_2.txt"
python3 - "$D" <<'PY' | tee "$D/summary.txt"
import json, re, sys
d = sys.argv[1]
def med(f, what="do_bench_median_ms"):
    m = re.search(what + r" ([0-9.]+)", open(f"{d}/{f}").read())
    return float(m.group(1)) if m else float("nan")
b1, b2 = med("do_bench_1.txt"), med("do_bench_2.txt")
g1, g2 = med("do_bench_1.txt", "do_bench_cudagraph_median_ms"), med("do_bench_2.txt", "do_bench_cudagraph_median_ms")
def find_median(o):
    if isinstance(o, dict):
        b = o.get("bench")
        if isinstance(b, dict) and isinstance(b.get("median"), (int, float)):
            return b["median"]
        for v in o.values():
            m = find_median(v)
            if m is not None:
                return m
    elif isinstance(o, list):
        for v in o:
            m = find_median(v)
            if m is not None:
                return m
    return None
try:
    rm = find_median(json.load(open(f"{d}/check_triton.json")))
except Exception:
    rm = None
print(f"do_bench median ms: {b1:.6f} (before), {b2:.6f} (after)")
print(f"rung median ms: {rm}")
print(f"do_bench_cudagraph median ms: {g1:.6f} (before), {g2:.6f} (after)")
if rm:
    ref = (b1 + b2) / 2
    print(f"rung / do_bench = {rm / ref:.4f} ({(rm / ref - 1) * 100:+.2f} %; done when within 2 %)")
    ref = (g1 + g2) / 2
    print(f"rung / do_bench_cudagraph = {rm / ref:.4f} ({(rm / ref - 1) * 100:+.2f} %)")
PY
rm -rf "$T"
