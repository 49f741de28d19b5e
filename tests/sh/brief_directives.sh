#!/bin/bash
# rung brief lists only directives under "Open directives" (issue #12 item 5):
# a remark (`rung note --remark`, a "* " line) and note text not in rung's form
# go under "Remarks"; --done closes directives and leaves remarks. In the
# demo, the baseline's remark is not an open directive.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
section() { sed -n "/^## $1/,/^## /p" <<<"$2" | sed '1d;/^## /d'; }

cd "$T"
git init -q repo && cd repo
git config user.name "Ada Lovelace"
git config user.email ada@example.com
mkdir -p sgemm
cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
export GIT_AUTHOR_DATE='2025-11-29T16:00:00Z' GIT_COMMITTER_DATE='2025-11-29T16:00:00Z'
git add -A && git commit -q -m "naive sgemm"
BASE=$(git rev-parse --short=7 HEAD)
sed -i 's/$/ /' sgemm/sgemm.cu
export GIT_AUTHOR_DATE='2025-11-29T17:00:00Z' GIT_COMMITTER_DATE='2025-11-29T17:00:00Z'
git commit -qam "tile it"
HEAD=$(git rev-parse --short=7 HEAD)

out=$("$RUNG" note "$BASE" --verdict baseline --remark "the yardstick: correct and simple" 2>&1) || fail "note --remark: $out"
git notes --ref=rung show "$BASE" | grep -q '^\* .* Ada Lovelace: the yardstick: correct and simple$' ||
	fail "the remark's line: $(git notes --ref=rung show "$BASE")"
"$RUNG" note HEAD "try 2-D tiling" >/dev/null 2>&1 || fail "note (a directive)"
# a line written by hand, not in rung's form
git notes --ref=rung append -m "measured by hand: 3x faster" HEAD || fail "git notes append"

"$RUNG" note HEAD --remark >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "--remark without TEXT: exit $rc"

b=$("$RUNG" brief 2>&1) || fail "brief: $b"
open=$(section "Open directives" "$b")
rem=$(section "Remarks" "$b")
new=$(section "From the person" "$b")
grep -q "try 2-D tiling" <<<"$open" || fail "the directive is not open: $open"
grep -q "yardstick" <<<"$open" && fail "the baseline remark is listed as an open directive: $open"
grep -q "measured by hand" <<<"$open" && fail "hand-written text listed as an open directive: $open"
[ "$(grep -c '^- ' <<<"$open")" = 1 ] || fail "open directives: $open"
grep -q "^- $BASE \"naive sgemm\" (Ada Lovelace, [0-9-]* [0-9:]*): the yardstick: correct and simple$" <<<"$rem" || fail "remark not under Remarks: $rem"
grep -q "^- $HEAD \"tile it\": measured by hand: 3x faster$" <<<"$rem" || fail "hand-written text not under Remarks: $rem"
grep -q "try 2-D tiling" <<<"$rem" && fail "a directive under Remarks: $rem"
grep -q "Ada Lovelace remarked on $BASE \"naive sgemm\": the yardstick" <<<"$new" || fail "new remark not labelled: $new"
grep -q "Ada Lovelace on $HEAD \"tile it\": try 2-D tiling" <<<"$new" || fail "new directive: $new"

# --done closes the directive; the remark stays a remark
"$RUNG" note HEAD --done >/dev/null 2>&1 || fail "note --done"
"$RUNG" note "$BASE" --done >/dev/null 2>&1 || fail "note --done on the remark's version"
git notes --ref=rung show "$BASE" | grep -q '^\* .*the yardstick' || fail "--done changed the remark: $(git notes --ref=rung show "$BASE")"
b=$("$RUNG" brief 2>&1)
[ "$(section "Open directives" "$b")" = "$(printf '\nnone\n')" ] || fail "open after --done: $(section "Open directives" "$b")"
grep -q "yardstick" <<<"$(section "Remarks" "$b")" || fail "the remark left Remarks after --done"

# the demo: the baseline's remark and the verdicts' reasons are not open directives
"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "demo"
b=$("$RUNG" brief -C "$T/d" --task sgemm 2>&1) || fail "demo brief: $b"
open=$(section "Open directives" "$b")
grep -q "Baseline for this ladder" <<<"$open" && fail "the demo's baseline remark is an open directive: $open"
[ "$(grep -c '^- ' <<<"$open")" = 1 ] || fail "the demo's sgemm has one open directive: $open"
grep -q "mma.sync m16n8k8" <<<"$open" || fail "the demo's open directive: $open"
grep -q "Baseline for this ladder" <<<"$(section "Remarks" "$b")" || fail "the demo's baseline remark not under Remarks"
echo "ok"
