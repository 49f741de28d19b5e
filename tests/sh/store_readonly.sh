#!/bin/bash
# The commands that only read (log, brief, the workbench) work on a .git/rung
# that cannot be written: the store opens read-only (they exited 5). `brief
# --mark` says on stderr that its mark could not be kept (the next brief would
# show the same items as new); a command that writes fails naming the reason.
# As root, permissions do not stop writes: the commands run as nobody then
# (setpriv), on a repository nobody owns and a .git/rung root owns; without
# setpriv the test is skipped.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
T=$(mktemp -d)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "rung demo"
R=$T/d
# the recorded results the examples carry: one per sgemm version they cover (a
# version changed since the ladder was recorded has none until it is re-recorded)
nsgemm=$(wc -l <"$RUNG_SRC/examples/sgemm/recorded.jsonl")
nrec=$(cat "$RUNG_SRC"/examples/*/recorded.jsonl | wc -l)
rung=$RUNG
as=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || { echo "skip: root, and no setpriv to run as another user"; exit 77; }
	# nobody needs to reach the binary and the repository
	cp "$RUNG" "$T/rung" && chmod 755 "$T" "$T/rung"
	rung=$T/rung
	chown -R 65534:65534 "$R"
	chown -R 0:0 "$R/.git/rung"
	as=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T")
	"${as[@]}" "$rung" --help >/dev/null 2>&1 || { echo "skip: cannot run rung as nobody"; exit 77; }
fi
chmod 555 "$R/.git/rung"
chmod 444 "$R/.git/rung/results.db"
"${as[@]}" touch "$R/.git/rung/probe" 2>/dev/null && { echo "skip: .git/rung is still writable"; exit 77; }

log=$("${as[@]}" "$rung" log -C "$R" --task sgemm 2>&1) || fail "rung log on a read-only store: exit $?: $log"
grep -q "recorded on NVIDIA H200" <<<"$log" || fail "log shows no stored result: $log"
[ "$(grep -c "not evaluated" <<<"$log")" = $((11 - nsgemm)) ] || fail "log: $log"
"${as[@]}" "$rung" log -C "$R" --json >/dev/null 2>&1 || fail "log --json on a read-only store"
out=$("${as[@]}" "$rung" brief -C "$R" --task sgemm 2>&1) || fail "rung brief on a read-only store: exit $?: $out"
grep -q "^## Open directives" <<<"$out" || fail "brief: $out"
"${as[@]}" "$rung" brief -C "$R" --task sgemm --mark >"$T/out" 2>"$T/err" || fail "brief --mark on a read-only store: exit $?: $(cat "$T/err")"
grep -q "^## From the person since the start" "$T/out" || fail "brief --mark: $(cat "$T/out")"
grep -q "rung brief: warning: this brief could not be marked as seen (.*read-only.*); the next \`rung brief --mark\` shows the same items as new" "$T/err" ||
	fail "brief --mark says nothing of its mark: $(cat "$T/err")"
"${as[@]}" "$rung" export -C "$R" --recorded >"$T/export" 2>&1 || fail "export on a read-only store: $(cat "$T/export")"
[ "$(wc -l <"$T/export")" = "$nrec" ] || fail "export: $(cat "$T/export")"

# the workbench, driven by a script (no display)
mkdir -m 777 "$T/dump"
printf ':dump versions.txt\nq\n' >"$T/keys"
chmod 644 "$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T/dump" COLUMNS=120 LINES=30 "${as[@]}" "$rung" tui -C "$R" sgemm \
	>"$T/tui" 2>&1 || fail "rung tui on a read-only store: exit $?: $(cat "$T/tui")"
grep -q "sgemm (task 1/2, T switches): 11 versions, 0 evaluated, $nsgemm recorded" "$T/dump/versions.txt" || fail "tui: $(cat "$T/dump/versions.txt")"

# a command that writes says why it cannot
out=$("${as[@]}" "$rung" import -C "$R" "$RUNG_SRC/examples/sgemm/recorded.jsonl" 2>&1) && fail "import into a read-only store: $out"
grep -q "$R/.git/rung/results.db" <<<"$out" || fail "import: $out"
[ "$(ls "$R/.git/rung")" = results.db ] || fail "files written into .git/rung: $(ls "$R/.git/rung")"
echo ok
