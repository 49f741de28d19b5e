#!/bin/bash
# rung compare A B without a GPU: no timing, but what the compiles tell, as the
# workbench's compare screen shows it: registers, spills and shared memory per
# version, the SASS instruction mix, a SASS diff hunk, then
# "timing: SKIPPED (no GPU: ...)" with exit 4; --json carries the same. On a
# fixture repository with two versions of one task (the second skips every
# 64th element). Skips where a GPU is present (the timing runs there).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=$T/repo
git init -q "$R"
git -C "$R" config user.name "Ada Lovelace"
git -C "$R" config user.email ada@example.com
mkdir "$R/t"
cp "$RUNG_SRC"/tests/faults/good/{rung.ini,kernel.cu,reference.cu} "$R/t/"
git -C "$R" add -A && git -C "$R" commit -qm "good"
cp "$RUNG_SRC"/tests/faults/unwritten/kernel.cu "$R/t/kernel.cu"
git -C "$R" commit -qam "skip every 64th element"
a=$(git -C "$R" rev-parse --short=7 HEAD~1)
b=$(git -C "$R" rev-parse --short=7 HEAD)

out=$("$RUNG" compare -C "$R" --task t HEAD~1 HEAD 2>&1)
rc=$?
echo "$out"
if [ "$rc" = 0 ] && ! grep -q "timing: SKIPPED" <<<"$out"; then
	echo "a GPU is present: the timing ran (skipping)"
	exit 77
fi
[ "$rc" = 4 ] || fail "exit $rc, not 4 (no GPU)"
grep -q "^a $a$" <<<"$out" || fail "no line for version a ($a)"
grep -q "^b $b$" <<<"$out" || fail "no line for version b ($b)"
grep -qE "^regs +[0-9]+ +[0-9]+" <<<"$out" || fail "no registers per version"
grep -qE "^spills +[0-9]+ +[0-9]+" <<<"$out" || fail "no spills per version"
grep -qE "^smem +[0-9]+ +[0-9]+" <<<"$out" || fail "no shared memory per version"
grep -q "^timing: SKIPPED (no GPU: .*)$" <<<"$out" || fail "timing not marked skipped"
[ "$(tail -1 <<<"$out")" = "$(grep "^timing:" <<<"$out")" ] || fail "the timing line is not the last"
j=$("$RUNG" compare --json -C "$R" --task t HEAD~1 HEAD 2>&1)
[ $? = 4 ] || fail "--json: exit not 4"
if grep -q "^SASS: nvdisasm not found" <<<"$out"; then
	echo "nvdisasm not installed: the SASS part says so"
	grep -q '"sass_error":"nvdisasm not found' <<<"$j" || fail "--json: no sass_error: $j"
else
	grep -q "^instruction mix$" <<<"$out" || fail "no instruction mix"
	grep -qE "^  total +[0-9]+ +[0-9]+" <<<"$out" || fail "no mix total line"
	grep -qE "^  LDG.32 +[0-9]+ +[0-9]+$" <<<"$out" || fail "no mix line for the loads"
	grep -qE "^  FADD +[0-9]+ +[0-9]+$" <<<"$out" || fail "no mix line for the adds"
	grep -qE "^SASS diff a -> b \(normalized by basic block; --raw-sass for the raw diff\): [0-9]+ hunks?, \+[0-9]+ -[0-9]+$" <<<"$out" || fail "no SASS diff header"
	grep -qE "^@@ -[0-9]+,[0-9]+ \+[0-9]+,[0-9]+ @@ " <<<"$out" || fail "no SASS diff hunk"
	grep -qE "^\+  " <<<"$out" || fail "the hunk adds nothing"
	# normalized: registers renamed in lower case; raw: nvdisasm's names
	grep -qE "^[-+ ]  .*\br[0-9]+\b" <<<"$out" || fail "no renamed register in the diff"
	grep -q '"mix":{' <<<"$j" || fail "--json: no mix: $j"
	grep -qE '"sass_diff":\{"mode":"normalized","hunks":[1-9]' <<<"$j" || fail "--json: no sass_diff: $j"
	raw=$("$RUNG" compare --raw-sass -C "$R" --task t HEAD~1 HEAD 2>&1)
	[ $? = 4 ] || fail "--raw-sass: exit not 4"
	grep -qE "^SASS diff a -> b \(raw, --raw-sass\): [0-9]+ hunks?, \+[0-9]+ -[0-9]+$" <<<"$raw" || fail "--raw-sass: no header: $raw"
	grep -qE "^[-+ ]  .*\bR[0-9]+\b" <<<"$raw" || fail "--raw-sass: no nvdisasm register"
	grep -qE "^[-+ ]  .*\br[0-9]+\b" <<<"$raw" && fail "--raw-sass: a renamed register"
	j2=$("$RUNG" compare --json --raw-sass -C "$R" --task t HEAD~1 HEAD 2>&1)
	grep -qE '"sass_diff":\{"mode":"raw","hunks":[1-9]' <<<"$j2" || fail "--raw-sass --json: $j2"
	# without nvdisasm the rest still prints, and the SASS part says why
	out2=$(RUNG_NVDISASM=none "$RUNG" compare -C "$R" --task t HEAD~1 HEAD 2>&1)
	[ $? = 4 ] || fail "without nvdisasm: exit not 4"
	grep -qE "^regs +[0-9]+ +[0-9]+" <<<"$out2" || fail "without nvdisasm: no registers"
	grep -q "^SASS: nvdisasm not found" <<<"$out2" || fail "without nvdisasm: $out2"
	grep -q "^timing: SKIPPED (no GPU: " <<<"$out2" || fail "without nvdisasm: no timing line"
fi
grep -q '^{"verdict":"SKIPPED","reason":"' <<<"$j" || fail "--json: $j"
grep -qE '"a":\{"version":"'"$a"'","regs":[0-9]+,"spills":[0-9]+,"smem":[0-9]+' <<<"$j" || fail "--json: no a: $j"
grep -qE '"b":\{"version":"'"$b"'","regs":[0-9]+' <<<"$j" || fail "--json: no b: $j"
echo "ok"
