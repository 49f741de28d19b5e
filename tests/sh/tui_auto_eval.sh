#!/bin/bash
# The workbench's auto-evaluation setting (#12 item 6), keys from a script, on
# a repository of three versions of one's own (no results), without a GPU:
#  - the default (auto_eval = gpu) gives every version its compile rung
#    without a key, and says why there is no timing;
#  - auto_eval = on in the config does the same; auto_eval = off, and
#    --no-auto-eval whatever the config says, evaluate nothing;
#  - a bad value in the config is an error at its line (exit 2), as is a bad
#    --auto-eval=MODE.
# Skips where a CUDA driver is present (with a GPU the whole evaluation runs).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then echo "skip: a CUDA driver is here"; exit 77; fi
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CONFIG_HOME=$T/config
mkdir -p "$XDG_CONFIG_HOME/rung"
# three compiles take well under a second: the screen is taken as soon as they
# are in (60 s at most: sanitizer builds, a loaded machine)
printf ':until 60 3 evaluated\n:dump v.txt\nQ\n' > "$T/keys"
printf ':sleep 2\n:dump v.txt\nQ\n' > "$T/keys_off"
# open the workbench; $@: options. Leaves the screen in $T/v.txt, stderr in $T/err.
# KEYS=keys_off where nothing should run (no need to wait as long).
tui() {
	rm -f "$T/v.txt"
	COLUMNS=130 LINES=10 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/${KEYS:-keys}" timeout 60 "$RUNG" tui -C "$REPO" "$@" \
		</dev/null >/dev/null 2>"$T/err"
}
tui || fail "rung tui: exit $? ($(cat "$T/err"))"
head -1 "$T/v.txt" | grep -q "rung sgemm: 3 versions, 3 evaluated" || fail "default: $(head -1 "$T/v.txt")"
grep -q "no GPU: showing recorded results (.*); versions without any get their compile rung" "$T/v.txt" ||
	fail "default: no word of the GPU: $(tail -1 "$T/v.txt")"
[ "$(grep -cE "(naive sgemm|tile it) .* [0-9]+/[0-9]+( |$)" "$T/v.txt")" = 2 ] ||
	fail "default: no registers/spills: $(cat "$T/v.txt")"

echo "auto_eval = on" > "$XDG_CONFIG_HOME/rung/config"
tui || fail "auto_eval = on: exit $?"
head -1 "$T/v.txt" | grep -q "3 versions, 3 evaluated" || fail "auto_eval = on: $(head -1 "$T/v.txt")"

printf '# by hand\nauto_eval = off\n' > "$XDG_CONFIG_HOME/rung/config"
KEYS=keys_off tui || fail "auto_eval = off: exit $?"
head -1 "$T/v.txt" | grep -q "3 versions, 0 evaluated" || fail "auto_eval = off: $(head -1 "$T/v.txt")"
# (the compile verdicts the sessions above kept are shown, counted apart: #28 D-16; nothing runs)
head -1 "$T/v.txt" | grep -q "3 versions, 0 evaluated, 3 compiled only" || fail "auto_eval = off: $(head -1 "$T/v.txt")"
grep -q "◐\|evaluating" "$T/v.txt" && fail "auto_eval = off: a rung ran"
# --auto-eval overrides the config's off (bare: gpu): on a store without the kept
# compile verdicts, which gpu would not compile again (#28 D-16)
fresh() { rm -f "$REPO/.git/rung/results.db" "$REPO/.git/rung/results.db-"*; }
fresh
tui --auto-eval || fail "--auto-eval: exit $?"
head -1 "$T/v.txt" | grep -q "3 versions, 3 evaluated" || fail "--auto-eval over off: $(head -1 "$T/v.txt")"

rm "$XDG_CONFIG_HOME/rung/config"
fresh
KEYS=keys_off tui --no-auto-eval || fail "--no-auto-eval: exit $?"
head -1 "$T/v.txt" | grep -q "3 versions, 0 evaluated" || fail "--no-auto-eval: $(head -1 "$T/v.txt")"
grep -q "no GPU" "$T/v.txt" && fail "--no-auto-eval: a worker was asked for the GPU"

printf 'theme = default\nauto_eval = maybe\n' > "$XDG_CONFIG_HOME/rung/config"
tui; rc=$?
[ "$rc" = 2 ] || fail "auto_eval = maybe: exit $rc, not 2"
grep -q "rung/config:2: auto_eval is on, off or gpu, not 'maybe'" "$T/err" || fail "auto_eval = maybe: $(cat "$T/err")"
[ -e "$T/v.txt" ] && fail "auto_eval = maybe: the workbench opened"
tui --auto-eval=maybe; rc=$?
[ "$rc" = 2 ] || fail "--auto-eval=maybe: exit $rc, not 2"
grep -q "^rung tui: --auto-eval: auto_eval is on, off or gpu, not 'maybe'" "$T/err" || fail "--auto-eval=maybe: $(cat "$T/err")"
echo "ok"
