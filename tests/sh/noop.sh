#!/usr/bin/env bash
# No-op versions (docs/CHECKS.md "No-op versions"): a commit whose machine
# code, launch geometry, spec and reference equal an earlier commit's carries
# that commit's verdict and timing instead of being run again, and says so in
# rung check, rung eval, rung log (table and --json) and rung brief; --force
# measures it; a change that reaches the machine code is run. A fake worker
# (a "GPU" that counts the jobs it is given) stands in for the device.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
{
	echo '#!/bin/bash'
	echo 'export LC_ALL=C # a blob is bytes: matching the next header after one must not depend on the locale'
	echo "printf '%s\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":{\"valid\":true,\"gpu\":\"Fake GPU\",\"uuid\":\"GPU-fake\",\"arch\":\"sm_90\",\"sms\":3}}' >&0"
	echo 'while IFS= read -r line; do'
	echo '	case "$line" in'
	echo "	*'\"type\":\"job\"'*)"
	echo "		echo job >> \"$T/jobs\""
	echo "		res='{\"steps\":{\"run\":{\"status\":\"ok\"},\"check\":{\"status\":\"ok\"},\"bench\":{\"status\":\"ok\"}},\"bench\":{\"valid\":true,\"median\":1.25,\"n\":11,\"noise_ok\":true,\"method\":\"cupti-activity\"},\"metrics\":[{\"output\":\"c\",\"n\":1000,\"pass\":true}],\"nshapes\":1,\"nseeds\":1}'"
	echo "		printf '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%d]}\n%s' \${#res} \"\$res\" >&0 ;;"
	echo "	*'\"type\":\"quit\"'*) exit 0 ;;"
	echo '	esac'
	echo 'done'
} > "$T/worker.sh"
chmod +x "$T/worker.sh"
# no sanitize-before-best run (a real compute-sanitizer would run the fake
# worker and add to its job count; tests/sh/sanitize_gate.sh covers it)
export RUNG_WORKER_EXE="$T/worker.sh" TMPDIR="$T" RUNG_COMPUTE_SANITIZER=none
jobs() { if [ -f "$T/jobs" ]; then wc -l < "$T/jobs" | tr -d ' '; else echo 0; fi; }
cd "$T" || exit 1
git init -q -b main repo && cd repo || exit 1
git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" vadd && git add -A && git commit -qm "vadd"
printf '// only a comment: nothing that runs changes\n' >> vadd/kernel.cu && git commit -qam "comment only"
printf 'extern "C" __global__ void other(int *p) { if (p) *p = 1; }\n' >> vadd/kernel.cu && git commit -qam "new code"
first=$(git rev-parse --short=7 HEAD~2)

out=$("$RUNG" eval --all 2>/dev/null); rc=$?
echo "$out"
t "eval: exit 0" [ "$rc" = 0 ]
t "eval: the comment-only commit is not run (2 jobs for 3 versions)" [ "$(jobs)" = 2 ]
"$RUNG" export --out "$T/all.jsonl" >/dev/null 2>&1
t "eval: one seed for the batch (versions compared on equal inputs)" \
	[ "$(grep -o '"base_seed": *"[0-9]*"' "$T/all.jsonl" | sort -u | wc -l)" = 1 ]
t "eval: the export has the three results" [ "$(wc -l < "$T/all.jsonl")" = 3 ]
log=$("$RUNG" log 2>&1)
echo "$log"
t "log: no-op verdict" grep -qE '^[0-9a-f]{7} +comment only .* no-op' <<<"$log"
t "log: says which" grep -qF "no-op: same machine code, launch, spec and reference as $first" <<<"$log"
t "log: the real change is not a no-op" bash -c '! grep -qE "^[0-9a-f]{7} +new code .* no-op" <<<"$1"' _ "$log"
json=$("$RUNG" log --json 2>/dev/null)
t "log --json: noop_of" grep -qF "\"noop_of\":\"$(git rev-parse HEAD~2)\"" <<<"$(tr -d ' \n' <<<"$json")"
brief=$("$RUNG" brief 2>/dev/null)
t "brief: the agent learns its edit changed nothing" grep -qF "no-op: same machine code as $first" <<<"$brief"

: > "$T/jobs"
out=$("$RUNG" check HEAD~1 2>&1)
t "check: from the store, not run" [ "$(jobs)" = 0 ]
t "check: the no-op line" grep -qF "[no-op] same machine code, launch, spec and reference as $first" <<<"$out"
"$RUNG" check --force HEAD~1 > "$T/out" 2>&1
t "check --force: measured" [ "$(jobs)" = 1 ]
t "check --force: no no-op line" bash -c '! grep -qF "[no-op]" "$1"' _ "$T/out"

# a fresh commit with a comment only, checked directly: a no-op at once
printf '// and another\n' >> vadd/kernel.cu && git commit -qam "comment again"
: > "$T/jobs"
out=$("$RUNG" check HEAD 2>&1); rc=$?
echo "$out"
t "check of a new comment-only commit: exit 0" [ "$rc" = 0 ]
t "check of a new comment-only commit: not run" [ "$(jobs)" = 0 ]
t "check of a new comment-only commit: says of which" grep -qF "[no-op] same machine code, launch, spec and reference as $(git rev-parse --short=7 HEAD~1)" <<<"$out"
exit $fail
