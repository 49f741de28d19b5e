#!/bin/bash
# Quitting at once does not wait for the evaluation worker's start-up (#28,
# exit against tig: ~45 ms after q, tig ~1 ms): the auto-evaluation probe
# starts the worker process (NVRTC loaded, the driver probed) only after
# RUNG_MODEL_PROBE_DELAY_S, so a Q right after the first frame forks nothing;
# a script that waits past it does get its worker. Needs strace (skips without).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v strace >/dev/null || { echo "strace not installed: skipping"; exit 77; }
strace -f -e trace=none true 2>/dev/null || { echo "strace cannot trace here: skipping"; exit 77; }
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CONFIG_HOME=$T/config
forks() { # keys: the processes rung started (clone without CLONE_THREAD, vfork, fork)
	printf '%b' "$1" > "$T/keys"
	# (LeakSanitizer cannot run under ptrace: an ASan build is traced without it)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" COLUMNS=100 LINES=20 RUNG_TUI_SCRIPT="$T/keys" strace -f -qq -e trace=clone,clone3,fork,vfork -o "$T/st" \
		"$RUNG" tui -C "$REPO" </dev/null >/dev/null 2>"$T/err" || fail "rung tui: $(cat "$T/err")"
	grep -E 'clone|fork' "$T/st" | grep -vc 'CLONE_THREAD'
}
# the delay runs from the model's opening: a first frame slower than it (a loaded
# machine, sanitizer builds) may see the probe start; three tries
for try in 1 2 3; do
	n=$(forks 'Q\n')
	[ "$n" = 0 ] && break
done
[ "$n" = 0 ] || fail "Q at once started $n process(es): $(grep -v CLONE_THREAD "$T/st" | head -3)"
n=$(forks ':sleep 1.5\nQ\n')
[ "$n" -ge 1 ] || fail "no worker after 1.5 s: the probe never ran"
echo "ok"
