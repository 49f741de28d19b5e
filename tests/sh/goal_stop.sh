#!/bin/bash
# The stop rule (#32) where each reader looks, on the demo's recorded results
# (no GPU needed): rung brief opens with STOP or CONTINUE (softmax meets its
# roof goal, sgemm does not), rung log ends with it, the MCP brief and check
# tools carry it as structured fields, and the person's task-wide done verdict
# stops the task until it is reopened.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" demo --no-tui "$T/d" >"$T/demo.out" 2>&1 || fail "rung demo: $(cat "$T/demo.out")"
cd "$T/d" || exit 1
git config user.name "Ada Lovelace"
git config user.email ada@example.com

first=$("$RUNG" brief --task softmax | head -1)
grep -qE '^STOP: goal met: 8[0-9]% of the DRAM roof \(target 80%\) by [0-9a-f]{7}, interval 8[0-9]% to 8[0-9]% \(on recorded results\)$' <<<"$first" ||
	fail "softmax brief's first line: $first"
first=$("$RUNG" brief --task sgemm | head -1)
grep -qE '^CONTINUE: best 1[0-9]% of the TF32 tensor roof \(target 80%\) by [0-9a-f]{7}; 0 versions since the last gain \(plateau at 3\); 11 of 40 versions evaluated \(on recorded results\)$' <<<"$first" ||
	fail "sgemm brief's first line: $first"
"$RUNG" brief --task sgemm | grep -q '^- goal: roof 80% of the roof that fits the kernel, plateau after 3 versions without a gain, a budget of 40 versions (sgemm/rung.ini:' ||
	fail "brief's goal item"
last=$("$RUNG" log --task sgemm | tail -1)
grep -q '^CONTINUE: best 1[0-9]% of the TF32 tensor roof (target 80%)' <<<"$last" || fail "log's summary line: $last"
# none of the demo's versions is flagged for the goal alone: a [goal] is no part of the spec that matters
"$RUNG" log --task sgemm | grep -q "its own rung.ini differs" && fail "the goal made every version's rung.ini differ"

# the person is satisfied: STOP everywhere, until reopened
"$RUNG" note --task sgemm --task-wide --done "good enough for the paper" >"$T/note.out" 2>&1 || fail "note --done: $(cat "$T/note.out")"
grep -q '^task done: good enough for the paper$' "$T/note.out" || fail "note --done said: $(cat "$T/note.out")"
grep -q ': \[task-wide\] \[done\] good enough for the paper$' "$T/note.out" || fail "the note's text: $(cat "$T/note.out")"
first=$("$RUNG" brief --task sgemm | head -1)
[ "$first" = "STOP: done by the person: good enough for the paper (Ada Lovelace) (on recorded results)" ] || fail "after done: $first"
"$RUNG" log --task sgemm | tail -1 | grep -q '^STOP: done by the person' || fail "log after done"
"$RUNG" note --task sgemm --task-wide --reopen >/dev/null 2>&1; [ $? = 2 ] || fail "--reopen without a reason is not a usage error"
"$RUNG" note --task sgemm --reopen "x" >/dev/null 2>&1; [ $? = 2 ] || fail "--reopen of a directive id that does not exist (x) is not a usage error"
"$RUNG" note --task sgemm --task-wide --reopen "one more try with a wider tile" >"$T/re.out" 2>&1 || fail "reopen: $(cat "$T/re.out")"
grep -q '^reopened: done verdict [0-9a-f]\{8\} closed: one more try with a wider tile$' "$T/re.out" || fail "reopen said: $(cat "$T/re.out")"
"$RUNG" brief --task sgemm | head -1 | grep -q '^CONTINUE: ' || fail "not reopened"
"$RUNG" note --task sgemm --task-wide --reopen "again" >"$T/re2.out" 2>&1; [ $? = 2 ] || fail "a second reopen is not refused"
grep -q 'not marked done' "$T/re2.out" || fail "second reopen: $(cat "$T/re2.out")"

# the same from the workbench's steer screen: D, a reason, Enter marks the task
# done (a note as rung note --task-wide --done writes it); D again reopens it
cat >"$T/keys" <<'KEYS'
v
D
:type the person is satisfied
<Enter>
:dump done.txt
D
:type not yet after all
<Enter>
:dump reopened.txt
Q
KEYS
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=120 LINES=30 "$RUNG" tui --no-auto-eval -C "$T/d" sgemm >"$T/tui.out" 2>&1 ||
	fail "rung tui exited $?: $(cat "$T/tui.out")"
grep -q "task done: the person is satisfied" "$T/done.txt" || fail "steer D: $(tail -2 "$T/done.txt")"
grep -q "STOP: done by the person" "$T/done.txt" || fail "title after D: $(head -1 "$T/done.txt")"
grep -q "task reopened: not yet after all" "$T/reopened.txt" || fail "steer D again: $(tail -2 "$T/reopened.txt")"
git notes --ref=rung show "$(git log -1 --format=%H -- sgemm/sgemm.cu)" | grep -q ': \[task-wide\] \[done\] the person is satisfied$' ||
	fail "no done verdict in the note"
"$RUNG" brief --task sgemm | head -1 | grep -q '^CONTINUE: ' || fail "reopened from the workbench, still: $("$RUNG" brief --task sgemm | head -1)"
cp "$T/keys" "$T/keys2"
sed -i '/^D$/,$d' "$T/keys2"; printf 'D\n:type final\n<Enter>\nQ\n' >>"$T/keys2"
RUNG_TUI_SCRIPT="$T/keys2" RUNG_TUI_DUMP_DIR="$T" COLUMNS=120 LINES=30 "$RUNG" tui --no-auto-eval -C "$T/d" sgemm >/dev/null 2>&1 ||
	fail "rung tui (2) exited $?"
[ "$("$RUNG" brief --task sgemm | head -1)" = "STOP: done by the person: final (Ada Lovelace) (on recorded results)" ] ||
	fail "done from the workbench: $("$RUNG" brief --task sgemm | head -1)"
"$RUNG" note --task sgemm --task-wide --reopen "back to work" >/dev/null 2>&1 || fail "reopen after the workbench's done"

# the agent's side: structured fields in the MCP brief and check results
command -v python3 >/dev/null || { echo "goal_stop: ok (MCP part skipped: no python3)"; exit 0; }
python3 - "$RUNG" "$T/d/softmax" <<'PY' || fail "MCP fields"
import json, subprocess, sys
rung, cwd = sys.argv[1], sys.argv[2]
p = subprocess.Popen([rung, "mcp"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def call(i, method, params):
    p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    p.stdin.flush()
    return json.loads(p.stdout.readline())
call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'); p.stdin.flush()
st = call(2, "tools/call", {"name": "brief", "arguments": {}})["result"]["structuredContent"]["stop"]
assert st["state"] == "goal met" and st["stop"] is True and st["which"] == "roof", st
assert st["line"].startswith("STOP: goal met: ") and st["goal"] == {"roof": 80.0, "plateau": 3}, st
assert st["roof"]["bound"] == "DRAM" and 80 <= st["roof"]["pct"] < 90 and st["met_by"] == st["best"], st
assert st["recorded"] is True and st["done"] is None and st["counted"] == 5, st
ck = call(3, "tools/call", {"name": "check", "arguments": {"compile_only": True}})["result"]
assert ck["structuredContent"]["stop"]["state"] == "goal met", ck.get("structuredContent", {}).keys()
p.stdin.close(); p.wait()
PY
echo "goal_stop: ok"
