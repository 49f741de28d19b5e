#!/bin/bash
# A damaged results store does not look like an empty one: with 9 pages of
# .git/rung/results.db overwritten (or a stored JSON that does not parse),
# rung log and brief exit 5 naming the file and `rung store check` (they
# showed every version as "not evaluated", exit 0); `rung store check` says
# what is damaged (exit 5); `rung store rebuild` moves the file aside
# unchanged, recovers every row that still reads and says so; then the store
# checks clean and rung log shows the recovered results.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "rung demo"
nrec=$(cat "$RUNG_SRC"/examples/*/recorded.jsonl | wc -l) # the recorded results the examples carry
db=.git/rung/results.db
[ -f "$T/d/$db" ] || fail "the demo made no store"
out=$("$RUNG" store check -C "$T/d") || fail "store check of a sound store: $out"
grep -q "^$T/d/$db: ok: results $nrec (0 live, $nrec recorded)" <<<"$out" || fail "check: $out"
out=$("$RUNG" store rebuild -C "$T/d") || fail "rebuild of a sound store"
grep -q "no damage found, nothing to rebuild" <<<"$out" || fail "rebuild of a sound store: $out"
[ -z "$(ls "$T/d/.git/rung" | grep damaged)" ] || fail "a sound store was moved aside"

# 9 pages overwritten around the first sgemm result's row (text, so that the
# test is the same every run; the results rows, not the profile side data the
# recorded results also carry, which rung log does not read)
cp -a "$T/d" "$T/c"
C=$T/c
pages=$(( $(stat -c %s "$C/$db") / 4096 ))
off=$(grep -obaF '"label":"sgemm: ' "$C/$db" | head -1 | cut -d: -f1)
[ -n "$off" ] || fail "no sgemm result row in the store"
at=$(( off / 4096 - 4 )); [ $at -lt 1 ] && at=1
yes "rung damage" | head -c $((9 * 4096)) >"$T/noise"
dd if="$T/noise" of="$C/$db" bs=4096 seek=$at conv=notrunc 2>/dev/null || fail dd
cp "$C/$db" "$T/damaged.db"

for cmd in "log --task sgemm" "log --task softmax --json" "log"; do
	out=$("$RUNG" $cmd -C "$C" 2>&1)
	rc=$?
	# one task's rows may all be in pages that still read: then it is shown, and the other fails
	[ "$rc" = 5 ] || [ "$cmd" = "log --task softmax --json" ] || fail "rung $cmd on a damaged store: exit $rc: $out"
	if [ "$rc" = 5 ]; then
		grep -q "rung .*: $C/$db: the results store is damaged" <<<"$out" || fail "rung $cmd: $out"
		grep -q '`rung store check`' <<<"$out" || fail "rung $cmd does not say what to do: $out"
	fi
done
out=$("$RUNG" log -C "$C" --task sgemm 2>&1)
grep -q "not evaluated" <<<"$out" && fail "damage shown as 'not evaluated': $out"
# brief reads live results, notes and its marks: every page but the first overwritten
cp -a "$T/d" "$T/b"
yes "rung damage" | head -c $(((pages - 1) * 4096)) >"$T/noise2"
dd if="$T/noise2" of="$T/b/$db" bs=4096 seek=1 conv=notrunc 2>/dev/null || fail dd
for cmd in "brief --task sgemm" "brief --task sgemm --mark" "log --task softmax"; do
	out=$("$RUNG" $cmd -C "$T/b" 2>&1)
	rc=$?
	[ "$rc" = 5 ] || fail "rung $cmd on a damaged store: exit $rc: $out"
	grep -q "$T/b/$db: the results store is damaged" <<<"$out" || fail "rung $cmd: $out"
done

out=$("$RUNG" store check -C "$C")
rc=$?
[ "$rc" = 5 ] || fail "store check of a damaged store: exit $rc: $out"
grep -q "^$C/$db: damaged" <<<"$out" || fail "check: $out"
grep -q "^  results: " <<<"$out" || fail "check does not say which rows: $out"
grep -q "rung store rebuild" <<<"$out" || fail "check does not say what to do: $out"

out=$("$RUNG" store rebuild -C "$C") || fail "rebuild: exit $?: $out"
echo "$out"
aside=$(sed -n "s|^$C/$db: moved aside to \(.*\) (kept: nothing was deleted)$|\1|p" <<<"$out")
[ -n "$aside" ] && [ -f "$aside" ] || fail "no file moved aside: $out"
cmp -s "$aside" "$T/damaged.db" || fail "the damaged file was changed"
n=$(sed -n 's/^new store at .*, recovered: results \([0-9]*\) .*/\1/p' <<<"$out")
[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$nrec" ] || fail "recovered: '$n' of $nrec: $out"
grep -q "^not recovered: " <<<"$out" || fail "losses not said: $out"
out=$("$RUNG" store check -C "$C") || fail "check after the rebuild: $out"
grep -q "ok: results $n (0 live, $n recorded)" <<<"$out" || fail "check after the rebuild: $out"
log=$("$RUNG" log -C "$C" 2>&1) || fail "log after the rebuild: $log"
[ "$(grep -c 'recorded on NVIDIA H200' <<<"$log")" -ge 1 ] || fail "no recovered result shown: $log"

# a stored JSON that does not parse
if python3 -c 'import sqlite3' 2>/dev/null; then
	cp -a "$T/d" "$T/j"
	python3 - "$T/j/$db" <<'PY' || fail "python3 update"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE results SET json = '{\"rung_result\": 1, broken' WHERE rowid = (SELECT min(rowid) FROM results)")
db.commit()
db.close()
PY
	out=$("$RUNG" log -C "$T/j" 2>&1)
	[ $? = 5 ] || fail "log with a JSON that does not parse: exit 0: $out"
	grep -q "$T/j/$db: the results store is damaged (the stored result of [0-9a-f]* does not parse" <<<"$out" || fail "log: $out"
	out=$("$RUNG" store check -C "$T/j")
	[ $? = 5 ] || fail "check: $out"
	grep -q "results: the stored result of .* does not parse" <<<"$out" || fail "check: $out"
	out=$("$RUNG" store rebuild -C "$T/j") || fail "rebuild: $out"
	grep -q "recovered: results $((nrec - 1)) (0 live, $((nrec - 1)) recorded)" <<<"$out" || fail "rebuild: $out"
	"$RUNG" log -C "$T/j" >/dev/null 2>&1 || fail "log after the rebuild"
else
	echo "skip the JSON case: no python3 sqlite3"
fi

# no store at all
git init -q "$T/empty"
out=$("$RUNG" store check -C "$T/empty") || fail "check without a store"
grep -q "no results store" <<<"$out" || fail "check without a store: $out"
"$RUNG" store nonsense -C "$T/empty" >/dev/null 2>&1; [ $? = 2 ] || fail "store nonsense: not a usage error"
echo ok
