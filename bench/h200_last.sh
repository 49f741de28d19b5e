#!/usr/bin/env bash
# The session's last H200 call: every GPU test on the final code, ncu's pages
# read back through the final parser, the MCP stalls tool and rung brief's
# stall lines on a live result.
set -u
. bench/h200_env.sh
echo "== gpu tests"; STEPS=tests bash bench/h200_session.sh 2>&1 | grep -E " rc="
echo "== ncu import"; timeout 200 bash bench/h200_ncu_import.sh 2>&1 | grep -E "^\[ncu\] (imported|instructions|warp state)|sections:" | head -8
D=/tmp/rung-demo-m; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
rev=$(git -C "$D" log --format=%h -1 -- softmax)
(cd "$D" && rung check --task softmax "$rev" > /dev/null 2>&1)
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"stalls\",\"arguments\":{\"rev\":\"$rev\",\"task\":\"softmax\"}}}" |
  (cd "$D" && timeout 120 rung mcp 2>/dev/null) | tail -1 | python3 -c 'import json,sys; r=json.loads(sys.stdin.read())["result"]; print("mcp stalls:", r["content"][0]["text"][:600]); print("exit", r.get("_meta"))'
rung brief -C "$D" --task softmax 2>&1 | grep -A1 "where its warps wait"
