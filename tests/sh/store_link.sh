#!/usr/bin/env bash
# A symbolic link where the results store lives is refused (#30 D12): rung
# keeps its store in the repository's own .git/rung and never follows a link
# there. With .git/rung, or .git/rung/results.db, a link to somewhere else
# (an unpacked tarball can carry one), import, log, export and store
# check/rebuild exit 5 naming the link, and nothing is written or moved where
# it points.
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
git init -q "$tmp/repo" && cd "$tmp/repo" && mkdir sgemm && cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/ &&
	git add -A && git commit -qm v1 || exit 1
head -3 "$RUNG_SRC/examples/sgemm/recorded.jsonl" >"$tmp/three.jsonl"

# 1. .git/rung a link to a directory elsewhere
mkdir "$tmp/storedir"
ln -s "$tmp/storedir" .git/rung
for c in "import $tmp/three.jsonl" "log" "export" "store check" "store rebuild --force"; do
	out=$("$RUNG" $c 2>&1); rc=$?
	t ".git/rung link: rung $c: exit 5 (got $rc)" test "$rc" = 5
	t ".git/rung link: rung $c: names the link" has "$PWD/.git/rung: a symbolic link" "$out"
done
t ".git/rung link: nothing written where it points" test -z "$(ls -A "$tmp/storedir")"
rm .git/rung

# 2. results.db a link to a file elsewhere
mkdir .git/rung && echo "the user's file" >"$tmp/victim"
ln -s "$tmp/victim" .git/rung/results.db
for c in "import $tmp/three.jsonl" "log" "store check" "store rebuild --force"; do
	out=$("$RUNG" $c 2>&1); rc=$?
	t "results.db link: rung $c: exit 5 (got $rc)" test "$rc" = 5
	t "results.db link: rung $c: names the link" has "results.db: a symbolic link" "$out"
done
t "results.db link: the file it points to is untouched" test "$(cat "$tmp/victim")" = "the user's file"
t "results.db link: the link is still there, nothing beside it" test "$(ls -A .git/rung)" = results.db
rm .git/rung/results.db

# 3. the repository's own store still works
out=$("$RUNG" import "$tmp/three.jsonl" 2>&1); rc=$?
t "no link: import works (exit $rc)" test "$rc" = 0
exit $fail
