#!/usr/bin/env bash
# A repository must never make rung write outside itself (#30 D1). A cloned
# repository can commit symbolic links under <task>/.rung: a file link
# (.rung/dumps/kernel.cu -> ~/.bashrc) is replaced by the dump's own file and
# the file it pointed to is left as it was; a folder link (.rung, .rung/dumps,
# .rung/dumps/<rev>) is refused with exit 3 and nothing is written where it
# points. The same through the MCP dump tool and a rung://dump/ resource.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
mkdir -p "$tmp/home/outdir"
victim="$tmp/home/.bashrc"
reset_victim() { echo "# the user's own bashrc" > "$victim"; rm -rf "$tmp/home/outdir"; mkdir -p "$tmp/home/outdir"; }
untouched() { [ "$(cat "$victim")" = "# the user's own bashrc" ] && [ -z "$(ls -A "$tmp/home/outdir")" ]; }
n=0
# evil LINKPATH TARGET: a repository committing LINKPATH (under sgemm/) -> TARGET, cloned; cd into the clone's task
evil() {
	n=$((n + 1))
	local src="$tmp/evil$n" dst="$tmp/clone$n"
	git init -q "$src" && mkdir -p "$src/sgemm" && cp "$RUNG_SRC"/tests/tasks/sgemm/* "$src/sgemm/"
	mkdir -p "$(dirname "$src/sgemm/$1")"
	ln -s "$2" "$src/sgemm/$1"
	(cd "$src" && git add -A 2>/dev/null && git add -f sgemm/.rung && git commit -qm "innocent kernel") || exit 1
	git clone -q "$src" "$dst" && cd "$dst/sgemm" || exit 1
	[ -L "$1" ] || { echo "setup: $1 is not a link in the clone"; exit 1; }
}

# 1. a file link in the dump folder: replaced, never written through
reset_victim
evil .rung/dumps/kernel.cu "$victim"
out=$("$RUNG" dump 2>&1); rc=$?
t "file link: dump still runs (exit $rc)" test "$rc" = 0 -o "$rc" = 4
t "file link: the user's file is untouched" untouched
t "file link: kernel.cu is now a regular file" test -f .rung/dumps/kernel.cu -a ! -L .rung/dumps/kernel.cu
t "file link: it holds the kernel" cmp -s .rung/dumps/kernel.cu sgemm.cu
t "no temporary files left" test -z "$(ls -A .rung/dumps | grep '^\.')"

# 2. the .gitignore as a link
reset_victim
evil .rung/.gitignore "$victim"
"$RUNG" dump >/dev/null 2>&1
t "gitignore link: the user's file is untouched" untouched
t "gitignore link: replaced by rung's own" grep -q 'written by rung dump' .rung/.gitignore

# 3. folder links: refused with exit 3, nothing written where they point
for link in .rung .rung/dumps; do
	reset_victim
	evil "$link" "$tmp/home/outdir"
	out=$("$RUNG" dump 2>&1); rc=$?
	t "folder link $link: exit 3 (got $rc)" test "$rc" = 3
	t "folder link $link: says it is a link" grep -q "a symbolic link" <<<"$out"
	t "folder link $link: nothing written there" untouched
done
# WORKTREE (the working tree, as MCP names it) writes .rung/dumps/WORKTREE/
reset_victim
evil .rung/dumps/WORKTREE "$tmp/home/outdir"
out=$("$RUNG" dump WORKTREE 2>&1); rc=$?
t "WORKTREE folder link: exit 3 (got $rc)" test "$rc" = 3
t "WORKTREE folder link: nothing written there" untouched
# a REV target writes .rung/dumps/<short>/
reset_victim
evil .rung/dumps/placeholder "$tmp/nothing"
short=$(git rev-parse --short=7 HEAD)
ln -s "$tmp/home/outdir" ".rung/dumps/$short"
out=$("$RUNG" dump HEAD 2>&1); rc=$?
t "rev folder link: exit 3 (got $rc)" test "$rc" = 3
t "rev folder link: nothing written there" untouched

# 4. through MCP: the dump tool and a rung://dump/WORKTREE/ resource
mcp() { # one initialize, then the given request; prints the answers
	printf '%s\n%s\n%s\n' \
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
		'{"jsonrpc":"2.0","method":"notifications/initialized"}' "$1" | "$RUNG" mcp 2>/dev/null
}
reset_victim
evil .rung/dumps/WORKTREE/kernel.cu "$victim"
mcp '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"rung://dump/WORKTREE/kernel.cu"}}' >/dev/null
t "mcp resource: the user's file is untouched" untouched
reset_victim
evil .rung/dumps/kernel.ptx "$victim"
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dump","arguments":{}}}' >/dev/null
t "mcp dump tool: the user's file is untouched" untouched
reset_victim
evil .rung/dumps "$tmp/home/outdir"
ans=$(mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dump","arguments":{}}}')
t "mcp dump tool, folder link: nothing written there" untouched
t "mcp dump tool, folder link: an error that says why" grep -q 'symbolic link' <<<"$ans"

exit $fail
