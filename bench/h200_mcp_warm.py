#!/usr/bin/env python3
"""#26 item 7 on the H200: N `check` calls through one `rung mcp` session (the warm
worker) against N one-shot `rung check` runs of the same task, interleaved in one
run (an MCP call, then a one-shot run, N times), after one untimed MCP call that
starts the warm worker. "(shared)": the bench saw another process on the GPU (for
the one-shot runs, the warm worker of the MCP session holds a context meanwhile). Times are wall clock from the request's line written to
the answer's line read (MCP) and from fork to exit (one-shot). Writes a markdown
table to stdout and to OUT_FILE.
KERNEL=new: the task is copied into a git repository of its own (as a user's task is),
and each round makes four calls: an MCP check and a one-shot check of the kernel as it
is (its CUBIN from the repository's CUBIN cache after the first), then of the kernel with
a new comment appended (a new CUBIN, as after an agent's edit: NVRTC runs).
usage: h200_mcp_warm.py RUNG TASKDIR [N] [OUT_FILE]"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

rung, task = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
out_file = sys.argv[4] if len(sys.argv) > 4 else None
root = os.getcwd()
newmode = os.environ.get("KERNEL") == "new"
if newmode:
    tmp = tempfile.mkdtemp()
    repo = os.path.join(tmp, "t")
    shutil.copytree(os.path.abspath(task), repo)
    env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b", GIT_COMMITTER_NAME="a",
               GIT_COMMITTER_EMAIL="a@b")
    for c in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "task"]):
        subprocess.run(["git", "-C", repo] + c, check=True, env=env)
    kernel = [l.split("=", 1)[1].strip() for l in open(os.path.join(repo, "rung.ini")) if l.startswith("kernel")][0]
    root, task = repo, "."


def touch_kernel():
    with open(os.path.join(root, kernel), "a") as f:
        f.write("\n// %.9f\n" % time.time())
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
mcp, cli, mcp_new, cli_new = [], [], [], []
for i in range(n):
    a = mcp_check()
    b = cli_check()
    mcp.append(a)
    cli.append(b)
    print("%2d  mcp %.3f s exit %r kernel %s ms%s   one-shot %.3f s exit %r kernel %s ms%s" %
          (i + 1, a[0], a[1], a[2], " (shared)" if a[3] else "", b[0], b[1], b[2], " (shared)" if b[3] else ""),
          flush=True)
    if newmode:
        touch_kernel()
        a = mcp_check()
        touch_kernel()
        b = cli_check()
        mcp_new.append(a)
        cli_new.append(b)
        print("%2d  new kernel: mcp %.3f s exit %r kernel %s ms   one-shot %.3f s exit %r kernel %s ms" %
              (i + 1, a[0], a[1], a[2], b[0], b[1], b[2]), flush=True)
p.stdin.close()
rc = p.wait(120)


def row(name, xs):
    t = [x[0] for x in xs]
    exits = sorted(set(x[1] for x in xs), key=str)
    return "| %s | %d | %.3f | %.3f | %.3f | %s |" % (name, len(t), statistics.median(t), min(t), max(t),
                                                      ",".join(str(e) for e in exits))


same = " (same kernel: CUBIN cached)" if newmode else ""
lines = ["| path (%s) | n | median s | min s | max s | exits |" % sys.argv[2], "|---|---|---|---|---|---|",
         row("MCP check, warm worker (one `rung mcp`)" + same, mcp), row("one-shot `rung check`" + same, cli)]
if newmode:
    lines += [row("MCP check, warm worker, new kernel each call (NVRTC runs)", mcp_new),
              row("one-shot `rung check`, new kernel each call (NVRTC runs)", cli_new)]
lines += [
         "", "first MCP call (worker start): %.3f s; server exit %d; goal: warm median <= 0.35 s: %s" %
         (first[0], rc, "no verdict (not every check passed: exits above)" if any(x[1] != 0 for x in mcp + cli)
          else "met" if statistics.median(x[0] for x in mcp) <= 0.35 else "NOT met")
         + ("; new kernel each call: %s" % ("no verdict" if any(x[1] != 0 for x in mcp_new + cli_new) else
                                              "met" if statistics.median(x[0] for x in mcp_new) <= 0.35 else "NOT met")
            if newmode else "")]
print("\n".join(lines))
if out_file:
    open(out_file, "w").write("\n".join(lines) + "\n")
