#!/bin/bash
# GPU (skips without one): the H200 session of #27 item 1. rung mcp runs 7 full
# checks of the demo's sgemm versions, stalls, then brief, and its stdin is
# closed: the server must end with exit 0 (it ended killed by SIGSEGV or
# SIGABRT in exit-time teardown), within the reap grace, with no child left.
# Run three times, with and without the stalls call, as the report did.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/mcp.stderr" ] && tail -30 "$T/mcp.stderr" | sed 's/^/  mcp stderr: /'; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
"$RUNG" check HEAD >"$T/probe" 2>&1; rc=$?
[ "$rc" = 4 ] && { echo "no GPU: skipped"; exit 77; }
for stalls in 1 0 1; do
	python3 - "$RUNG" "$stalls" <<'PY' || fail "the session (stalls=$stalls)"
import json, subprocess, sys, time, os
rung, stalls = sys.argv[1], sys.argv[2] == "1"
p = subprocess.Popen([rung, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(os.environ["T"] + "/mcp.stderr", "ab"))
n = 0
def request(method, params):
    global n
    n += 1
    p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": n, "method": method, "params": params}) + "\n").encode())
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the server closed its stdout during %s" % method)
        m = json.loads(line)
        if m.get("id") == n:
            return m
request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "gpu-exit"}})
revs = subprocess.run(["git", "log", "--format=%h", "-n", "7", "--", "sgemm.cu"], capture_output=True, text=True).stdout.split()
for r in revs:
    m = request("tools/call", {"name": "check", "arguments": {"rev": r, "force": True}})
    print("check", r, "exit", m["result"].get("_meta", {}).get("rung/exit"), flush=True)
if stalls:
    m = request("tools/call", {"name": "stalls", "arguments": {"rev": "HEAD"}})
    print("stalls exit", m["result"].get("_meta", {}).get("rung/exit"), flush=True)
m = request("tools/call", {"name": "brief", "arguments": {}})
print("brief exit", m["result"].get("_meta", {}).get("rung/exit"), flush=True)
p.stdin.close()
t0 = time.time()
try:
    rc = p.wait(60)
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit("the server did not end within 60 s of its stdin's end")
print("server exit %d after %.2f s" % (rc, time.time() - t0))
if rc != 0:
    sys.exit("the server ended with %d (a negative number: killed by that signal)" % rc)
kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
if kids:
    sys.exit("children left: %r" % kids)
PY
done
echo ok
