#!/usr/bin/env bash
# `rung store rebuild` is all or nothing (#30 D5). It builds the new store
# beside the old one and renames it over it when whole, so a rebuild killed at
# any point leaves either the whole new store or the old one, untouched, and
# `rung store check` never calls a half-built store "ok": it names the partial
# copy (exit 5), and the next rebuild starts again and recovers everything. A
# finished copy that was not yet put in place (PATH.rebuilt) is named by the
# check and put in place by the next rebuild.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -qF -- "$1" <<<"$2"; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
N=150
git init -q "$tmp/repo" && cd "$tmp/repo" && mkdir sgemm && cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/ &&
	git add -A && git commit -qm v1 || exit 1
python3 "$RUNG_SRC/tests/sh/lib/export_lines.py" "$RUNG_SRC/examples/sgemm/recorded.jsonl" $N >"$tmp/big.jsonl" || exit 1
"$RUNG" import "$tmp/big.jsonl" >/dev/null || exit 1
db=.git/rung/results.db
full=$("$RUNG" store check | sed 's/.*: ok: //')
has "results $N (0 live, $N recorded), commits $N," "$full" || { echo "setup: $full"; exit 1; }
leftover() { ls .git/rung | grep 'rebuil' | tr '\n' ' '; }
cp "$db" "$tmp/orig.db"

# SIGKILL at a random point of a rebuild, 3 times: the store is whole (old or new), never half
for k in 1 2 3; do
	"$RUNG" store rebuild --force >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1000); do # until it has started writing (either layout), then a random delay
		ls .git/rung | grep -q 'rebuilding\|damaged-' && break
		sleep 0.005
	done
	sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	pid=
	out=$("$RUNG" store check 2>&1); rc=$?
	if [ $rc = 0 ]; then
		t "kill $k: a store called ok is the whole store" has ": ok: $full" "$out"
	else
		t "kill $k: check exit 5 (got $rc)" test "$rc" = 5
		t "kill $k: check names the interrupted rebuild" has "a rebuild was interrupted" "$out"
		t "kill $k: the store itself is as it was" cmp -s "$db" "$tmp/orig.db"
		out=$("$RUNG" store rebuild 2>&1); rc=$?
		t "kill $k: the next rebuild runs (exit $rc)" test "$rc" = 0
		out=$("$RUNG" store check 2>&1)
		t "kill $k: then everything is back" has ": ok: $full" "$out"
		t "kill $k: no partial copy left ($(leftover))" test -z "$(leftover)"
	fi
	rm -f .git/rung/*.damaged-*
	cp "$tmp/orig.db" "$db"
done

# a finished copy not yet in place: named by check, put in place by rebuild
cp "$tmp/orig.db" "$db.rebuilt"
python3 -c "import os,sys; p=sys.argv[1]; f=open(p,'r+b'); f.seek(os.path.getsize(p)//2); f.write(b'\xde\xad'*2000)" "$db"
out=$("$RUNG" store check 2>&1); rc=$?
t "a finished copy waits: check exit 5 (got $rc)" test "$rc" = 5
t "a finished copy waits: check names it" has "interrupted before it put its copy in place: $PWD/$db.rebuilt" "$out"
out=$("$RUNG" store rebuild 2>&1); rc=$?
t "a finished copy waits: rebuild puts it in place (exit $rc)" has "finished copy is now in place" "$out"
out=$("$RUNG" store check 2>&1)
t "a finished copy waits: then the store is whole" has ": ok: $full" "$out"
t "a finished copy waits: nothing left beside it ($(leftover))" test -z "$(leftover)"
exit $fail
