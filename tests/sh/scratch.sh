#!/bin/bash
# Scratch arguments without a GPU (issue #16, docs/SPEC.md "The sidecar"):
# tests/tasks/scratch is a PTX kernel whose rung.ini declares three [arg]s and
# whose sidecar (scratch.json, Triton 3.6's keys) says it takes global scratch
# (512 bytes per program) and profile scratch (none). `rung check
# --compile-only` adds them after [arg n], checks the .entry's 5 parameters
# against the 3 + 2, and shows what it added (a [scratch] line, --json's
# launch.scratch); a sidecar without the keys leaves the count wrong (the
# compile FAILED, exit 1); declared kind = scratch arguments are taken as they
# are and must hold the sidecar's sizes (exit 3 at their line); a sidecar key
# that names a program is still refused (exit 3). The GPU side (a zeroed
# buffer before every launch) is tests/gpu_scratch.c.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp -r "$RUNG_SRC/tests/tasks/scratch" "$T/s"
cd "$T"

out=$("$RUNG" check --compile-only s 2>&1) || fail "check --compile-only: $out"
grep -q '^\[compile\] ok ' <<<"$out" || fail "no compile line: $out"
grep -qx '\[scratch\] global_scratch 400384 bytes (512 per program), profile_scratch null; added after \[arg n\] from s/scratch.json (the spec declares no kind = scratch)' <<<"$out" ||
	fail "no [scratch] line: $out"

out=$("$RUNG" check --compile-only --json s 2>&1) || fail "check --json: $out"
grep -q '"scratch":\[{"name":"global_scratch","bytes":400384,"per_program":512,"key":"global_scratch_size","added":"s/scratch.json:4"},{"name":"profile_scratch","bytes":0,"per_program":0,"key":"profile_scratch_size","added":"s/scratch.json:10"}\]' <<<"$out" ||
	fail "launch.scratch: $out"

# without the sidecar's scratch keys the PTX takes 2 parameters too many
grep -v scratch_size "$RUNG_SRC/tests/tasks/scratch/scratch.json" >s/scratch.json
out=$("$RUNG" check --compile-only s 2>&1)
rc=$?
[ "$rc" = 1 ] || fail "no scratch keys: exit $rc, not 1: $out"
grep -q "takes 5 parameters but s/rung.ini declares 3 \[arg\] sections" <<<"$out" || fail "no scratch keys: $out"
grep -q '^\[scratch\]' <<<"$out" && fail "no scratch keys, yet a [scratch] line: $out"

# one key only: the count names the sidecar's line
grep -v profile_scratch_size "$RUNG_SRC/tests/tasks/scratch/scratch.json" >s/scratch.json
out=$("$RUNG" check --compile-only s 2>&1)
[ $? = 1 ] || fail "one scratch key: not exit 1: $out"
grep -q "and s/scratch.json:4 adds 1 scratch argument (global_scratch_size): it should take 4" <<<"$out" ||
	fail "one scratch key: $out"
cp "$RUNG_SRC/tests/tasks/scratch/scratch.json" s/

# declared: too small for the sidecar under a check size set (N=4097: 33 programs)
cp s/rung.ini s/rung.ini.orig
printf '[arg gs]\nkind = scratch\nsize = 4*N+384\n[arg ps]\nkind = scratch\nsize = 0\n' >>s/rung.ini
line=$(grep -n "^size = 4\*N+384" s/rung.ini | cut -d: -f1)
out=$("$RUNG" check --compile-only s 2>&1)
rc=$?
[ "$rc" = 3 ] || fail "declared too small: exit $rc, not 3: $out"
grep -q "s/rung.ini:$line: \[arg gs\] size: 16772 bytes, but s/scratch.json:4 says global_scratch_size = 512: the kernel needs that much global scratch per program (x 33 programs = 16896 bytes); drop the kind = scratch arguments (the sidecar adds them) or make it at least 16896 (check sizes N=4097)" <<<"$out" ||
	fail "declared too small: $out"
# declared and large enough: taken as they are, nothing added
sed -i 's/^size = 4\*N+384$/size = 512*cdiv(N,128)/' s/rung.ini
out=$("$RUNG" check --compile-only --json s 2>&1) || fail "declared scratch: $out"
grep -q '"scratch":\[{"name":"gs","bytes":400384},{"name":"ps","bytes":0}\]' <<<"$out" || fail "declared scratch: $out"
cp s/rung.ini.orig s/rung.ini

# a key that names a program: refused, scratch keys or not
sed -i 's/"num_ctas": 1,/"num_ctas": 1, "launcher": "\/bin\/sh",/' s/scratch.json
out=$("$RUNG" check --compile-only s 2>&1)
rc=$?
[ "$rc" = 3 ] || fail "launcher key: exit $rc, not 3: $out"
grep -q "s/scratch.json:6: key 'launcher': rung never runs a program named by the repository" <<<"$out" ||
	fail "launcher key: $out"
cp "$RUNG_SRC/tests/tasks/scratch/scratch.json" s/

# a version from git: its own sidecar at its revision
git init -q s
git -C s -c user.name=A -c user.email=a@example.com commit -qm "scratch task" --allow-empty
git -C s add -A
git -C s -c user.name=A -c user.email=a@example.com commit -qm "the kernel"
out=$("$RUNG" check -C s --compile-only HEAD 2>&1) || fail "check HEAD: $out"
grep -q '^\[scratch\] global_scratch 400384 bytes (512 per program), profile_scratch null; added after \[arg n\] from scratch.json@[0-9a-f]\{7\} ' <<<"$out" ||
	fail "check HEAD: $out"
echo "ok"
