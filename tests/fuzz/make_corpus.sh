#!/usr/bin/env bash
# Regenerates the seed corpora tests/fuzz/corpus/<parser>/ from the project's
# own files (kept small: a few KB each). Needs a normal build (BUILD, default
# build/) for `rung dump` (NVRTC; no GPU) and fuzz_seed_protocol.
#   tests/fuzz/make_corpus.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
C=tests/fuzz/corpus
rm -rf "$C"
mkdir -p "$C"/{spec,expr,launch,sass,npy,result,protocol,ptxas,theme,config,ncu,stall,import,cubin,mcp}

# spec: task files of the tests and the examples
cp tests/tasks/sgemm/rung.ini "$C/spec/tasks_sgemm.ini"
cp examples/sgemm/rung.ini "$C/spec/examples_sgemm.ini"
cp examples/softmax/rung.ini "$C/spec/examples_softmax.ini"
cp tests/faults/nan_output/rung.ini "$C/spec/faults_nan_output.ini"

# expr: every expression of every rung.ini in the tree, one per line, a file per key
for key in grid block smem shape value flops bytes; do
	grep -h "^$key *=" tests/tasks/*/rung.ini examples/*/rung.ini tests/faults/*/rung.ini \
		tests/exploits/*/rung.ini | sed "s/^$key *= *//" | sort -u >"$C/expr/$key"
done

# launch: the kernel sources' launch lines, each with a line of code around it
for f in tests/tasks/sgemm/sgemm.cu tests/faults/block_2048/kernel.cu tests/faults/too_much_smem/kernel.cu \
	examples/softmax/ladder/*.cu; do
	n=$(echo "$f" | tr / _)
	grep -B1 -A1 "// rung:" "$f" >"$C/launch/$n" || true
	[ -s "$C/launch/$n" ] || rm -f "$C/launch/$n"
done

# sass and ptxas: `rung dump` of tasks in the tree (NVRTC, sm_90)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for task in tests/tasks/sgemm tests/faults/launch_bounds tests/exploits/uninit_smem; do
	n=$(echo "$task" | tr / _)
	"$B/rung" dump -o "$T/$n" "$task" >/dev/null
	cp "$T/$n/ptxas.log" "$C/ptxas/$n.log"
	# the kernel's listing, cut to 4 KB at a line end
	head -c 4096 "$T/$n/kernel.sass" | sed '$d' >"$C/sass/$n.sass"
done
cp "$T/tests_tasks_sgemm/reference.ptxas.log" "$C/ptxas/reference.log"
# the fixture (nvdisasm -c of tests/fixtures/sgemm_copy4.cu), cut the same way
head -c 4096 tests/fixtures/sgemm_copy4.sass | sed "\$d" >"$C/sass/fixture_copy4.sass"

# npy: what numpy writes (tests/test_npy.c documents the layout), built with python3
python3 - "$C/npy" <<'PY'
import struct, sys
out = sys.argv[1]
def npy(name, descr, shape, data, major=1):
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    pre = 10 if major == 1 else 12
    pad = (64 - (pre + len(d) + 1) % 64) % 64
    h = (d + " " * pad + "\n").encode()
    head = b"\x93NUMPY" + bytes([major, 0]) + (struct.pack("<H", len(h)) if major == 1 else struct.pack("<I", len(h)))
    open("%s/%s" % (out, name), "wb").write(head + h + data)
npy("f4_2x3.npy", "<f4", (2, 3), struct.pack("<6f", 0, 1, 2, 3, 4, 5))
npy("f2_4.npy", "<f2", (4,), struct.pack("<4e", 0.5, -1, 2, 65504))
npy("bf16_2x2.npy", "<u2", (2, 2), struct.pack("<4H", 0x3f80, 0x4000, 0xbf80, 0x7f80))
npy("i8_3.npy", "<i8", (3,), struct.pack("<3q", -1, 0, 1 << 40))
npy("u1_scalar.npy", "|u1", (), b"\x07")
npy("v2_f8_2.npy", "<f8", (2,), struct.pack("<2d", 1.5, -2.25), major=2)
PY

# result: records as the store and `rung import` hold them (examples' recorded results)
python3 - "$C/result" <<'PY'
import json, sys
out = sys.argv[1]
for src, i, name in (("examples/sgemm/recorded.jsonl", 0, "sgemm_ok.json"),
                     ("examples/sgemm/recorded.jsonl", 4, "sgemm_failed.json"),
                     ("examples/softmax/recorded.jsonl", 0, "softmax_ok.json")):
    line = open(src).read().splitlines()[i]
    json.dump(json.loads(line)["result"], open("%s/%s" % (out, name), "w"), separators=(",", ":"))
PY

# ncu: the first lines of ncu's pages from the H200 (tests/fixtures/ncu/), and
# the details page's end, where a rule's description spans four lines
F=tests/fixtures/ncu
head -16 $F/regblock2d.details.csv >"$C/ncu/regblock2d.details.csv"
(head -1 $F/tf32.details.csv && tail -n 9 $F/tf32.details.csv) >"$C/ncu/tf32.details.tail.csv"
head -12 $F/regblock2d.source.csv >"$C/ncu/regblock2d.source.csv"
head -12 $F/tf32.source.csv >"$C/ncu/tf32.source.csv"

# stall: the H200's samples of the demo's first two softmax steps (their first
# 24 pcs), and a hand-made set with a _not_issued reason
python3 - "$C/stall" <<'PY'
import json, sys
for i, line in enumerate(open("examples/softmax/recorded.jsonl").readlines()[:2]):
    st = json.loads(line)["extras"]["stall"]
    st["records"] = st["records"][:24]
    open(f"{sys.argv[1]}/softmax{i}.json", "w").write(json.dumps(st, separators=(",", ":")))
open(f"{sys.argv[1]}/hand.json", "w").write(json.dumps({"function": "k", "period": 10, "total": 450, "dropped": 0,
    "reasons": ["long_scoreboard", "long_scoreboard_not_issued", "barrier", "selected"],
    "records": [[16, 0, 240, 1, 200, 3, 60], [32, 2, 100], [48, 3, 50]]}))
PY

# import: export lines of the demo's sgemm results, each profile extra cut to
# its first 12 records or lines (a few KB a line), one file each and one with
# the two lines together
python3 - "$C/import" <<'PY'
import json, sys
lines = open("examples/sgemm/recorded.jsonl").readlines()
out = []
for i in (0, 2):
    o = json.loads(lines[i])
    for kind, v in (o.get("extras") or {}).items():
        for k in ("records", "lines"):
            if k in v:
                v[k] = v[k][:12]
        if "sections" in v:
            v["sections"] = v["sections"][:2]
    out.append(json.dumps(o, separators=(",", ":")))
    open(f"{sys.argv[1]}/sgemm{i}.jsonl", "w").write(out[-1] + "\n")
open(f"{sys.argv[1]}/two.jsonl", "w").write("\n".join(out) + "\n")
PY

# cubin: the CUBINs `rung dump` writes for the sgemm task and its reference
cp "$T/tests_tasks_sgemm/kernel.cubin" "$C/cubin/sgemm.cubin"
cp "$T/tests_tasks_sgemm/reference.cubin" "$C/cubin/reference.cubin"

# protocol: frames written by rung_msg_write
"$B/fuzz_seed_protocol" . "$C/protocol"

# mcp: a session's messages (CRLF and a blank line too), a line over the harness's
# 64-byte cap before a good one, a last line without a newline
printf '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n\n' >"$C/mcp/session"
printf '{"jsonrpc":"2.0","id":2,"method":"%0200d"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n' 0 >"$C/mcp/over_cap"
printf '{"jsonrpc":"2.0","id":4,"method":"tools/list"}' >"$C/mcp/no_newline"

# theme: the shipped themes
cp themes/*.theme "$C/theme/"

# config: `theme = NAME` (docs/CLI.md), a comment, a blank line and another key
printf '# rung config\ntheme = light\n' >"$C/config/theme_light"
printf 'theme = high-contrast   # a comment\n\nother = value\n' >"$C/config/two_keys"

du -sh "$C"/*
