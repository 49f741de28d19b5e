#!/bin/bash
# The MCP check tool calls the check service (app/check.h), as `rung check`
# does, with a warm worker (#26 items 1 and 7):
# - the server's object refers to the service and not to the CLI's check
#   command (no argv, no captured stdout), and the hidden --lines-and-json
#   flag that existed only for it is gone;
# - a check cannot tell which front end called it: `rung check --json` and
#   the tool's structuredContent are the same object (timings and the CUBIN
#   cache flag aside, plus MCP's stop state);
# - a running compile that is cancelled stops holding the queue: the next call
#   is answered long before the abandoned NVRTC compile could have ended;
# - GPU (skipped without one): a faulting kernel through the warm worker is a
#   FAILED run rung (exit 1) and the next check passes on a fresh worker; a
#   GPU check cancelled mid-run resets the worker and the next one passes.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/mcp.stderr" ] && tail -20 "$T/mcp.stderr" | sed 's/^/  mcp stderr: /'; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com

# --- the symbols: the service, never the CLI command
obj=$(find "$(dirname "$RUNG")" -path '*rung_cli.dir/cli/cmd_mcp.c.o' -print -quit)
if command -v nm >/dev/null && [ -n "$obj" ]; then
	und=$(nm -u "$obj" | awk '{print $NF}')
	grep -qx 'rung_check' <<<"$und" || fail "cmd_mcp.c.o does not call the check service rung_check"
	grep -qx 'rung_check_to_json' <<<"$und" || fail "cmd_mcp.c.o does not use the one JSON serializer"
	! grep -qx 'rung_cmd_check' <<<"$und" || fail "cmd_mcp.c.o still runs the CLI's check command (rung_cmd_check)"
else
	echo "no nm or no cmd_mcp.c.o: the symbol part skipped"
fi

"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
"$RUNG" check --lines-and-json --compile-only >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] || { cat "$T/out"; fail "rung check --lines-and-json: exit $rc, not 2 (the MCP-only flag is gone)"; }

# a kernel NVRTC takes seconds over (tests/sh/mcp_concurrency.sh's, longer)
python3 - <<'PY' >slow.cu
body = "\n".join("    acc = acc * 1.0001f + sinf(acc + %d.0f) * A[(i + %d) %% 64];" % (k, k) for k in range(100))
print('''// rung: grid = cdiv(N,16), cdiv(M,16); block = 256
extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = B[i %% 64];
#pragma unroll 1
    for (int r = 0; r < 2; r++) {
%s
    }
    C[i] = acc;
}''' % body)
PY
# a kernel that writes through a null pointer (the GPU part)
cat >fault.cu <<'CU'
// rung: grid = cdiv(N,16), cdiv(M,16); block = 16, 16
extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    ((volatile float *)0)[threadIdx.x] = A[0]; /* an illegal address: a sticky error that kills the context */
}
CU
# a kernel that spins about 1.5 s a launch (the GPU part's cancel lands inside it)
cat >spin.cu <<'CU'
// rung: grid = cdiv(N,16), cdiv(M,16); block = 16, 16
extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    long long t0 = clock64();
    while (clock64() - t0 < 3000000000LL) {
    }
}
CU
# timed on a copy: slow.cu itself must not be in the task's CUBIN cache when
# the MCP session compiles it (and cancels that compile)
{ cat slow.cu; echo "// the timed copy"; } >slow_timed.cu
t0=$(date +%s.%N)
"$RUNG" check --compile-only slow_timed.cu >/dev/null 2>&1 || fail "rung check --compile-only slow_timed.cu exited $?"
slow=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$(date +%s.%N)")
echo "slow.cu compiles in $slow s"
"$RUNG" check --json --compile-only HEAD >"$T/cli.json" 2>/dev/null || fail "rung check --json --compile-only exited $?"
"$RUNG" check HEAD >"$T/probe" 2>&1; gpu=$?
[ "$gpu" = 4 ] && gpu=0 || gpu=1

python3 - "$RUNG" "$T/cli.json" "$slow" "$gpu" <<'PY' || fail "the MCP session (above)"
import json, os, subprocess, sys, time
rung, cli_json, slow, gpu = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] == "1"
fails = []
def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what, flush=True)
p = subprocess.Popen([rung, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(os.environ["T"] + "/mcp.stderr", "ab"))
got = {}
def send(obj):
    p.stdin.write((json.dumps(obj) + "\n").encode())
    p.stdin.flush()
def wait_for(i, timeout=300):
    t0 = time.time()
    while i not in got:
        line = p.stdout.readline()
        if not line:
            return None
        m = json.loads(line)
        got[m.get("id")] = (m, time.time())
        if time.time() - t0 > timeout:
            return None
    return got[i][0]
n = [0]
def call(args):
    n[0] += 1
    send({"jsonrpc": "2.0", "id": n[0], "method": "tools/call", "params": {"name": "check", "arguments": args}})
    m = wait_for(n[0])
    return m.get("result", {}) if m else {}
def text_of(res):
    return "".join(c.get("text", "") for c in res.get("content", []))
def plain(o):  # the JSON without what differs from run to run
    if isinstance(o, dict):
        return {k: plain(v) for k, v in o.items() if k not in ("ms", "cached", "stop")}
    if isinstance(o, list):
        return [plain(v) for v in o]
    return o

n[0] += 1
send({"jsonrpc": "2.0", "id": n[0], "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})
wait_for(n[0])

# the same check from both front ends: the same object
res = call({"rev": "HEAD", "compile_only": True})
check(not res.get("isError") and res.get("_meta", {}).get("rung/exit") == 0, "check compile_only: %r" % text_of(res)[:300])
sc = res.get("structuredContent", {})
cli = json.load(open(cli_json))
check("stop" in sc, "the tool's stop state is missing")
check(plain(sc) == plain(cli), "MCP's structuredContent differs from rung check --json:\n  mcp %s\n  cli %s" %
      (json.dumps(plain(sc), sort_keys=True)[:600], json.dumps(plain(cli), sort_keys=True)[:600]))
check(text_of(res).startswith("[compile] ok regs=") and "\nexit 0 (ok)\n" in text_of(res), "the text: %r" % text_of(res)[:300])

# a running compile cancelled: the next call does not wait for NVRTC
n[0] += 1
slow_id = n[0]
send({"jsonrpc": "2.0", "id": slow_id, "method": "tools/call", "params": {"name": "check", "arguments": {"rev": "slow.cu", "compile_only": True}}})
time.sleep(0.5)
send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": slow_id, "reason": "test"}})
t0 = time.time()
res = call({"rev": "HEAD", "compile_only": True})
took = time.time() - t0
print("the call after a cancelled compile of %.1f s answered in %.2f s" % (slow, took), flush=True)
check(not res.get("isError"), "the call after the cancelled compile: %r" % text_of(res)[:300])
# waited for, the compile would have had slow - 0.5 s to go before this call even began
check(took < slow - 0.5, "the call after a cancelled compile took %.2f s: it waited for NVRTC (%.1f s)" % (took, slow))
check(slow_id not in got, "the cancelled call was answered")

if gpu:
    # a faulting kernel through the warm worker: a verdict, and the next check passes
    res = call({"rev": "fault.cu"})
    sc = res.get("structuredContent", {})
    run = sc.get("steps", {}).get("run", {})
    print("fault.cu:", run, flush=True)
    check(not res.get("isError") and res.get("_meta", {}).get("rung/exit") == 1, "fault.cu: exit %r" % res.get("_meta"))
    check(run.get("status") == "FAILED" and "illegal" in run.get("reason", ""), "fault.cu: the run rung %r" % run)
    for k in range(2):
        t0 = time.time()
        res = call({"rev": "HEAD", "force": True})
        print("check HEAD after the fault: exit %r in %.2f s" % (res.get("_meta", {}).get("rung/exit"), time.time() - t0), flush=True)
        check(res.get("_meta", {}).get("rung/exit") == 0 and res.get("structuredContent", {}).get("status") == "ok",
              "check HEAD after the fault (%d): %r" % (k, text_of(res)[:400]))
    # a GPU check cancelled inside a kernel launch: the worker is killed and replaced, the next one passes
    n[0] += 1
    gid = n[0]
    send({"jsonrpc": "2.0", "id": gid, "method": "tools/call", "params": {"name": "check", "arguments": {"rev": "spin.cu"}}})
    time.sleep(1.5)
    send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": gid, "reason": "test"}})
    res = call({"rev": "HEAD", "force": True})
    check(res.get("_meta", {}).get("rung/exit") == 0, "check HEAD after a cancelled GPU check: %r" % text_of(res)[:400])
    check(gid not in got, "the cancelled GPU check was answered")
else:
    res = call({"rev": "HEAD"})
    check(res.get("_meta", {}).get("rung/exit") == 4 and "SKIPPED" in text_of(res), "no GPU: exit 4, SKIPPED: %r" % text_of(res)[:300])
    res = call({"rev": "HEAD"})
    check(res.get("_meta", {}).get("rung/exit") == 4, "no GPU, again: %r" % res.get("_meta"))
p.stdin.close()
rc = p.wait(120)
check(rc == 0, "exit %r at the end of input" % rc)
kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
check(not kids, "children left: %r" % kids)
sys.exit(1 if fails else 0)
PY
echo ok
