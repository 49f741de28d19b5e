#!/usr/bin/env python3
"""A scripted MCP client: drives `rung mcp` through a whole session on the
demo repository, without a GPU (tests/sh/mcp_session.sh runs it).

Every line the server writes on stdout must be one JSON-RPC 2.0 message that
answers the request just sent (notifications get none): anything else on
stdout fails the test."""
import json
import os
import subprocess
import sys

RUNG, TASKDIR = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


proc = subprocess.Popen([RUNG, "mcp"], cwd=TASKDIR, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=open(os.path.join(os.environ["T"], "mcp.stderr"), "w"))
next_id = [0]


def read_msg():
    line = proc.stdout.readline()
    if not line:
        raise SystemExit("FAIL: rung mcp closed stdout")
    try:
        msg = json.loads(line)
    except ValueError:
        raise SystemExit("FAIL: not protocol on stdout: %r" % line[:300])
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        raise SystemExit("FAIL: not a JSON-RPC 2.0 message: %r" % line[:300])
    return msg


def raw(text):
    proc.stdin.write(text.encode() + b"\n")
    proc.stdin.flush()
    return read_msg()


def request(method, params=None):
    next_id[0] += 1
    msg = {"jsonrpc": "2.0", "id": next_id[0], "method": method}
    if params is not None:
        msg["params"] = params
    reply = raw(json.dumps(msg))
    check(reply.get("id") == next_id[0], "%s: reply id %r, sent %d" % (method, reply.get("id"), next_id[0]))
    return reply


def notify(method):
    proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
    proc.stdin.flush()


def call(name, args=None):
    r = request("tools/call", {"name": name, "arguments": args or {}})
    check("result" in r, "tools/call %s: no result: %r" % (name, r))
    return r.get("result", {})


def text_of(res):
    return "".join(c.get("text", "") for c in res.get("content", []) if c.get("type") == "text")


# --- lifecycle: version negotiation -------------------------------------------
r = request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                           "clientInfo": {"name": "rung-test", "version": "1"}})
res = r.get("result", {})
check(res.get("protocolVersion") == "2025-11-25", "initialize: version %r" % res.get("protocolVersion"))
check(res.get("serverInfo", {}).get("name") == "rung", "initialize: serverInfo %r" % res.get("serverInfo"))
check("tools" in res.get("capabilities", {}) and "resources" in res.get("capabilities", {}),
      "initialize: capabilities %r" % res.get("capabilities"))
notify("notifications/initialized")  # no reply: the next line answers the ping
r = request("ping")
check(r.get("result") == {}, "ping: %r" % r)
r = request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "old", "version": "0"}})
check(r.get("result", {}).get("protocolVersion") == "2024-11-05", "an older client keeps its version: %r" % r)
r = request("initialize", {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "odd", "version": "0"}})
check(r.get("result", {}).get("protocolVersion") == "2025-11-25", "an unknown version gets the latest: %r" % r)

# --- tools/list ------------------------------------------------------------------
r = request("tools/list")
tools = {t["name"]: t for t in r.get("result", {}).get("tools", [])}
want = {"check", "dump", "stalls", "compare", "log", "brief", "directives", "ack_directive"}
check(set(tools) == want, "tools/list: %r" % sorted(tools))
for name, t in tools.items():
    s = t.get("inputSchema", {})
    check(s.get("type") == "object" and "task" in s.get("properties", {}), "%s: inputSchema %r" % (name, s))
check(tools.get("ack_directive", {}).get("inputSchema", {}).get("required") == ["id", "status", "reason"],
      "ack_directive: required arguments")

# --- check, compile only ------------------------------------------------------
res = call("check", {"compile_only": True})
check(not res.get("isError"), "check compile_only: isError: %s" % text_of(res))
sc = res.get("structuredContent", {})
check(sc.get("steps", {}).get("compile", {}).get("status") == "ok", "check: the result JSON's compile step: %r" % sc.get("steps"))
check(sc.get("kernel", {}).get("resources", {}).get("regs", 0) > 0, "check: kernel resources in the result JSON")
check("[compile] ok" in text_of(res), "check: the rung lines in the text: %r" % text_of(res)[:200])
res = call("check", {"rev": "no-such-rev", "compile_only": True})
check(res.get("isError") is True, "check of an unknown revision: isError")
check("not a task directory, file or git revision" in text_of(res), "check: rung's message: %r" % text_of(res))
res = call("check", {"rev": "--force"})
check(res.get("isError") is True, "a rev that looks like an option is refused")
res = call("check", {"compile_only": "yes"})
check(res.get("isError") is True and "compile_only" in text_of(res), "a mistyped argument: a tool error: %r" % res)

# --- stalls, without a GPU: the profile rung's cause, exit 4 ------------------------
res = call("stalls", {"rev": "HEAD"})
check(not res.get("isError"), "stalls: isError: %s" % text_of(res))
check(res.get("structuredContent", {}).get("status") == "SKIPPED", "stalls: status %r" % res.get("structuredContent"))
check(text_of(res).startswith("no stall samples: SKIPPED "), "stalls: the text says why: %r" % text_of(res)[:200])
check(res.get("_meta", {}).get("rung/exit") == 4, "stalls: exit 4 (no GPU): %r" % res.get("_meta"))

# --- dump -------------------------------------------------------------------------
res = call("dump", {"rev": "HEAD", "max_bytes": 1000})
check(not res.get("isError"), "dump: isError: %s" % text_of(res))
sc = res.get("structuredContent", {})
paths = sc.get("paths", [])
check(any(p.endswith("/kernel.ptx") and os.path.isfile(p) for p in paths), "dump: kernel.ptx among %r" % paths)
ptx = sc.get("ptx", {})
check(".entry" in ptx.get("text", "") or ".version" in ptx.get("text", ""), "dump: the PTX text")
check(ptx.get("truncated") is True and ptx.get("bytes", 0) > 1000, "dump: the PTX cut at max_bytes: %r" %
      {k: v for k, v in ptx.items() if k != "text"})
check(len(ptx.get("text", "")) < 1100, "dump: text bounded")
if any(p.endswith("/kernel.sass") for p in paths):
    check("sass" in sc and sc["sass"].get("text"), "dump: the SASS text")

# --- brief and directives -------------------------------------------------------------
res = call("brief")
md = text_of(res)
check(not res.get("isError") and "# rung brief: sgemm" in md, "brief: markdown: %r" % md[:200])
check("## Open directives" in md and "## Task-wide directives" in md, "brief: the directive sections")
# the markdown is sent once, as the text (#27): the structured content is its exit and size
sc = res.get("structuredContent", {})
check("markdown" not in sc and sc.get("exit") == 0 and sc.get("bytes", 0) >= len(md.encode()) - 64 and
      res.get("_meta", {}).get("rung/exit") == 0, "brief: structured content is the exit and the size: %r" % sc)
check("\x1b" not in md, "brief: inert")
res = call("directives")
ds = res.get("structuredContent", {}).get("directives", [])
mine = [d for d in ds if d.get("text") == "use float4 loads in the inner loop"]
check(len(mine) == 1 and mine[0]["status"] == "open" and len(mine[0]["id"]) == 8, "directives: the open one: %r" % ds)
tw = [d for d in ds if d.get("task_wide")]
check(len(tw) == 1 and tw[0]["text"] == "never loosen tolerances", "directives: the task-wide one: %r" % tw)
did = mine[0]["id"] if mine else "00000000"
check("[%s]" % did in md, "brief lists the directive's id %s" % did)
check("[%s] open" % did in text_of(res), "directives: text line with id and status: %r" % text_of(res))

res = call("ack_directive", {"id": did, "status": "declined", "reason": "C is odd in two shapes\x1b[2J"})
check(not res.get("isError"), "ack_directive: isError: %s" % text_of(res))
d = (res.get("structuredContent", {}).get("directives") or [{}])[0]
check(d.get("id") == did and d.get("status") == "declined", "ack: the directive now: %r" % d)
check(d.get("answer", {}).get("kind") == "declined" and "C is odd in two shapes" in (d.get("answer", {}).get("reason") or ""),
      "ack: the answer and reason: %r" % d.get("answer"))
check(d.get("answer", {}).get("by_version"), "ack: the answering version")
check("\x1b" not in json.dumps(res, ensure_ascii=False) and "\\x1b" in text_of(res), "ack: the reason inert: %r" % text_of(res))
res = call("directives")
check(all(x["id"] != did for x in res.get("structuredContent", {}).get("directives", [])), "declined: no longer open")
res = call("directives", {"all": True})
check(any(x["id"] == did and x["status"] == "declined" for x in res.get("structuredContent", {}).get("directives", [])),
      "directives all: the declined one")
res = call("ack_directive", {"id": "deadbeef", "status": "done", "reason": "x"})
check(res.get("isError") is True and "no directive deadbeef" in text_of(res), "ack of an unknown id: %r" % text_of(res))
res = call("ack_directive", {"id": did, "status": "maybe", "reason": "x"})
check(res.get("isError") is True, "ack with a bad status")
res = call("brief")
check("declined" in text_of(res) and "C is odd in two shapes" in text_of(res), "brief shows the declined directive and reason")

# --- log --------------------------------------------------------------------------------
res = call("log", {"n": 2})
check(not res.get("isError") and len(res.get("structuredContent", {}).get("rows", [])) == 2, "log: two rows: %r" % res)
check("VERSION" in text_of(res), "log: the table as text")

# --- resources ----------------------------------------------------------------------------
r = request("resources/list")
uris = [x["uri"] for x in r.get("result", {}).get("resources", [])]
check(any(u.startswith("rung://source/") for u in uris), "resources/list: sources: %r" % uris[:5])
check(any(u.startswith("rung://dump/") and u.endswith("/kernel.ptx") for u in uris), "resources/list: the dump")
r = request("resources/read", {"uri": "rung://source/HEAD"})
c = (r.get("result", {}).get("contents") or [{}])[0]
check("__global__" in c.get("text", "") and c.get("mimeType") == "text/x-cuda", "resources/read: the kernel source")
r = request("resources/read", {"uri": "rung://dump/HEAD/ptxas.log"})
check("ptxas" in ((r.get("result", {}).get("contents") or [{}])[0].get("text", "")), "resources/read: a dump file: %r" % r)
r = request("resources/read", {"uri": "rung://source/no-such-rev"})
check(r.get("error", {}).get("code") == -32002, "an unknown resource: -32002: %r" % r)
r = request("resources/templates/list")
check(len(r.get("result", {}).get("resourceTemplates", [])) == 2, "resource templates")

# --- malformed JSON-RPC -----------------------------------------------------------------------
def err_code(reply):
    return reply.get("error", {}).get("code")

r = raw("this is not json")
check(err_code(r) == -32700 and r.get("id") is None, "parse error: %r" % r)
r = raw('{"jsonrpc":"2.0","id":')
check(err_code(r) == -32700, "truncated JSON: %r" % r)
r = raw("[]")
check(err_code(r) == -32600, "a batch: invalid request: %r" % r)
r = raw('"a string"')
check(err_code(r) == -32600, "not an object: %r" % r)
r = raw('{"jsonrpc":"1.0","id":90,"method":"ping"}')
check(err_code(r) == -32600 and r.get("id") == 90, "jsonrpc 1.0: %r" % r)
r = raw('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}')
check(err_code(r) == -32600, "an object as id: %r" % r)
r = raw('{"jsonrpc":"2.0","id":91,"method":7}')
check(err_code(r) == -32600, "a number as method: %r" % r)
r = request("no/such/method")
check(err_code(r) == -32601, "unknown method: %r" % r)
r = request("tools/call", {"arguments": {}})
check(err_code(r) == -32602, "tools/call without a name: %r" % r)
r = request("tools/call", {"name": "no_such_tool"})
check(err_code(r) == -32602, "unknown tool: %r" % r)
r = request("tools/call", {"name": "check", "arguments": [1, 2]})
check(err_code(r) == -32602, "arguments not an object: %r" % r)
r = request("initialize", {})
check(err_code(r) == -32602, "initialize without a protocolVersion: %r" % r)
r = request("resources/read", {})
check(err_code(r) == -32602, "resources/read without a uri: %r" % r)
r = request("ping")  # still serving
check(r.get("result") == {}, "alive after the bad requests")

proc.stdin.close()
rest = proc.stdout.read()
check(rest == b"", "nothing after the last reply: %r" % rest[:200])
check(proc.wait(timeout=30) == 0, "rung mcp exits 0 at the end of stdin")
sys.exit(1 if failures else 0)
