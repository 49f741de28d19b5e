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
# the person's close stands until the person reopens it: --reopen ID REASON
# opens it again (the history kept, the reopen shown in the brief, the note,
# rung notes and the MCP directives tool); an agent's answer after the reopen
# then stands; the same reopen again is exit 0, written once; reopening an
# open directive is exit 2
"$RUNG" brief --mark >/dev/null 2>&1 || fail "brief --mark exited $?"
"$RUNG" note --reopen "$id" "person: go ahead after all" >"$T/out" 2>&1 || { cat "$T/out"; fail "note --reopen exited $?"; }
grep -q "directive $id reopened" "$T/out" || { cat "$T/out"; fail "note --reopen does not say the directive was reopened"; }
"$RUNG" note --reopen "$id" "person: go ahead after all" >/dev/null 2>&1 || fail "the same reopen again: exit $?, not 0"
note=$(git notes --ref=rung show "$commit")
[ "$(echo "$note" | grep -c '^  > reopened .*: person: go ahead after all$')" = 1 ] || { echo "$note"; fail "the reopen is not in the note once"; }
echo "$note" | grep -q '^  > closed .*: person: not now$' || { echo "$note"; fail "the reopen lost the close from the history"; }
echo "$note" | grep -q '^- .*keep FP32 for this task$' || { echo "$note"; fail "the reopened directive is not open ('- ') in the note"; }
"$RUNG" notes | grep -q 'reopened .*: person: go ahead after all$' || fail "rung notes does not show the reopen"
"$RUNG" brief >"$T/brief.md" 2>&1
sed -n '/^## Open directives/,/^## Answered/p' "$T/brief.md" >"$T/open.md"
grep -q "^- \[$id\] .*keep FP32 for this task$" "$T/open.md" || { cat "$T/brief.md"; fail "the reopened directive is not under Open directives"; }
grep -q '^  - reopened .*: person: go ahead after all$' "$T/open.md" || { cat "$T/open.md"; fail "the brief does not show the reopen"; }
grep -q '^  - also closed .*: person: not now$' "$T/open.md" || { cat "$T/open.md"; fail "the brief does not show the close the reopen undid"; }
# the reopen is news for the agent: under "From the person since", once (--mark)
"$RUNG" brief --mark >"$T/brief.md" 2>&1
sed -n '/^## From the person since/,/^## Task-wide/p' "$T/brief.md" | grep -q "reopened \[$id\] on .*: keep FP32 for this task: person: go ahead after all$" ||
	{ cat "$T/brief.md"; fail "the brief's news does not say the directive was reopened"; }
"$RUNG" brief | sed -n '/^## From the person since/,/^## Task-wide/p' | grep -q "reopened \[$id\]" &&
	fail "the reopen is news again after brief --mark"
python3 - "$RUNG" "$id" <<'PY' || fail "MCP after the reopen (above)"
import json, subprocess, sys
rung, did = sys.argv[1], sys.argv[2]
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "directives", "arguments": {}}}]
out = subprocess.run([rung, "mcp"], input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True, text=True).stdout
res = {m["id"]: m for m in map(json.loads, out.splitlines())}
ds = [d for d in res[2]["result"]["structuredContent"]["directives"] if d["id"] == did]
assert ds, "the reopened directive is not among the open ones: %r" % res[2]["result"]
d = ds[0]
assert d["status"] == "open", d
assert d["answer"]["kind"] == "reopened" and d["answer"]["reason"] == "person: go ahead after all", d["answer"]
kinds = [a["kind"] for a in d["answers"]]
assert kinds == ["closed", "done", "declined", "reopened"], "history: %r" % kinds
assert [a["standing"] for a in d["answers"]] == [False, False, False, True], d["answers"]
print("mcp reopen ok")
PY
"$RUNG" note --ack "$id" "agent: done now" >/dev/null 2>&1 || fail "note --ack after the reopen exited $?"
"$RUNG" brief | grep -q "^- \[$id\] done" || fail "the agent's answer after the reopen does not stand"
"$RUNG" brief | grep -q '^  - also reopened .*: person: go ahead after all$' || fail "the reopen is not kept beside the later answer"
"$RUNG" note --close "$id" "person: closed again" >/dev/null 2>&1 && "$RUNG" note --ack "$id" "agent: still" >/dev/null 2>&1 \
	|| fail "a second close and an answer after it"
"$RUNG" brief | grep -q "^- \[$id\] closed" || fail "the second close does not stand over the agent's answer after it"
# no close: done then declined keeps both, the last standing
"$RUNG" note HEAD try float4 loads >/dev/null 2>&1
id2=$("$RUNG" brief | sed -n 's/^- \[\([0-9a-f]\{8\}\)\] .*: try float4 loads$/\1/p' | head -1)
"$RUNG" note --ack "$id2" first >/dev/null 2>&1 && "$RUNG" note --decline "$id2" second >/dev/null 2>&1 || fail "ack then decline"
"$RUNG" brief | grep -q "^- \[$id2\] declined" || fail "the later decline does not stand"
"$RUNG" brief | grep -q '^  - also done by .*: first$' || fail "the earlier done is not kept"
"$RUNG" note HEAD a third one >/dev/null 2>&1
id3=$("$RUNG" brief | sed -n 's/^- \[\([0-9a-f]\{8\}\)\] .*: a third one$/\1/p' | head -1)
"$RUNG" note --reopen "$id3" "nothing to reopen" >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] || { cat "$T/out"; fail "reopening an open directive: exit $rc, not 2"; }
grep -q "is open: there is nothing to reopen" "$T/out" || { cat "$T/out"; fail "reopening an open directive: the message"; }
# a malformed id is the command line's error (2), not the task's (3)
for v in --ack --decline --close --reopen; do
	"$RUNG" note $v xyz why >"$T/out" 2>&1; rc=$?
	[ "$rc" = 2 ] && grep -q "a directive id is 8 hex digits" "$T/out" || { cat "$T/out"; fail "note $v xyz: exit $rc, not 2"; }
done
"$RUNG" note --reopen >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q "needs the directive's id" "$T/out" || { cat "$T/out"; fail "--reopen without an id: exit $rc"; }
echo ok
