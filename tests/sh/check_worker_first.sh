#!/usr/bin/env bash
# rung check starts its GPU worker before it reads the task (#31 item 1): the
# worker's CUDA context, the longest lap of a check, is made while the spec,
# the sources and the store are read and the kernel compiles. Seen here with
# a fake worker that leaves a mark when it starts: a target that does not
# exist still fails with exit 2 and its message, and the worker was started
# (and is gone again); --compile-only starts none; a good task gets its
# verdict from the same worker.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the fake: a mark with its pid, then "no device" (rung's own no-GPU path)
cat >"$T/worker.sh" <<EOF
#!/bin/bash
echo \$\$ >>"$T/started"
printf '%s\n' '{"type":"hello","proto":1,"ok":false,"reason":"fake: no device"}' >&0
EOF
chmod +x "$T/worker.sh"
export RUNG_WORKER_EXE="$T/worker.sh"
cd "$T"

err=$("$RUNG" check no-such-task 2>&1); rc=$?
t "a missing target: exit 2" [ "$rc" = 2 ]
t "a missing target: its message" grep -q "^rung check: " <<<"$err"
# The worker's start is seen in strace: its process is made (a clone without
# CLONE_THREAD, or a fork) before rung looks for the target. The missing target
# is found out within a few ms, often before the fake's bash has run a line
# (so its mark cannot tell), or even before its execve under load, and the
# parent kills it then.
if command -v strace >/dev/null && strace -f -e trace=none true 2>/dev/null; then
	# (LeakSanitizer cannot run under ptrace: no leak check in the ASan build there)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -o "$T/st" \
		-e trace=clone,clone3,fork,vfork,stat,lstat,newfstatat,statx,access,faccessat,faccessat2,openat \
		"$RUNG" check no-such-task >/dev/null 2>&1
	# the first process made, by line (clone3's result may be on a "resumed" line)
	made=$(grep -nE '(clone|clone3|fork|vfork)\(' "$T/st" | grep -v CLONE_THREAD | head -1 | cut -d: -f1)
	looked=$(grep -n '"no-such-task"' "$T/st" | head -1 | cut -d: -f1)
	t "the worker was started before the task was read" [ -n "$made" ] && [ -n "$looked" ] && [ "$made" -lt "$looked" ]
	sleep 0.2
	# every process and thread strace saw (rung's, the worker's) has ended
	left=$(for p in $(awk '{print $1}' "$T/st" | sort -u); do kill -0 "$p" 2>/dev/null && echo "$p"; done)
	t "and is gone" [ "$(awk '{print $1}' "$T/st" | sort -u | wc -l)" -ge 2 ] && [ -z "$left" ]
else
	echo "skip the worker's start on a missing target: no strace that can trace here"
fi

rm -f "$T/started"
cp -r "$RUNG_SRC/tests/tasks/sgemm" "$T/sgemm"
out=$("$RUNG" check --compile-only sgemm 2>&1); rc=$?
t "--compile-only: exit 0" [ "$rc" = 0 ]
t "--compile-only starts no worker" [ ! -e "$T/started" ]

out=$("$RUNG" check sgemm 2>&1); rc=$?
t "a task: exit 4 (no GPU)" [ "$rc" = 4 ]
t "a task: the fake's reason" grep -q "^\[run\] SKIPPED fake: no device" <<<"$out"
t "a task: one worker" [ "$(wc -l <"$T/started")" = 1 ]
exit "$fail"
