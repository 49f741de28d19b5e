#!/bin/bash
# The workbench follows an agent's commits (#12 item 6): the real binary in
# tmux on a throwaway repository with three versions of its own and no GPU.
#  - auto-evaluation (auto_eval = gpu, the default) gives each version its
#    compile rung without a key: "3 evaluated", registers shown;
#  - a commit made while the workbench is open appears on top without R, with
#    the selection and the compare mark kept, and gets its compile rung too;
#  - an amended commit (history rewritten) replaces it: the list is read again.
# Skips without tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
SOCK=$T/tmux.sock # inside $T (tui_repo.sh removes it)
fail() { echo "FAIL: $*"; echo "--- screen:"; screen; tmux -S "$SOCK" kill-server 2>/dev/null; exit 1; }
screen() { tmux -S "$SOCK" capture-pane -p -t t 2>/dev/null; }
# wait until the screen shows $1 ($2 tenths of a second at most, default 100)
wait_for() {
	for _ in $(seq "${2:-100}"); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# no config of the person running the tests: the default auto_eval
tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 130 -y 16 \
	"env LC_ALL=C.UTF-8 TERM=screen-256color XDG_CONFIG_HOME='$T/config' '$RUNG' tui -C '$REPO'; sleep 30" || fail "tmux"
wait_for "\[versions\]" || fail "versions table not shown"
# with a GPU the whole evaluation runs: give it time
wait_for "3 versions, 3 evaluated" 600 || fail "the versions were not evaluated without a key"
grep -qE "naive sgemm .* [0-9]+/[0-9]+ *$" <<<"$(screen)" || fail "no registers/spills on the oldest version"

# select "tile it" (the second row) and mark it a
tmux -S "$SOCK" send-keys -t t j a
wait_for "marked .* as a" 20 || fail "mark a"
grep -qE " 2/3 *$" <<<"$(screen)" || fail "selection not on row 2/3"
(
	cd "$REPO" || exit 1
	echo "// live" >> sgemm/sgemm.cu
	git commit -qam "live commit"
) || fail "commit"
wait_for "live commit" 50 || fail "the new commit did not appear within 5 s (without R)"
s=$(screen)
grep -q "rung sgemm: 4 versions" <<<"$s" || fail "title not 4 versions"
[ "$(grep -n "live commit" <<<"$s" | cut -d: -f1)" -lt "$(grep -n "tile it" <<<"$s" | cut -d: -f1)" ] ||
	fail "the new version is not on top"
grep -qE "^a +[0-9a-f]{7} .*tile it" <<<"$s" || fail "the compare mark moved off 'tile it'"
grep -qE " 3/4 *$" <<<"$s" || fail "the selection did not stay on 'tile it' (now row 3/4)"
wait_for "4 versions, 4 evaluated" 600 || fail "the new version was not evaluated without a key"
# (a comment-only commit: the same machine code as "tile it", so its row says no-op after its registers)
grep -qE "live commit .* [0-9]+/[0-9]+( +no-op)? *$" <<<"$(screen)" || fail "no registers/spills on the new version: $(screen | grep "live commit")"
# the status bar says what came (once the mark's message is gone: a key that says nothing)
tmux -S "$SOCK" send-keys -t t Left
wait_for "new version [0-9a-f]\{7\}: live commit" 20 || fail "the status bar does not name the new version"

# history rewritten: the list is read again (the amended commit, not both)
(cd "$REPO" && git commit -q --amend -m "live commit, amended") || fail "amend"
wait_for "live commit, amended" 50 || fail "the amended commit did not appear within 5 s"
s=$(screen)
grep -q "rung sgemm: 4 versions" <<<"$s" || fail "after the amend: not 4 versions"
# (the rows: the status line may still name the commit that came in before; with no GPU
# the reloaded rows show the compile verdicts kept in the store, nothing runs again)
grep -qE "live commit +[^,]" <<<"$(sed '$d' <<<"$s")" && fail "the commit amended away is still shown"
tmux -S "$SOCK" send-keys -t t Q
for _ in $(seq 50); do
	screen | grep -q "\[versions\]" || break
	sleep 0.1
done
screen | grep -q "\[versions\]" && fail "Q did not quit"
tmux -S "$SOCK" kill-server 2>/dev/null
echo "ok"
