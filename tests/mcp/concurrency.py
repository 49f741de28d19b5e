"""rung mcp while a call runs (tests/sh/mcp_concurrency.sh, #27 item 4): ping,
tools/list, resources/list and the directives tool are answered while a check
compiles (their latency printed, and asserted under a bound loose enough for a
loaded machine); a queued call cancelled before it starts is never run nor
answered; the running call cancelled is not answered and the server goes on."""
import json, os, subprocess, sys, time

RUNG, TASK, BOUND_MS = sys.argv[1], sys.argv[2], float(sys.argv[3])
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


p = subprocess.Popen([RUNG, "mcp"], cwd=TASK, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(os.environ.get("T", "/tmp") + "/mcp.stderr", "ab"))
got = {}


def send(obj):
    p.stdin.write((json.dumps(obj) + "\n").encode())
    p.stdin.flush()


def wait_for(i, timeout=120):
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


send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})
wait_for(0)
slow = {"name": "check", "arguments": {"rev": "slow.cu", "compile_only": True}}
send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": slow})
time.sleep(0.3)  # the check is compiling
quick = [("ping", {}), ("tools/list", {}), ("resources/list", {}), ("tools/call", {"name": "directives", "arguments": {}})]
for k, (method, params) in enumerate(quick):
    i = 10 + k
    t0 = time.time()
    send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
    m = wait_for(i)
    ms = (got[i][1] - t0) * 1000 if m else -1
    print("%s answered in %.1f ms while the check ran%s" % (method, ms, "" if 1 not in got else " (it had ended)"))
    check(m is not None and "result" in m, "%s: answered: %r" % (method, m))
    check(1 not in got, "%s: the check had ended before (the kernel compiles too fast to tell)" % method)
    check(0 <= ms <= BOUND_MS, "%s: %.1f ms while a check runs (bound %.0f ms)" % (method, ms, BOUND_MS))
m = wait_for(1)
check(m and "result" in m, "the slow check answered: %r" % m)

# a queued call cancelled before it starts: never answered; the running one cancelled: not answered
slow2 = {"name": "check", "arguments": {"rev": "slow2.cu", "compile_only": True}}  # not cached: NVRTC runs
slow3 = {"name": "check", "arguments": {"rev": "slow3.cu", "compile_only": True}}
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": slow2})
send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": slow3})
time.sleep(0.2)
send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3, "reason": "test"}})
send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "test"}})
t0 = time.time()
send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "check", "arguments": {"rev": "HEAD", "compile_only": True}}})
m = wait_for(4)
check(m and "result" in m, "the call after the cancelled ones answered: %r" % m)
check(2 not in got and 3 not in got, "cancelled calls answered: %r" % sorted(k for k in got if k in (2, 3)))
p.stdin.close()
rc = p.wait(120)
check(2 not in got and 3 not in got, "cancelled calls answered at the end: %r" % sorted(k for k in got if k in (2, 3)))
check(rc == 0, "exit %r at the end of input" % rc)
sys.exit(1 if fails else 0)
