#!/usr/bin/env bash
# Damaged profile side data is reported wherever it is met (#30 D11): with the
# stored JSON of three profile extras cut short, `rung store check` names each
# (exit 5, where it said "ok"); `rung export` says which it left out and exits
# 5 (it dropped them with exit 0), while every other extra is still exported;
# `rung store rebuild` counts them as not recovered, and then the store checks
# clean and exports with exit 0.
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
trap 'rm -rf "$tmp"' EXIT
HOME=$tmp "$RUNG" demo --no-tui "$tmp/demo" >/dev/null 2>&1 || { echo "rung demo failed"; exit 1; }
cd "$tmp/demo" || exit 1
db=.git/rung/results.db
extras() { python3 -c 'import json,sys; print(sum(len(json.loads(l).get("extras", {})) for l in open(sys.argv[1])))' "$1"; }
stored=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from profile_extra").fetchone()[0])' $db)
[ "$stored" -gt 3 ] || { echo "setup: $stored extras stored"; exit 1; }
# three extras' JSON cut short, as damaged overflow pages leave it
python3 - $db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE profile_extra SET json = substr(json, 1, 40) WHERE rowid IN (SELECT rowid FROM profile_extra ORDER BY rowid LIMIT 3 OFFSET 2)")
c.commit()
PY

out=$("$RUNG" store check 2>&1); rc=$?
t "check: exit 5 (got $rc)" test "$rc" = 5
t "check: names each damaged extra" test "$(grep -c 'profile_extra: the stored .* data of .* does not parse' <<<"$out")" = 3
"$RUNG" export --recorded >"$tmp/x.jsonl" 2>"$tmp/err"; rc=$?
t "export: exit 5 (got $rc)" test "$rc" = 5
t "export: says which it left out" test "$(grep -c 'does not parse .*: left out' "$tmp/err")" = 3
t "export: says why it exits 5" grep -q '3 stored profile extra(s) are damaged and were left out' "$tmp/err"
t "export: every other extra is exported" test "$(extras "$tmp/x.jsonl")" = $((stored - 3))
out=$("$RUNG" store rebuild 2>&1)
t "rebuild: not recovered, said" has "3 row(s) that did not read or parse" "$out"
out=$("$RUNG" store check 2>&1); rc=$?
t "after the rebuild: check ok (exit $rc)" test "$rc" = 0
"$RUNG" export --recorded >"$tmp/y.jsonl" 2>/dev/null; rc=$?
t "after the rebuild: export exit 0 (got $rc)" test "$rc" = 0
exit $fail
