#!/bin/bash
# What a new user met on the command line (#28), without a GPU:
#  - D-17: rung check at the root of a repository of several tasks lists them, exit 2
#    (it said "./rung.ini: No such file or directory", exit 3); --json says it on stdout;
#  - D-18: rung profile --json on a broken spec puts the error on stdout too;
#  - D-16: rung eval --compile-only says what the compile rung gave (registers,
#    spills) and that the other rungs need a GPU, not "max_rel -"; rung log says
#    once how to evaluate the versions it shows "not evaluated";
#  - item 14: "its own rung.ini differs" is said once, not under each row;
#  - D-15: rung log --csv gives the recorded results the table shows;
#  - D-20: rung log's VERDICT and NOTE columns hold, a closed directive says so.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>"$T/err" || fail "rung demo: $(cat "$T/err")"

(cd "$T/demo" && "$RUNG" check --compile-only >"$T/out" 2>"$T/err")
rc=$?
[ "$rc" = 2 ] || fail "check at the root: exit $rc, not 2 ($(cat "$T/err"))"
grep -q "^rung check: 2 tasks in this repository (sgemm, softmax): name one, or run from inside its directory" "$T/err" ||
	fail "check at the root: $(cat "$T/err")"
(cd "$T/demo" && "$RUNG" check --json --compile-only >"$T/out" 2>/dev/null)
grep -q '^{"status":"error","exit":2,"error":"2 tasks in this repository' "$T/out" || fail "check --json: $(cat "$T/out")"

# D-20: an export with nothing live says where the results are
"$RUNG" export -C "$T/demo" >"$T/out" 2>"$T/err" || fail "export: exit $?"
[ -s "$T/out" ] && fail "export: live results in the demo: $(head -c 200 "$T/out")"
grep -q '^rung export: no live results in the store; --recorded exports the recorded ones$' "$T/err" || fail "export: $(cat "$T/err")"

# D-20: brief says the spec was read at HEAD, not "at commit <a softmax commit>"
out=$("$RUNG" brief -C "$T/demo" --task sgemm 2>&1) || fail "brief: $out"
grep -q '^- task: `sgemm/rung.ini` (spec read at HEAD, [0-9a-f]\{7\})$' <<<"$out" || fail "brief: $(sed -n 3p <<<"$out")"

# D-15: --csv gives the recorded results the table shows, labelled in a last column
csv=$("$RUNG" log -C "$T/demo" --task sgemm --csv 2>&1) || fail "log --csv: $csv"
head -1 <<<"$csv" | grep -q ',suspects,recorded$' || fail "csv header: $(head -1 <<<"$csv")"
grep '^53c0aa4' <<<"$csv" | grep -q ',ok,ok,ok,ok,ok,3.40e-01,.*,1.366,-99.5%,.*,"recorded on NVIDIA H200, [0-9-]*"$' ||
	fail "csv row: $(grep '^53c0aa4' <<<"$csv")"

# D-20: git's -C before the command; the man page names the environment it reads
out=$("$RUNG" -C "$T/demo" log --task softmax -n 1 2>&1) || fail "rung -C DIR log: $out"
grep -q '^VERSION ' <<<"$out" || fail "rung -C DIR log: $out"
man=$("$RUNG" help --man)
for v in RUNG_DEADLINE RUNG_NVDISASM RUNG_COMPUTE_SANITIZER RUNG_PCSAMP_PERIOD RUNG_ROOFLINE_TOL CUDA_HOME; do
	grep -q "^\.B $v$" <<<"$man" || fail "man page: no $v"
done
# and the workbench's keys, as the help screen lists them (D-20: there were none)
grep -q "^\.SH WORKBENCH KEYS$" <<<"$man" || fail "man page: no workbench keys"
keys=$(sed -n '/^\.SH WORKBENCH KEYS$/,/^\.SH FILES$/p' <<<"$man")
for k in 'j, Down' 'Enter' 'Q, Ctrl\\-C' 'e' 'E' 'r' 'L' 't' 'l' '?, h'; do
	grep -qx "\.B $k" <<<"$keys" || fail "man page: no key $k: $keys"
done
grep -q "^\.SS Versions" <<<"$keys" || fail "man page: keys not in groups"
[ "$(grep -c '^\.TP$' <<<"$keys")" -ge 40 ] || fail "man page: few keys: $keys"

# D-20: rung log's columns hold: a failed row's verdict in the VERDICT column (a long reason
# pushed it out, and is now cut there and given whole on the next line), NOTE at most 60
# bytes, a directive no longer open shown with its status
if [ -f "$RUNG_SRC/examples/sgemm/recorded.jsonl" ]; then
	"$RUNG" log -C "$T/demo" --task sgemm >"$T/log.txt" 2>&1 || fail "log: $(cat "$T/log.txt")"
	python3 - "$T/log.txt" <<'PY' || fail "rung log columns: $(cat "$T/log.txt")"
import sys
lines = open(sys.argv[1]).read().split("\n")
head = lines[0]
vcol, ncol = head.index("VERDICT"), head.index("NOTE")
rows = {l[:7]: l for l in lines if len(l) > 8 and l[7] == " " and l[:7].isalnum()}
ab = rows["ab5b6f7"]
assert ab[vcol:vcol + 7] == "reject ", (vcol, ab)
assert ab[ncol:].startswith("Fails the check"), ab
i = lines.index(ab)
assert lines[i + 1].startswith("         check: C: unwritten 381 elements of C") and lines[i + 1].endswith(" seed 1/2"), lines[i + 1]
for l in rows.values():
    assert len(l) - ncol <= 60, ("NOTE over 60 bytes", l)
assert rows["a3a83d2"][ncol:].startswith("[done] Good step."), rows["a3a83d2"]
assert rows["53c0aa4"][vcol:vcol + 5] == "best ", rows["53c0aa4"]
PY
fi

# D-20: rung dump names its files the same way for a path and a revision (relative to the
# current directory below it; a revision gave absolute paths)
a=$(cd "$T/demo" && "$RUNG" dump sgemm/ 2>/dev/null | head -1)
b=$(cd "$T/demo" && "$RUNG" dump --task sgemm 8c4f713 2>/dev/null | head -1)
[ "$a" = sgemm/.rung/dumps/kernel.cu ] || fail "dump sgemm/: $a"
[ "$b" = sgemm/.rung/dumps/8c4f713/kernel.cu ] || fail "dump REV: $b"
c=$(cd "$T" && "$RUNG" dump -C "$T/demo" --task sgemm 8c4f713 2>/dev/null | head -1)
[ "$c" = demo/sgemm/.rung/dumps/8c4f713/kernel.cu ] || fail "dump -C: $c"
c=$(cd / && "$RUNG" dump -C "$T/demo" --task sgemm 8c4f713 2>/dev/null | head -1)
[ "$c" = "$(realpath "$T")/demo/sgemm/.rung/dumps/8c4f713/kernel.cu" ] || fail "dump from /: $c"

# softmax: four versions carry a rung.ini of their own: one line for them all
out=$("$RUNG" log -C "$T/demo" --task softmax 2>&1) || fail "log: $out"
grep -q "rung.ini differs" <<<"$out" && fail "said per row: $out"
grep -q "^4 versions with a rung.ini of their own that differs from the one in use .*: 19aabec, 342661f, be034ab, 4eea44c$" <<<"$out" ||
	fail "not said once: $out"

# a task of one's own: three versions, no GPU
R=$T/mine
git init -q "$R" && cd "$R" && git config user.name A && git config user.email a@example.com || fail "git init"
mkdir t && cp "$RUNG_SRC"/tests/tasks/sgemm/* t/ && git add -A && git commit -qm "naive" || fail "commit"
out=$("$RUNG" log 2>&1) || fail "log: $out"
grep -q "^1 version not evaluated: rung eval measures it on a GPU; without one, rung eval --compile-only runs the compile rung" <<<"$out" ||
	fail "log: no word of how to evaluate: $out"
out=$("$RUNG" eval --compile-only 2>/dev/null) || fail "eval --compile-only: $out"
grep -qE "^[0-9a-f]{7}  ok - - - - +compiled: regs [0-9]+, spills [0-9]+, smem [0-9]+ B; run, check and bench need a GPU  naive$" <<<"$out" ||
	fail "eval --compile-only: $out"
grep -q "max_rel -" <<<"$out" && fail "eval --compile-only: an empty max_rel: $out"

sed -i 's/^rtol = 1e-4/rtol = le-4/' t/rung.ini
out=$(cd t && "$RUNG" profile --json 2>/dev/null)
[ $? = 3 ] || fail "profile --json on a broken spec: not exit 3"
grep -q '^{"status":"error","exit":3,"error":"./rung.ini:18: \[check\] rtol: bad number' <<<"$out" || fail "profile --json: stdout '$out'"
echo "ok"
