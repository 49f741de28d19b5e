#!/bin/bash
# Directive answers keep their history (#27 item 2): the person's --close stands
# when the agent answers after it (the agent's answer is kept and shown beside
# it, in rung brief, the note and the MCP directives tool); the same answer
# again is exit 0 and written once; a done then a declined keeps both, the last
# standing. `rung note --ack ID` without a reason says the reason is missing
# (exit 2) instead of asking for a REV (#27 item 7).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
"$RUNG" note HEAD keep FP32 for this task >/dev/null 2>&1 || fail "rung note exited $?"
id=$("$RUNG" brief | sed -n 's/^- \[\([0-9a-f]\{8\}\)\] .*: keep FP32 for this task$/\1/p' | head -1)
[ -n "$id" ] || fail "no id for the new directive in the brief"
"$RUNG" note --ack "$id" >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] || fail "note --ack ID without a reason: exit $rc, not 2"
grep -q "needs the reason" "$T/out" || { cat "$T/out"; fail "note --ack ID without a reason: the message does not name the reason"; }
grep -q "expected REV" "$T/out" && fail "note --ack ID without a reason still asks for a REV"
"$RUNG" note --close "$id" "person: not now" >/dev/null 2>&1 || fail "note --close exited $?"
"$RUNG" note --ack "$id" "agent: did it anyway" >/dev/null 2>&1 || fail "note --ack after the close exited $?"
"$RUNG" note --ack "$id" "agent: did it anyway" >"$T/out" 2>&1; rc=$?
[ "$rc" = 0 ] || { cat "$T/out"; fail "the same answer again: exit $rc, not 0"; }
commit=$(git notes --ref=rung list | while read -r _ c; do git notes --ref=rung show "$c" | grep -q 'keep FP32' && echo "$c"; done | head -1)
note=$(git notes --ref=rung show "$commit")
echo "$note" | grep -q '^  > closed .*: person: not now$' || { echo "$note"; fail "the person's close is gone from the note"; }
[ "$(echo "$note" | grep -c '^  > done .*: agent: did it anyway$')" = 1 ] || { echo "$note"; fail "the agent's answer is not in the note once"; }
"$RUNG" brief >"$T/brief.md" 2>&1
grep -q "^- \[$id\] closed" "$T/brief.md" || { grep -A3 "$id" "$T/brief.md"; fail "the brief does not show the directive closed"; }
grep -q '^  - closed by .*: person: not now$' "$T/brief.md" || fail "the brief lost the person's reason"
grep -q '^  - also done by .*: agent: did it anyway$' "$T/brief.md" || fail "the brief does not show the agent's answer beside the close"
# over MCP: ack_directive after the close leaves it closed; the history is in answers
python3 - "$RUNG" "$id" <<'PY' || fail "MCP (above)"
import json, subprocess, sys
rung, did = sys.argv[1], sys.argv[2]
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ack_directive", "arguments": {"id": did, "status": "declined", "reason": "agent: second thoughts"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ack_directive", "arguments": {"id": did, "status": "declined", "reason": "agent: second thoughts"}}}]
out = subprocess.run([rung, "mcp"], input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True, text=True).stdout
res = {m["id"]: m for m in map(json.loads, out.splitlines())}
for i in (2, 3):
    r = res[i]["result"]
    assert not r.get("isError") and r["_meta"]["rung/exit"] == 0, "ack %d: %r" % (i, r)
    d = r["structuredContent"]["directives"][0]
    assert d["status"] == "closed", "the close does not stand: %r" % d
    kinds = [a["kind"] for a in d["answers"]]
    assert kinds == ["closed", "done", "declined"], "history: %r" % kinds
    assert [a["standing"] for a in d["answers"]] == [True, False, False], d["answers"]
print("mcp ok")
PY
# no close: done then declined keeps both, the last standing
"$RUNG" note HEAD try float4 loads >/dev/null 2>&1
id2=$("$RUNG" brief | sed -n 's/^- \[\([0-9a-f]\{8\}\)\] .*: try float4 loads$/\1/p' | head -1)
"$RUNG" note --ack "$id2" first >/dev/null 2>&1 && "$RUNG" note --decline "$id2" second >/dev/null 2>&1 || fail "ack then decline"
"$RUNG" brief | grep -q "^- \[$id2\] declined" || fail "the later decline does not stand"
"$RUNG" brief | grep -q '^  - also done by .*: first$' || fail "the earlier done is not kept"
echo ok
