#!/bin/bash
# The steer screen lists every directive of a version and the task-wide ones,
# each with its id, status (coloured by role), the answering version and the
# reason, over git notes on the demo repository (issue #17); `x` on an open
# directive of the list closes it with the reason typed, through the note, as
# `rung note --close` would: `rung brief` and `git notes` show it closed.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1 XDG_CONFIG_HOME="$T/cfg" TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task in the demo"
V=$(git log -1 --format=%H -- sgemm.cu)
"$RUNG" note "$V" "use float4 loads in the inner loop" >/dev/null 2>&1 || fail "rung note (1) exited $?"
"$RUNG" note "$V" "$(printf 'try 64x64 tiles \033[2J')" >/dev/null 2>&1 || fail "rung note (2) exited $?"
"$RUNG" note --task-wide never loosen tolerances >/dev/null 2>&1 || fail "rung note --task-wide exited $?"
brief=$("$RUNG" brief 2>&1) || fail "rung brief exited $?: $brief"
id_of() { sed -n "s/^- \[\([0-9a-f]\{8\}\)\] .*: $1.*/\1/p" <<<"$brief" | head -1; }
ID1=$(id_of "use float4 loads in the inner loop") ID2=$(id_of "try 64x64 tiles") ID3=$(id_of "never loosen tolerances")
[ -n "$ID1" ] && [ -n "$ID2" ] && [ -n "$ID3" ] || { echo "$brief"; fail "the directives have no ids in the brief"; }
"$RUNG" note --ack "$ID1" "done in the inner loop" >/dev/null 2>&1 || fail "rung note --ack exited $?"
"$RUNG" note --decline "$ID3" "$(printf 'tolerances are not mine \033]0;x\007')" >/dev/null 2>&1 ||
	fail "rung note --decline exited $?"

# the steer screen: both directives of V and the task-wide one, with status and reason;
# then Tab to the list, the open one by search, x, the reason, Enter
cat >"$T/keys" <<'EOF'
v
:dump steer.txt
:dump-attrs steer_attrs.txt
<Tab>
/
:type 64x64
<Enter>
x
:type not worth it at this occupancy
<Enter>
:dump closed.txt
Q
EOF
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=170 LINES=30 "$RUNG" tui --theme default -C "$T/demo" sgemm >"$T/out" 2>&1 ||
	fail "rung tui exited $?: $(cat "$T/out")"
S="$T/steer.txt"
v7=${V:0:7}
grep -q "^steer $v7 " "$S" || { cat "$S"; fail "the steer screen is not on $v7"; }
grep -qF "directive $ID1 done     use float4 loads in the inner loop  [by $v7, Ada Lovelace: done in the inner loop]" "$S" ||
	{ cat "$S"; fail "the acknowledged directive is not shown done with its version and reason"; }
grep -qE "^ {10}$ID2 open     try 64x64 tiles \^\[\[2J$" "$S" ||
	{ cat "$S"; fail "the open directive is not shown open (inert)"; }
grep -qE "^ {10}$ID3 declined \[task-wide\] never loosen tolerances  \[by $v7, Ada Lovelace: tolerances are not mine \^\[\]0;x\^G\]$" "$S" ||
	{ cat "$S"; fail "the task-wide directive is not shown declined with its reason (inert)"; }
# the list: every directive of the history (the demo's too), each on its line
grep -qE "^$v7 best     $ID1 done     use float4 loads" "$S" || { cat "$S"; fail "the list lacks the done directive"; }
grep -qE "^$v7 best     $ID2 open     try 64x64 tiles" "$S" || { cat "$S"; fail "the list lacks the open directive"; }
grep -qE "^[0-9a-f]{7} [a-z ]{9}[0-9a-f]{8} done     Good step\. Next: vectorize" "$S" ||
	{ cat "$S"; fail "the list lacks the demo's answered directive"; }
grep -qE "^[0-9a-f]{7} [a-z ]{9}[0-9a-f]{8} open     Directive: FP32 FMA is close" "$S" ||
	{ cat "$S"; fail "the list lacks the demo's open directive"; }
# status colours: open = note, done = ok, declined = warning
A="$T/steer_attrs.txt"
grep -q "{note}open " "$A" && grep -q "{ok}done " "$A" && grep -q "{warning}declined " "$A" ||
	{ cat "$A"; fail "the statuses are not in their roles"; }
grep -q $'\x1b' "$S" "$T/closed.txt" && fail "an escape reached the screen"

C="$T/closed.txt"
grep -qE "^ {10}$ID2 closed   try 64x64 tiles \^\[\[2J  \[by $v7, Ada Lovelace: not worth it at this occupancy\]$" "$C" ||
	{ cat "$C"; fail "the closed directive is not shown closed with the reason"; }
grep -q "directive $ID2 closed: not worth it at this occupancy" "$C" || { cat "$C"; fail "no confirmation on the status bar"; }
# in the note and in the brief, as rung note --close writes it
note=$(git notes --ref=rung show "$V")
grep -q "^x .* Ada Lovelace: try 64x64 tiles" <<<"$note" || { echo "$note"; fail "the directive's line is not closed in the note"; }
grep -q "^  > closed [0-9-]* [0-9:]* \[$V\] Ada Lovelace: not worth it at this occupancy$" <<<"$note" ||
	{ echo "$note"; fail "no closed answer line in the note"; }
grep -q "^  > done .*: done in the inner loop$" <<<"$note" || { echo "$note"; fail "the ack's answer line is gone"; }
brief=$("$RUNG" brief 2>&1) || fail "rung brief exited $?"
grep -q "^- \[$ID2\] closed: $v7 " <<<"$brief" || { echo "$brief"; fail "rung brief does not list $ID2 as closed"; }
grep -q "^  - closed by $v7 (Ada Lovelace, .*): not worth it at this occupancy$" <<<"$brief" ||
	{ echo "$brief"; fail "rung brief does not give the reason"; }
sed -n '/^## Open directives/,/^## /p' <<<"$brief" | grep -q "$ID2" && fail "$ID2 is still open in the brief"

# x on a line that is done is refused, and on the form it says how
printf 'v\nx\n:dump form.txt\n<Tab>\n/\n:type float4 loads in the inner\n<Enter>\nx\n:dump done.txt\nQ\n' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=170 LINES=30 "$RUNG" tui -C "$T/demo" sgemm >"$T/out" 2>&1 ||
	fail "rung tui exited $?: $(cat "$T/out")"
grep -q "Tab to the notes list, then x on an open directive closes it" "$T/form.txt" || { cat "$T/form.txt"; fail "x on the form"; }
grep -q "directive $ID1 is already done" "$T/done.txt" || { cat "$T/done.txt"; fail "x on a done directive"; }
[ "$(git notes --ref=rung show "$V")" = "$note" ] || fail "x on a done directive changed the note"
echo ok
