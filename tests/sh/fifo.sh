#!/usr/bin/env bash
# A FIFO in the working tree never hangs rung (#30 D3). git cannot commit one,
# but anyone working in the tree (an agent) can make one: as the kernel, as a
# PTX kernel's sidecar, or as a header the kernel #includes. Every file rung
# reads from a repository is opened without blocking and refused unless it is
# a regular file, so log, brief, eval, the workbench and the MCP server answer,
# and check and dump fail the compile rung naming the header.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -qF -- "$1" <<<"$2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
run() { # run CMD ARGS...: out and rc, 15 s at most (124: it hung; a compile on a busy machine takes some)
	out=$(timeout 15 "$RUNG" "$@" 2>&1 </dev/null); rc=$?
}
repo() { # repo NAME TASK: a repository with tests/tasks/TASK committed as NAME/
	git init -q "$tmp/$1" && mkdir "$tmp/$1/$2" && cp "$RUNG_SRC/tests/tasks/$2"/* "$tmp/$1/$2/" &&
		(cd "$tmp/$1" && git add -A && git commit -qm v1) && cd "$tmp/$1" || exit 1
}

# 1. the kernel is a FIFO
repo a sgemm
rm sgemm/sgemm.cu && mkfifo sgemm/sgemm.cu
run log
t "kernel FIFO: log answers (exit $rc)" test "$rc" = 0
t "kernel FIFO: log lists the committed version" grep -q ' v1 ' <<<"$out"
run brief
t "kernel FIFO: brief answers (exit $rc)" test "$rc" != 124
run eval --missing
t "kernel FIFO: eval answers (exit $rc)" test "$rc" != 124
run check --compile-only sgemm
t "kernel FIFO: check exit $rc, names it" has "not a regular file (a FIFO)" "$out"
printf ':dump v.txt\nQ\n' > "$tmp/keys"
RUNG_TUI_SCRIPT="$tmp/keys" RUNG_TUI_DUMP_DIR="$tmp" timeout 5 "$RUNG" tui --no-auto-eval >/dev/null 2>&1 </dev/null
rc=$?
t "kernel FIFO: the workbench answers (exit $rc)" test "$rc" != 124
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"log","arguments":{}}}' \
	'{"jsonrpc":"2.0","id":2,"method":"ping"}' | timeout 5 "$RUNG" mcp 2>/dev/null)
t "kernel FIFO: MCP answers log, then ping" test "$(grep -c '"id":[12]' <<<"$out")" = 2

# 2. a PTX kernel's sidecar is a FIFO
repo b scratch
rm scratch/scratch.json && mkfifo scratch/scratch.json
run log
t "sidecar FIFO: log answers (exit $rc)" test "$rc" != 124
run check --compile-only scratch
t "sidecar FIFO: check refuses it (exit $rc)" test "$rc" = 3
t "sidecar FIFO: check says why" has "scratch.json: not a regular file (a FIFO)" "$out"

# 3. a header the kernel #includes is a FIFO
repo c sgemm
sed -i '1i #include "evil.h"' sgemm/sgemm.cu && mkfifo sgemm/evil.h
for c in check dump; do
	if [ $c = check ]; then run check --compile-only sgemm; else run dump sgemm; fi
	t "header FIFO: $c answers with a failed compile (exit $rc)" test "$rc" = 1
	t "header FIFO: $c names the header and line" has 'sgemm.cu:1: #include "evil.h":' "$out"
	t "header FIFO: $c says it is a FIFO" has "not a regular file (a FIFO)" "$out"
done
# the same header from git (HEAD), read from the working tree beside it: refused too
git add sgemm/sgemm.cu && git commit -qm "include evil.h"
run check --compile-only HEAD
t "header FIFO at HEAD: check answers (exit $rc)" test "$rc" != 124
exit $fail
