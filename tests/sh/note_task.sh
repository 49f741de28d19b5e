#!/bin/bash
# rung note inside a task directory of a repository with several tasks (the
# demo's): HEAD is the task's newest version, not the repository's last commit
# (which belongs to the other task and holds its `best` verdict); a commit id
# of the other task is refused with exit 2. At the root, any commit is noted.
set -u
: "${RUNG:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "demo"
cd "$T/d"
head_id=$(git rev-parse HEAD)
sgemm_id=$(git log -1 --format=%H -- sgemm/sgemm.cu)
softmax_id=$(git log -1 --format=%H -- softmax/)
[ "$head_id" = "$softmax_id" ] && [ "$head_id" != "$sgemm_id" ] || fail "demo layout changed: HEAD is not softmax's"
before=$(git notes --ref=rung show "$head_id")

cd sgemm
err=$("$RUNG" note HEAD "try float4 loads" 2>&1 >/dev/null) || fail "note HEAD in sgemm/: $err"
grep -q "HEAD is not a version of sgemm; noting its newest version, ${sgemm_id:0:7}" <<<"$err" || fail "no notice: $err"
git notes --ref=rung show "$sgemm_id" | grep -q "try float4 loads" || fail "the sgemm version did not get the note"
[ "$(git notes --ref=rung show "$head_id")" = "$before" ] || fail "softmax's note changed: $(git notes --ref=rung show "$head_id")"

err=$("$RUNG" note "${softmax_id:0:7}" --verdict reject "wrong task" 2>&1); rc=$?
[ "$rc" = 2 ] || fail "a softmax commit from sgemm/: exit $rc"
grep -q "is not a version of sgemm (it does not change sgemm/sgemm.cu)" <<<"$err" || fail "message: $err"
[ "$(git notes --ref=rung show "$head_id")" = "$before" ] || fail "softmax's note changed on a refused note"

cd ..
"$RUNG" note HEAD "at the root" >/dev/null 2>&1 || fail "note at the root"
git notes --ref=rung show "$head_id" | grep -q "at the root" || fail "the root note went elsewhere"
# brief covers the task's own notes only, and without --mark changes nothing
b=$("$RUNG" brief --task sgemm 2>&1) || fail "brief --task sgemm: $b"
grep -q "try float4 loads" <<<"$b" || fail "sgemm's own directive missing from its brief"
grep -q "read from DRAM once" <<<"$b" && fail "softmax's note in sgemm's brief: $b"
b2=$("$RUNG" brief --task sgemm 2>&1)
[ "$(grep -c 'try float4 loads' <<<"$b2")" = "$(grep -c 'try float4 loads' <<<"$b")" ] || fail "a preview changed the next brief"
echo "note in a task: ok"
