#!/usr/bin/env bash
# #27 item 1, second look: the session with a RelWithDebInfo rung under a
# crash shim (bench/probes/crash_shim.c: the backtrace on SIGSEGV/SIGABRT), and
# once under glibc's malloc checks.
set -u
. bench/h200_env.sh
D=/tmp/rung-demo-x; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
for i in 1 2 3; do echo "== shim run $i"; LD_PRELOAD=$ROOT/.carry/crash_shim.so python3 bench/h200_mcp_exit.py "$ROOT/.carry/rung-dbg" "$D" 7; done
md=$(ls /usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0 2>/dev/null)
[ -n "$md" ] && for i in 1 2; do echo "== malloc check run $i"; LD_PRELOAD="$md $ROOT/.carry/crash_shim.so" MALLOC_CHECK_=3 python3 bench/h200_mcp_exit.py "$ROOT/.carry/rung-dbg" "$D" 7; done
echo "== one check call only"; LD_PRELOAD=$ROOT/.carry/crash_shim.so python3 bench/h200_mcp_exit.py "$ROOT/.carry/rung-dbg" "$D" 1
echo "== CLI: rung check twice in one process is not possible; rung check once"; (cd $D/sgemm && "$ROOT/.carry/rung-dbg" check HEAD >/dev/null 2>&1; echo "cli check exit $?")
