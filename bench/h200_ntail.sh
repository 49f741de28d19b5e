#!/usr/bin/env bash
# The demo's faulty SGEMM step on the GPU (issue #17): examples/sgemm/ladder/
# 07-warptile-ntail.cu skips every group of four C columns that runs past N, so
# at the odd check sizes of examples/sgemm/rung.ini its check must fail with
# the last N % 4 columns unwritten and an error map that is U down the last
# tile column(s) and clean everywhere else (the pattern tests/test_demo_tailmap.c
# computes on the host); the bench shape and 1024x512x256 (N % 4 == 0) pass.
# Its fix, 07-warptile.cu, must pass every case. Prints one line per case and
# "ntail: ok" at the end, or the first mismatch and exit 1. Run from the repo
# root with binaries in .carry/bin (scripts/build-carry.sh).
set -u
. bench/h200_env.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
rc=0
for step in 07-warptile-ntail 07-warptile; do
	mkdir -p "$W/$step"
	cp examples/sgemm/rung.ini examples/sgemm/reference.cu "$W/$step/"
	cp "examples/sgemm/ladder/$step.cu" "$W/$step/sgemm.cu"
	rung check --json --budget 5 "$W/$step" >"$O/ntail-$step.json" 2>"$O/ntail-$step.err"
	echo "== $step: rung check exit $?"
	python3 - "$step" "$O/ntail-$step.json" <<'PY' || rc=1
import json, sys
step, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
res = doc.get("result", doc)
faulty = step.endswith("ntail")
def want_levels(h, w, rows, cols, tw):
    if not faulty or w % 4 == 0:
        return "." * (rows * cols)
    c0 = (w - w % 4) // tw
    return ("." * c0 + "U" * (cols - c0)) * rows
def expand(text):  # "c{k}" runs, as core/errmap.h writes them
    out, i = [], 0
    while i < len(text):
        c = text[i]; i += 1
        if i < len(text) and text[i] == "{":
            j = text.index("}", i); out.append(c * int(text[i + 1:j])); i = j + 1
        else:
            out.append(c)
    return "".join(out)
bad = 0
for m in res["metrics"]:
    d, mp = m["dims"], m.get("map")
    M, N = d["M"], d["N"]
    tail = N % 4 if faulty else 0
    line = "%s M=%d,N=%d,K=%d %s: pass=%s unwritten=%d mismatches=%d map=%s" % (
        step, M, N, d["K"], m.get("inputs", "normal"), m["pass"], m["unwritten"], m["mismatches"],
        (mp["levels"][:60] if mp else "NO MAP"))
    print(line)
    ok = mp is not None and m["pass"] == (tail == 0) and m["unwritten"] == M * tail and m["mismatches"] == M * tail
    if ok:
        ok = expand(mp["levels"]) == want_levels(mp["h"], mp["w"], mp["rows"], mp["cols"], mp["tile"][1])
    if not ok:
        print("  MISMATCH: expected pass=%s unwritten=%d and the map %s" % (
            tail == 0, M * tail, "U down the last tile column(s)" if tail else "clean"))
        bad += 1
print("check step:", res["steps"]["check"]["status"], res["steps"]["check"]["reason"][:160])
want = "FAILED" if faulty else "ok"
if res["steps"]["check"]["status"] != want:
    print("  MISMATCH: check status, expected", want); bad += 1
sys.exit(1 if bad else 0)
PY
done
[ $rc = 0 ] && echo "ntail: ok" || { echo "ntail: FAILED"; exit 1; }
