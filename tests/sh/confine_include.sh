#!/bin/bash
# A kernel that #includes a file outside the repository is refused through
# every path that compiles it (#26 item 3: one compile request, app/task.h
# rung_task_compile, its confinement root always set): rung check (REV and
# working tree), rung dump, rung compare, the workbench's compare pane (PTX
# and SASS, made by its texter thread) and its detail pane (after `e`, and
# its SASS pane), MCP's dump and compare tools and its rung://dump resources.
# Each names file:line, and the header's content (a __device__ variable whose
# name would be in the PTX) appears in no output and no file rung writes.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1 TZ=UTC
mkdir "$T/outside"
printf '__device__ int rung_outside_secret_4711 = 4711;\n' >"$T/outside/secret.cuh"
R=$T/r
git init -q "$R" && cd "$R" || fail "git init"
git config user.name "Ada Lovelace" && git config user.email ada@example.com
mkdir t && cp "$RUNG_SRC"/tests/tasks/sgemm/* t/ && git add -A && git commit -qm base
{ printf '#include "%s/outside/secret.cuh"\n' "$T"; cat "$RUNG_SRC/tests/tasks/sgemm/sgemm.cu"; } >t/sgemm.cu
git commit -qam "outside include"
msg="t/sgemm.cu@$(git rev-parse --short=7 HEAD):1: #include \"$T/outside/secret.cuh\" reads $(realpath "$T")/outside/secret.cuh, outside the repository"
wmsg="t/sgemm.cu:1: #include \"$T/outside/secret.cuh\" reads $(realpath "$T")/outside/secret.cuh, outside the repository"
secret() { grep -rqs rung_outside_secret "$@"; }
refused() { # NAME FILE EXPECTED-MESSAGE: FILE names the include at file:line, without its content
	grep -qF -- "$3" "$2" || { sed 's/^/  /' "$2" | head -20; fail "$1: no '$3'"; }
	secret "$2" && fail "$1: the outside header's content is shown"
	return 0
}

"$RUNG" check --compile-only HEAD >"$T/o" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "check HEAD: exit $rc, not 1"
refused "check HEAD" "$T/o" "[compile] FAILED $msg"
"$RUNG" check --compile-only t >"$T/o" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "check t (working tree): exit $rc, not 1"
refused "check t" "$T/o" "[compile] FAILED $wmsg"
"$RUNG" dump HEAD >"$T/o" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "dump HEAD: exit $rc, not 1"
refused "dump HEAD" "$T/o" "rung dump: $msg"
secret t/.rung && fail "dump HEAD wrote the outside header's content"
"$RUNG" compare HEAD~1 HEAD >"$T/o" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "compare: exit $rc, not 1"
refused "compare" "$T/o" "FAILED B does not compile: $msg"

# the workbench: compare (a = the outside include, b = base): SASS, source, then PTX
# (each step waits until its screen is there: the compare's SASS diff, then each pane's
# title; what the texter thread makes is in once the compare is: a :wait's 2 s brought nothing more)
tui() { # KEYS-FILE: runs the workbench on it, display-less
	RUNG_TUI_SCRIPT="$1" RUNG_TUI_DUMP_DIR="$T" COLUMNS=200 LINES=40 "$RUNG" tui --no-auto-eval -C "$R" >"$T/tui.out" 2>&1 ||
		fail "rung tui exited $?: $(cat "$T/tui.out")"
}
inc="#include \"$T/outside/secret.cuh\" reads"
printf 'a\nj\nb\nc\n:until 60 SASS diff a -> b:\n:until 10 %s\n:dump cmp_sass.txt\nt\n:until 10 source diff (t switches)\n:dump cmp_src.txt\nt\n:until 10 PTX diff (t switches)\n:until 10 %s\n:dump cmp_ptx.txt\nQ\n' "$inc" "$inc" >"$T/keys"
tui "$T/keys"
grep -q "PTX diff" "$T/cmp_ptx.txt" || { cat "$T/cmp_ptx.txt"; fail "t did not switch the compare pane to PTX"; }
refused "workbench compare, PTX" "$T/cmp_ptx.txt" "$(git rev-parse --short=7 HEAD): t/sgemm.cu:1: #include \"$T/outside/secret.cuh\" reads"
refused "workbench compare, SASS" "$T/cmp_sass.txt" "t/sgemm.cu:1: #include \"$T/outside/secret.cuh\" reads"
secret "$T"/cmp_*.txt && fail "the workbench's compare shows the outside header"
# the detail pane after an evaluation (no GPU: the compile rung alone), then its SASS pane
printf 'e\n:until 60 2 versions, 1 evaluated\n<Enter>\n:until 10 %s\n:dump detail.txt\nt\n:until 10 SASS (t: trace)\n:until 10 %s\n:dump detail_sass.txt\nQ\n' "$inc" "$inc" >"$T/keys"
tui "$T/keys"
refused "workbench detail" "$T/detail.txt" "FAILED"
refused "workbench detail" "$T/detail.txt" "t/sgemm.cu:1: #include \"$T/outside/secret.cuh\" reads"
secret "$T/detail_sass.txt" "$R/.git/rung" && fail "the detail pane or the store holds the outside header"

# MCP: the dump and compare tools, the dump resources (raw JSON-RPC lines)
{
	echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
	echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
	echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dump","arguments":{"rev":"HEAD"}}}'
	echo '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"rung://dump/HEAD/kernel.ptx"}}'
	echo '{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"rung://dump/HEAD/kernel.sass"}}'
	echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"compare","arguments":{"a":"HEAD~1","b":"HEAD"}}}'
	echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"check","arguments":{"rev":"HEAD","compile_only":true}}}'
} >"$T/in"
(cd t && "$RUNG" mcp <"$T/in" >"$T/mcp.out" 2>/dev/null) || fail "rung mcp exited $?"
# (dump of a version that does not compile is a normal answer with its log, exit 1: #27)
for id in 1 4 5; do
	line=$(grep "^{\"jsonrpc\":\"2.0\",\"id\":$id," "$T/mcp.out")
	grep -q '"isError":true\|"status":"FAILED"\|"verdict":"FAILED"\|"rung/exit":1}' <<<"$line" || fail "MCP call $id is no failure: ${line:0:300}"
	grep -qF -- "${msg//\"/\\\"}" <<<"$line" || fail "MCP call $id: no file:line: ${line:0:300}"
done
for id in 2 3; do
	line=$(grep "^{\"jsonrpc\":\"2.0\",\"id\":$id," "$T/mcp.out")
	grep -q '"error":{"code":-32002' <<<"$line" && grep -qF -- "${msg//\"/\\\"}" <<<"$line" ||
		fail "MCP resource $id: ${line:0:300}"
done
secret "$T/mcp.out" t/.rung && fail "MCP shows the outside header"
echo "confine include: ok"
