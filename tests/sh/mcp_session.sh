#!/bin/bash
# rung mcp, as an agent's MCP client drives it (tests/mcp/client.py): the
# lifecycle, every tool on the demo repository without a GPU (check
# --compile-only, dump, brief, directives, ack_directive, log), resources, and
# the JSON-RPC error codes of malformed messages. The directive the client
# declines is then read back with the CLI and on the steer screen.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/mcp.stderr" ] && sed 's/^/  mcp stderr: /' "$T/mcp.stderr"; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task in the demo"
"$RUNG" note --task-wide never loosen tolerances >/dev/null 2>&1 || fail "rung note --task-wide exited $?"
"$RUNG" note HEAD use float4 loads in the inner loop >/dev/null 2>&1 || fail "rung note exited $?"
python3 "$RUNG_SRC/tests/mcp/client.py" "$RUNG" "$T/demo/sgemm" || fail "the MCP session (above)"
# the answer is in the note, as the CLI shows it
"$RUNG" brief >"$T/brief.md" 2>&1 || fail "rung brief exited $?"
grep -q '^  - declined by [0-9a-f]\{7\} (Ada Lovelace, .*): C is odd in two shapes\\x1b\[2J$' "$T/brief.md" ||
	{ cat "$T/brief.md"; fail "rung brief does not show the declined directive with its reason (inert)"; }
git notes --ref=rung show "$(git log -1 --format=%H -- sgemm.cu)" | grep -q '^  > declined ' ||
	fail "no answer line in the note"
# the steer screen shows the answer with its version and reason
printf 'v\n:dump steer.txt\nQ\n' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=160 LINES=20 "$RUNG" tui -C "$T/demo" sgemm >"$T/out" 2>&1 ||
	fail "rung tui exited $?: $(cat "$T/out")"
grep -q '^note: *\[declined by [0-9a-f]\{7\}: C is odd in two shapes.*\] use float4 loads in the inner loop' "$T/steer.txt" ||
	{ cat "$T/steer.txt"; fail "the steer screen does not show the declined directive"; }
# rung note --ack by id; --close by the person; an unknown id is exit 2
id=$("$RUNG" brief | sed -n 's/^- \[\([0-9a-f]\{8\}\)\] open (.*never loosen tolerances$/\1/p')
[ -n "$id" ] || fail "the task-wide directive has no id in the brief"
"$RUNG" note --close "$id" "kept: a standing rule" >"$T/out" 2>&1 || { cat "$T/out"; fail "rung note --close exited $?"; }
grep -q "^directive $id closed" "$T/out" || { cat "$T/out"; fail "rung note --close: no confirmation"; }
"$RUNG" brief | grep -q "^- \[$id\] closed" || fail "the closed task-wide directive is not listed as closed"
"$RUNG" note --ack deadbeef "done" >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] || fail "rung note --ack of an unknown id: exit $rc, not 2"
grep -q "no directive deadbeef" "$T/out" || { cat "$T/out"; fail "rung note --ack: no message for an unknown id"; }
echo ok
