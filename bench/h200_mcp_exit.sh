#!/usr/bin/env bash
# #27 item 1 on the H200: the MCP session (7 checks, brief, EOF; once more with
# stalls) three times with the Release binary, then once with an ASan+UBSan
# build (.carry/asan/rung, scripts/build-carry.sh with RUNG_ASAN=1) for the stack.
set -u
. bench/h200_env.sh
D=/tmp/rung-demo-x; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
for i in 1 2 3; do echo "== release run $i"; python3 bench/h200_mcp_exit.py "$B/rung" "$D" 7 $([ $i = 2 ] && echo --stalls); done
if [ -x "$ROOT/.carry/asan/rung" ]; then
  export LD_LIBRARY_PATH=$ROOT/.carry/asan/lib:$LD_LIBRARY_PATH
  export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:abort_on_error=0:print_stacktrace=1 UBSAN_OPTIONS=print_stacktrace=1
  for i in 1 2; do echo "== asan run $i"; python3 bench/h200_mcp_exit.py "$ROOT/.carry/asan/rung" "$D" 7 $([ $i = 2 ] && echo --stalls); done
fi
command -v gdb >/dev/null && echo "gdb: $(command -v gdb)" || echo "no gdb"
