#!/usr/bin/env bash
# One line of `rung import` is one transaction (#30 D6): its result, its
# profile extras and its commit links are stored together or not at all. An
# import killed (SIGKILL) at random points never leaves a result without its
# links or with part of its extras, and a second import completes it. (Without
# one transaction per line, about one kill in four left a result broken.)
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
N=100
git init -q "$tmp/repo" && cd "$tmp/repo" && mkdir sgemm && cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/ &&
	git add -A && git commit -qm v1 || exit 1
# N lines, each with its own key and two commits of its own
python3 "$RUNG_SRC/tests/sh/lib/export_lines.py" "$RUNG_SRC/examples/sgemm/recorded.jsonl" $N --commits >"$tmp/big.jsonl" || exit 1
# whole: every stored result has all its links and all its extras; prints "RESULTS BROKEN"
whole() {
	python3 - "$tmp/big.jsonl" .git/rung/results.db <<'PY'
import json, sqlite3, sys
want = {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    want[o["result"]["key"]] = (set(o["commits"]), set((o.get("extras") or {}).keys()))
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
def rows(sql):  # a table not made yet (killed before it was): no rows
    try:
        return db.execute(sql).fetchall()
    except sqlite3.OperationalError:
        return []
keys = [k for (k,) in rows("SELECT key FROM results")]
links, extras = {}, {}
for c, k in rows("SELECT commit_id, key FROM commits"):
    links.setdefault(k, set()).add(c)
for k, kind in rows("SELECT key, kind FROM profile_extra"):
    extras.setdefault(k, set()).add(kind)
broken = sum(1 for k in keys if links.get(k, set()) != want[k][0] or extras.get(k, set()) != want[k][1])
print(len(keys), broken)
PY
}
killed_mid=0
for k in $(seq 10); do
	rm -rf .git/rung
	"$RUNG" import "$tmp/big.jsonl" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1000); do [ -e .git/rung/results.db ] && break; sleep 0.005; done
	sleep "0.$((RANDOM % 5))$((RANDOM % 10))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	pid=
	[ -e .git/rung/results.db ] || continue
	read -r n broken < <(whole)
	[ "$n" -lt $N ] && killed_mid=$((killed_mid + 1))
	t "kill $k: $n of $N results stored, none without its links or extras ($broken broken)" test "$broken" = 0
done
t "at least one kill landed mid-import ($killed_mid)" test "$killed_mid" -gt 0
"$RUNG" import "$tmp/big.jsonl" >/dev/null 2>&1
read -r n broken < <(whole)
t "a second import completes it ($n results, $broken broken)" test "$n" = $N -a "$broken" = 0
exit $fail
