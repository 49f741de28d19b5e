#!/bin/bash
# The MCP tools and the CLI show one result (#26 item 1): on the demo
# repository without a GPU, each tool's structured content is what the
# command's --json prints (log's rows, compare, compare --stored, stalls), its text is what the
# command prints (log's table, the brief's markdown, dump's paths), and its
# exit code is the command's. With a GPU, compare and stalls measure twice:
# there the fields and the verdict kind must agree, not the figures.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task in the demo"
read -r B A <<<"$(git log --format=%h -2 -- sgemm.cu | tr '\n' ' ')"
[ -n "$A" ] && [ -n "$B" ] || fail "two sgemm versions"
cli() { # NAME ARGS...: stdout, stderr and the exit code of rung ARGS
	local n=$1; shift
	"$RUNG" "$@" >"$T/$n.out" 2>"$T/$n.err"; echo $? >"$T/$n.rc"
}
cli log log -n 3
cli logjson log --json -n 3
cli compare compare --json "$A" "$B"
cli brief brief -n 4
cli dump dump HEAD
cli stalls profile --stalls --json HEAD
cli stored compare --stored --json "$A" "$B"
{
	echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"log","arguments":{"n":3,"full":true}}}'
	echo "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"compare\",\"arguments\":{\"a\":\"$A\",\"b\":\"$B\"}}}"
	echo '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"brief","arguments":{"n":4}}}'
	echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"dump","arguments":{"rev":"HEAD"}}}'
	echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"stalls","arguments":{"rev":"HEAD"}}}'
	echo "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"compare\",\"arguments\":{\"a\":\"$A\",\"b\":\"$B\",\"stored\":true}}}"
} >"$T/in"
"$RUNG" mcp <"$T/in" >"$T/mcp.out" 2>"$T/mcp.err" || fail "rung mcp exited $?"
python3 - "$T" <<'PY' || fail "the MCP answers differ from the CLI's (above)"
import json, os, sys
T = sys.argv[1]
bad = []
def need(c, what):
    if not c:
        bad.append(what); print("FAIL:", what)
def rd(n, ext):
    return open(os.path.join(T, n + "." + ext), encoding="utf-8", errors="replace").read()
def rc(n):
    return int(rd(n, "rc"))
by = {}
for line in open(os.path.join(T, "mcp.out")):
    m = json.loads(line)
    by[m["id"]] = m["result"]
def text(i):
    return "".join(c["text"] for c in by[i]["content"])
def ex(i):
    return by[i]["_meta"]["rung/exit"]
# log: its rows are rung log --json's lines (full), its text rung log's table
rows = [json.loads(l) for l in rd("logjson", "out").splitlines() if l]
need(len(rows) == 3 and by[1]["structuredContent"]["rows"] == rows, "log rows == rung log --json")
need(text(1) == rd("log", "out") + "exit 0 (ok)\n", "log text == rung log's table: %r" % text(1)[-300:])
need(ex(1) == rc("log") == 0, "log exit")
# compare: rung compare --json's object, its exit code (with a GPU the two
# runs time apart: the same fields and verdict kind, the figures their own)
mc, cc = by[2]["structuredContent"], json.loads(rd("compare", "out"))
if cc["verdict"] in ("SKIPPED", "SAME"):
    need(mc == cc, "compare == rung compare --json")
    need(ex(2) == rc("compare"), "compare exit %d, CLI %d" % (ex(2), rc("compare")))
else:
    need(set(mc) == set(cc) and mc["verdict"] in ("SAME", "FASTER", "SLOWER", "SHARED", "FAILED", "DISAGREE"),
         "compare: the fields of rung compare --json: %r, %r" % (sorted(mc), sorted(cc)))
# brief: the markdown as rung brief prints it
need(text(3) == rd("brief", "out"), "brief text == rung brief")
need(by[3]["structuredContent"]["exit"] == rc("brief") and by[3]["structuredContent"]["bytes"] == len(rd("brief", "out").encode()),
     "brief exit and bytes")
# dump: the paths rung dump printed
paths = [os.path.realpath(p) for p in rd("dump", "out").splitlines()]
need(by[4]["structuredContent"]["paths"] == paths and len(paths) >= 4, "dump paths == rung dump's")
need(ex(4) == rc("dump"), "dump exit")
# stalls: rung profile --stalls --json's object (sampled on a GPU: the
# same fields and status, the samples their own run's)
ms, cs = by[5]["structuredContent"], json.loads(rd("stalls", "out").splitlines()[-1])
if cs["status"] != "ok":
    need(ms == cs, "stalls == rung profile --stalls --json")
else:
    need(set(ms) == set(cs) and ms["status"] == "ok", "stalls: the fields of rung profile --stalls --json")
need(ex(5) == rc("stalls"), "stalls exit %d, CLI %d" % (ex(5), rc("stalls")))
# compare with stored: rung compare --stored --json's object (nothing runs:
# the stored samples, the same verdict on any machine) and its exit code
ms, cs = by[6]["structuredContent"], json.loads(rd("stored", "out"))
need(ms == cs and "verdict" in cs, "compare stored == rung compare --stored --json: %r, %r" % (ms, cs))
need(ex(6) == rc("stored") != 0 if cs["verdict"] in ("FAILED", "OTHER_GPU", "SHARED") else ex(6) == rc("stored") == 0,
     "compare stored exit %d, CLI %d" % (ex(6), rc("stored")))
sys.exit(1 if bad else 0)
PY
echo ok
