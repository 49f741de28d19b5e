#!/usr/bin/env bash
# rung.ini is confined like every file it names (#30 D4): a rung.ini that is a
# symbolic link out of the repository (to ~/.git-credentials, or to a valid
# spec elsewhere) is refused with exit 3 before it is read, so no command and
# no MCP reply shows a byte of it. A link to a spec inside the repository
# still works.
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
printf 'https://alice:ghp_EXAMPLETOKEN123@github.com\n' > "$tmp/git-credentials"
mkdir "$tmp/elsewhere" && cp "$RUNG_SRC/tests/tasks/sgemm/rung.ini" "$tmp/elsewhere/outside.ini"
sed -i '1i # OUTSIDE-SPEC-MARK' "$tmp/elsewhere/outside.ini"
n=0
repo() { # repo TARGET: a repository whose sgemm/rung.ini links to TARGET
	n=$((n + 1))
	git init -q "$tmp/r$n" && mkdir "$tmp/r$n/sgemm" && cp "$RUNG_SRC"/tests/tasks/sgemm/* "$tmp/r$n/sgemm/" &&
		cd "$tmp/r$n" && rm sgemm/rung.ini && ln -s "$1" sgemm/rung.ini && git add -A && git commit -qm v1 || exit 1
}

for target in "$tmp/git-credentials" "$tmp/elsewhere/outside.ini"; do
	repo "$target"
	what=${target##*/}
	for c in "check --compile-only sgemm" "dump sgemm" "eval --missing" "brief"; do
		out=$(timeout 30 $RUNG $c 2>&1); rc=$?
		t "$what: rung $c: exit 3 (got $rc)" test "$rc" = 3
		t "$what: rung $c: shows none of it" eval '! has ghp_EXAMPLETOKEN "$out" && ! has OUTSIDE-SPEC-MARK "$out"'
	done
	out=$($RUNG check --compile-only sgemm 2>&1)
	t "$what: says the spec is outside" has "sgemm/rung.ini: the spec is outside the repository" "$out"
	out=$(cd sgemm && echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check","arguments":{"compile_only":true}}}' |
		timeout 30 $RUNG mcp 2>/dev/null)
	t "$what: MCP check: exit 3" has '"rung/exit":3' "$out"
	t "$what: MCP check: shows none of it" eval '! has ghp_EXAMPLETOKEN "$out" && ! has OUTSIDE-SPEC-MARK "$out"'
done

# a link to a spec inside the repository is fine
repo ../specs/sgemm.ini
mkdir specs && cp "$RUNG_SRC/tests/tasks/sgemm/rung.ini" specs/sgemm.ini && git add -A && git commit -qm specs
out=$($RUNG check --compile-only sgemm 2>&1); rc=$?
t "a link inside the repository: check passes (exit $rc)" test "$rc" = 0
[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -40
exit $fail
