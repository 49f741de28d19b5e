#!/bin/bash
# rung note + rung brief: a directive written with `rung note` reaches the
# agent's brief (no GPU needed), once as new and afterwards as open.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cd "$T"
git init -q repo && cd repo
git config user.name "Ada Lovelace"
git config user.email ada@example.com
mkdir -p sgemm
cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
export GIT_AUTHOR_DATE='2025-11-29T16:00:00Z' GIT_COMMITTER_DATE='2025-11-29T16:00:00Z'
git add -A && git commit -q -m "naive sgemm"
sed -i 's/$/ /' sgemm/sgemm.cu   # a content change
export GIT_AUTHOR_DATE='2025-11-29T17:00:00Z' GIT_COMMITTER_DATE='2025-11-29T17:00:00Z'
git commit -qam "tile it"
HEAD=$(git rev-parse --short=7 HEAD)

out=$("$RUNG" note HEAD --verdict baseline "try 2-D tiling" 2>&1) || fail "rung note: $out"
grep -q "verdict: baseline" <<<"$out" || fail "note output: $out"
git notes --ref=rung show HEAD | grep -q "^- .* Ada Lovelace: try 2-D tiling$" || fail "git notes show: $(git notes --ref=rung show HEAD)"
git notes --ref=rung show HEAD | grep -q "^verdict: baseline$" || fail "verdict line"

"$RUNG" note HEAD --verdict nonsense "x" >/dev/null 2>&1 && fail "bad verdict accepted"
# --verdict none clears the verdict and keeps the directive
"$RUNG" note HEAD --verdict none >/dev/null 2>&1 || fail "--verdict none"
git notes --ref=rung show HEAD | grep -q "^verdict:" && fail "verdict not cleared: $(git notes --ref=rung show HEAD)"
git notes --ref=rung show HEAD | grep -q "try 2-D tiling" || fail "directive lost when clearing the verdict"
"$RUNG" note HEAD --verdict baseline >/dev/null 2>&1 || fail "verdict set again"
"$RUNG" note deadbeefdead "x" >/dev/null 2>&1 && fail "unknown revision accepted"

# a preview (no --mark) changes nothing: the agent's brief still shows the items as new
preview=$("$RUNG" brief 2>&1) || fail "rung brief (preview) failed: $preview"
grep -q "a preview: nothing was marked as seen" <<<"$preview" || fail "preview not said"
brief=$("$RUNG" brief --mark 2>&1) || fail "rung brief failed: $brief"
echo "$brief"
grep -q "^# rung brief: sgemm" <<<"$brief" || fail "title"
grep -q "versions: 2 (0 evaluated)" <<<"$brief" || fail "version count"
grep -q "$HEAD \"tile it\" (verdict baseline)" <<<"$brief" || fail "baseline from the verdict"
new=$(sed -n '/^## From the person/,/^## Open/p' <<<"$brief")
grep -q "Ada Lovelace on $HEAD \"tile it\": try 2-D tiling" <<<"$new" || fail "directive not reported as new"
grep -q "verdict \*\*baseline\*\* on $HEAD" <<<"$new" || fail "verdict not reported as new"
open=$(sed -n '/^## Open directives/,/^## Answered directives/p' <<<"$brief")
grep -q "try 2-D tiling" <<<"$open" || fail "directive not open"

# a second brief: nothing new, still open
brief2=$("$RUNG" brief --mark 2>&1) || fail "second brief: $brief2"
new2=$(sed -n '/^## From the person/,/^## Open/p' <<<"$brief2")
grep -q "nothing new" <<<"$new2" || fail "second brief repeats old items: $new2"
grep -q "try 2-D tiling" <<<"$(sed -n '/^## Open directives/,/^## Answered directives/p' <<<"$brief2")" || fail "open directive lost"

# marking it done closes it
"$RUNG" note HEAD --done >/dev/null || fail "note --done"
brief3=$("$RUNG" brief 2>&1)
grep -q "try 2-D tiling" <<<"$(sed -n '/^## Open directives/,/^## Answered directives/p' <<<"$brief3")" && fail "done directive still open"

notes=$("$RUNG" notes) || fail "rung notes"
grep -q "^$HEAD 2025-11-29 17:00 tile it$" <<<"$notes" || fail "notes listing: $notes"
echo "ok"
