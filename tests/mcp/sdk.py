"""rung mcp through the official MCP Python SDK's stdio client (tests/sh/mcp_sdk.sh,
#27 item 8): the handshake; every tool with valid arguments, each
structuredContent validated against its outputSchema (jsonschema); every tool
with an unknown argument (isError, exit 2); a ping answered while a check
compiles; a call cancelled by the SDK (anyio cancel scope: notifications/cancelled)
and the session going on; the session closed mid-call (the server ends, no
child left). Exit 1 on any failure."""
import json, os, subprocess, sys, time

import anyio
import jsonschema
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

RUNG, TASK = sys.argv[1], sys.argv[2]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what, flush=True)


def params():
    return StdioServerParameters(command=RUNG, args=["mcp"], cwd=TASK)


VALID = {
    "check": {"rev": "HEAD", "compile_only": True},
    "dump": {"rev": "HEAD", "max_bytes": 2000},
    "stalls": {"rev": "HEAD"},
    "compare": {"a": "HEAD~1", "b": "HEAD"},
    "log": {"n": 3},
    "brief": {},
    "directives": {"all": True},
}


async def main():
    errlog = open(os.environ.get("T", "/tmp") + "/mcp.stderr", "a")
    async with stdio_client(params(), errlog=errlog) as (r, w):
        async with ClientSession(r, w) as s:
            init = await s.initialize()
            check(init.protocol_version == "2025-11-25", "protocol %r" % init.protocol_version)
            tools = {t.name: t for t in (await s.list_tools()).tools}
            check(set(VALID) | {"ack_directive"} == set(tools), "tools: %r" % sorted(tools))
            for name, args in VALID.items():
                res = await s.call_tool(name, args)
                sc = res.structured_content
                check(sc is not None, "%s: structured content" % name)
                try:
                    jsonschema.validate(sc, tools[name].output_schema)
                except jsonschema.ValidationError as e:
                    check(False, "%s: against its outputSchema: %s" % (name, e.message))
                meta = res.meta or {}
                check(isinstance(meta.get("rung/exit"), int), "%s: _meta rung/exit %r" % (name, meta))
                bad = dict(args, bogus_argument=1)
                res = await s.call_tool(name, bad)
                text = "".join(getattr(c, "text", "") for c in res.content)
                check(res.is_error and "unknown argument 'bogus_argument'" in text,
                      "%s with an unknown argument: %r" % (name, text[:200]))
            # a ping while a check compiles: answered before the check
            order = []

            async def slow():
                await s.call_tool("check", {"rev": "slow.cu", "compile_only": True})
                order.append("check")

            async def quick():
                await anyio.sleep(0.3)
                t0 = time.monotonic()
                await s.send_ping()
                order.append("ping")
                print("ping answered in %.1f ms while a check ran" % ((time.monotonic() - t0) * 1000), flush=True)

            async with anyio.create_task_group() as tg:
                tg.start_soon(slow)
                tg.start_soon(quick)
            check(order == ["ping", "check"], "a ping waited for the check: %r" % order)
            # cancelled by the SDK: the session goes on
            with anyio.move_on_after(0.5):
                await s.call_tool("check", {"rev": "slow.cu", "compile_only": True})
            t0 = time.monotonic()
            await s.send_ping()
            check(time.monotonic() - t0 < 2.0, "a ping after a cancelled call took %.1f s" % (time.monotonic() - t0))
            res = await s.call_tool("directives", {})
            check(not res.is_error, "a call after the cancelled one")
    # closed mid-call: the server ends, no child left
    pids = []
    with anyio.move_on_after(60):
        async with stdio_client(params(), errlog=errlog) as (r, w):
            async with ClientSession(r, w) as s:
                await s.initialize()
                # this session's server only: a child of this process (other tests run servers too)
                out = subprocess.run(["pgrep", "-P", str(os.getpid()), "-f", "^" + RUNG + " mcp"], capture_output=True,
                                     text=True).stdout
                pids = [int(p) for p in out.split()]
                with anyio.move_on_after(0.5):
                    await s.call_tool("check", {"rev": "slow.cu", "compile_only": True})
    check(pids, "the session's server was not found (pgrep -P)")
    time.sleep(1)
    alive = [p for p in pids if os.path.exists("/proc/%d" % p) and
             open("/proc/%d/stat" % p).read().split()[2] != "Z"]
    check(not alive, "servers left after the session closed mid-call: %r" % alive)


anyio.run(main)
sys.exit(1 if fails else 0)
