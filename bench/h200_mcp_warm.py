#!/usr/bin/env python3
"""#26 item 7 on the H200: N `check` calls through one `rung mcp` session (the warm
worker) against N one-shot `rung check` runs of the same task, interleaved in one
run (an MCP call, then a one-shot run, N times), after one untimed MCP call that
starts the warm worker. "(shared)": the bench saw another process on the GPU (for
the one-shot runs, the warm worker of the MCP session holds a context meanwhile). Times are wall clock from the request's line written to
the answer's line read (MCP) and from fork to exit (one-shot). Writes a markdown
table to stdout and to OUT_FILE.
usage: h200_mcp_warm.py RUNG TASKDIR [N] [OUT_FILE]"""
import json, os, statistics, subprocess, sys, time

rung, task = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
out_file = sys.argv[4] if len(sys.argv) > 4 else None
root = os.getcwd()
p = subprocess.Popen([rung, "mcp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(os.environ.get("OUT", "/tmp") + "/mcp_warm.stderr", "w"), text=True, bufsize=1)
mid = 0


def call(method, params):
    global mid
    mid += 1
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": mid, "method": method, "params": params}) + "\n")
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the server closed its stdout")
        m = json.loads(line)
        if m.get("id") == mid:
            return m


def mcp_check():
    t0 = time.perf_counter()
    m = call("tools/call", {"name": "check", "arguments": {"rev": task}})
    dt = time.perf_counter() - t0
    res = m.get("result", {})
    sc = res.get("structuredContent", {})
    bench = (sc.get("result") or {}).get("bench") or {}
    return dt, res.get("_meta", {}).get("rung/exit"), bench.get("median"), bool((bench.get("shared") or {}).get("procs"))


def cli_check():
    t0 = time.perf_counter()
    r = subprocess.run([rung, "check", "--json", task], cwd=root, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    try:
        j = json.loads(r.stdout.strip().splitlines()[-1])
    except Exception:
        j = {}
    bench = (j.get("result") or {}).get("bench") or {}
    return dt, r.returncode, bench.get("median"), bool((bench.get("shared") or {}).get("procs"))


call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "warm-bench"}})
first = mcp_check()
print("first MCP call (starts the warm worker): %.3f s, exit %r" % (first[0], first[1]), flush=True)
mcp, cli = [], []
for i in range(n):
    a = mcp_check()
    b = cli_check()
    mcp.append(a)
    cli.append(b)
    print("%2d  mcp %.3f s exit %r kernel %s ms%s   one-shot %.3f s exit %r kernel %s ms%s" %
          (i + 1, a[0], a[1], a[2], " (shared)" if a[3] else "", b[0], b[1], b[2], " (shared)" if b[3] else ""),
          flush=True)
p.stdin.close()
rc = p.wait(120)


def row(name, xs):
    t = [x[0] for x in xs]
    exits = sorted(set(x[1] for x in xs), key=str)
    return "| %s | %d | %.3f | %.3f | %.3f | %s |" % (name, len(t), statistics.median(t), min(t), max(t),
                                                      ",".join(str(e) for e in exits))


lines = ["| path (%s) | n | median s | min s | max s | exits |" % task, "|---|---|---|---|---|---|",
         row("MCP check, warm worker (one `rung mcp`)", mcp), row("one-shot `rung check`", cli),
         "", "first MCP call (worker start): %.3f s; server exit %d; goal: warm median <= 0.35 s: %s" %
         (first[0], rc, "no verdict (not every check passed: exits above)" if any(x[1] != 0 for x in mcp + cli)
          else "met" if statistics.median(x[0] for x in mcp) <= 0.35 else "NOT met")]
print("\n".join(lines))
if out_file:
    open(out_file, "w").write("\n".join(lines) + "\n")
