#!/usr/bin/env python3
"""The MCP session of #27 item 1 (bench/h200_mcp_exit.sh; the test is tests/sh/mcp_gpu_exit.sh): N `check` calls on the demo's sgemm versions,
optionally `stalls`, then `brief`, then EOF; prints the server's exit status.
usage: h200_mcp_exit.py RUNG DEMO_DIR [N] [--stalls]"""
import json, os, subprocess, sys, time

rung, demo = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else 7
stalls = "--stalls" in sys.argv
revs = subprocess.run(["git", "-C", demo, "log", "--format=%h", "--", "sgemm"], capture_output=True,
                      text=True).stdout.split()[:n]
p = subprocess.Popen([rung, "mcp"], cwd=os.path.join(demo, "sgemm"), stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
mid = 0
def call(method, params=None, note=False):
    global mid
    msg = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    if not note:
        mid += 1
        msg["id"] = mid
    p.stdin.write(json.dumps(msg) + "\n")
    p.stdin.flush()
    if note:
        return None
    line = p.stdout.readline()
    return json.loads(line) if line else None

call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
call("notifications/initialized", note=True)
for r in revs:
    t0 = time.time()
    a = call("tools/call", {"name": "check", "arguments": {"rev": r}})
    res = (a or {}).get("result", {})
    print(f"check {r}: exit={res.get('_meta', {}).get('rung/exit')} isError={res.get('isError')} {time.time()-t0:.2f}s")
if stalls:
    a = call("tools/call", {"name": "stalls", "arguments": {"rev": revs[0]}})
    print("stalls:", (a or {}).get("result", {}).get("_meta"))
a = call("tools/call", {"name": "brief", "arguments": {}})
print("brief:", "ok" if a and "result" in a else a)
p.stdin.close()
try:
    rc = p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill(); rc = "hung"
err = p.stderr.read()
print("server exit status:", rc)
if "crash_shim" in err:  # bench/probes/crash_shim.c: the backtrace, then the executable mappings
    i = err.index("crash_shim")
    print("--- server stderr before the crash (last 1500 chars):")
    print(err[max(0, i - 1500):i])
    print("\n".join(l for l in err[i:].splitlines() if "r-xp" in l or "/proc" not in l and " rw-p" not in l
                    and " r--p" not in l and " ---p" not in l)[:12000])
elif err.strip():
    print("--- server stderr (last 6000 chars):")
    print(err[-6000:])
