#!/bin/bash
# The sanitize gate in the workbench (#25 item 1): no version is recommended
# before it passed the sanitizer. Without a GPU, through the fake GPU worker
# and the fake compute-sanitizer of tests/sh/sanitize_gate.sh
# (tests/sh/lib/fake_sanitizer.sh), keys from a script and screen dumps:
#  - after the auto-evaluation the fastest version is sanitized in the
#    background: "sanitizing" in the status bar, its S cell running and its
#    best mark hollow ("+": provisional, nothing passed yet), then
#    "sanitized (...)" in the CLI's words, the S cell ok, the best mark full,
#    and the detail's sanitize line;
#  - a faster version with a race: the sanitized one stays best while it
#    runs and after it failed; the detail says why, "(not best)";
#  - a faster clean version: best once it passed (the best moves);
#  - without compute-sanitizer: a faster version is not best, and says why;
#    a repository where nothing passed: the best is provisional;
#  - a quit during a long sanitize run does not wait for it: the worker
#    under compute-sanitizer is killed, nothing is stored as sanitized;
#    nor does a task switch (T): the other task's versions are evaluated
#    and its best sanitized at once.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC LC_ALL=C
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
. "$RUNG_SRC/tests/sh/lib/fake_sanitizer.sh"
export XDG_CONFIG_HOME=$T/config
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
commit_code() { # a change that reaches the machine code
	printf 'extern "C" __global__ void extra_%s(int *p) { if (p) *p = 1; }\n' "$1" >> vadd/kernel.cu
	git commit -qam "$1"
	git rev-parse --short=7 HEAD
}
# the workbench on the repository in . with the keys given (one a line);
# screens in $T/NAME.txt, stderr in $T/err
tui() {
	printf '%s\n' "$@" > "$T/keys"
	COLUMNS=120 LINES=12 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 120 "$RUNG" tui -C . \
		</dev/null >/dev/null 2>"$T/err"
}
row() { grep -E "^.{4}$2 " "$T/$1.txt"; } # row SCREEN HASH
best() { row "$1" "$2" | grep -qE '^ \* '; }      # the best (sanitized)
prov() { row "$1" "$2" | grep -qE '^ \+ '; }      # the best, provisional
notbest() { ! row "$1" "$2" | grep -qE '^ [*+] '; }
steps() { row "$1" "$2" | grep -qE " $3 "; }     # steps SCREEN HASH CRKBS
eitherbest() { best "$1" "$2" || best "$1" "$3"; }
bothnotbest() { notbest "$1" "$2" && notbest "$1" "$3"; }

cd "$T" && git init -q -b main repo && cd repo || exit 1
git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" vadd && git add -A && git commit -qm "slow"
commit_code faster >/dev/null
fastest=$(commit_code fastest)
printf '3.0\n2.0\n1.0\n' > "$T/medians"
clean
echo 1 > "$T/cs_sleep" # each tool run takes a second: the state while it runs is seen

# 1. the fastest is sanitized after the auto-evaluation
tui ':until 60 sanitizing 1/1' ':dump a1.txt' ':until 60 sanitized (' ':dump b1.txt' '<Enter>' ':dump c1.txt' Q
rc=$?
cat "$T/err"
t "1: exit 0" [ "$rc" = 0 ]
t "1: sanitizing in the status bar" grep -qE "^sanitizing 1/1 $fastest [0-9]+%" "$T/a1.txt"
t "1: its S cell runs" steps a1 "$fastest" 'oooo[.*]'
t "1: provisional best while it runs" prov a1 "$fastest"
t "1: sanitized, in the CLI's words" grep -qF "$fastest: sanitized (memcheck, racecheck, synccheck; benchmark shape covered)" "$T/b1.txt"
t "1: its S cell ok" steps b1 "$fastest" 'ooooo'
t "1: the best once it passed" best b1 "$fastest"
t "1: detail: best" grep -qF "[best]" "$T/c1.txt"
t "1: detail: the gate's line" grep -qxF "sanitize: sanitized (memcheck, racecheck, synccheck; benchmark shape covered)" <<<"$(sed 's/ *$//' "$T/c1.txt")"
t "1: 3 tools x 2 shapes" [ "$(runs)" = 6 ]
t "1: stored as rung eval stores it" grep -qF '"sanitize_state":"sanitized"' <<<"$("$RUNG" log --json 2>/dev/null | tr -d ' \n')"

# 2. a faster version with a race: it fails, the sanitized one stays best
racy=$(commit_code racy)
echo 0.5 > "$T/medians"
cp "$FIX/racecheck_oneline.txt" "$T/racecheck.log"
tui ':until 60 sanitizing 1/1' ':dump a2.txt' ':until 60 not best' ':dump b2.txt' '<Enter>' ':dump c2.txt' Q
t "2: exit 0" [ "$?" = 0 ]
t "2: sanitizing the faster one" grep -qE "^sanitizing 1/1 $racy " "$T/a2.txt"
t "2: the sanitized one stays best while it runs" best a2 "$fastest"
t "2: the faster one is not best while it runs" notbest a2 "$racy"
t "2: failed, said so" grep -qE "^$racy: sanitize failed: racecheck: race between read at k.cu:10 and write at k.cu:13 .*; not best" "$T/b2.txt"
t "2: its S cell failed" steps b2 "$racy" 'oooox'
t "2: the sanitized one stays best" best b2 "$fastest"
t "2: detail says why" grep -qE "^sanitize: sanitize failed: racecheck: race between read at k.cu:10 .*\(not best\) *$" "$T/c2.txt"
t "2: detail: not best" bash -c '! grep -qF "[best]" "$1"' _ "$T/c2.txt"

# 3. a faster clean version: the best moves to it once it passed
clean
git revert --no-edit HEAD >/dev/null
copy=$(git rev-parse --short=7 HEAD) # the machine code of $fastest: sanitized already
fast2=$(commit_code fast2)
echo 0.25 > "$T/medians"
tui ':until 60 sanitizing 1/1' ':dump a3.txt' ':until 60 sanitized (' ':dump b3.txt' Q
t "3: exit 0" [ "$?" = 0 ]
t "3: while it runs, the best has not moved" eitherbest a3 "$fastest" "$copy"
t "3: nor is the new one best" notbest a3 "$fast2"
t "3: then it is the best" best b3 "$fast2"
t "3: and the old ones are not" bothnotbest b3 "$fastest" "$copy"

# 4. no compute-sanitizer: a faster version is not best, and says why
un=$(commit_code unsanitizable)
echo 0.125 > "$T/medians"
RUNG_COMPUTE_SANITIZER=none tui ':until 60 unsanitized' ':dump a4.txt' '<Enter>' ':dump c4.txt' Q
t "4: exit 0" [ "$?" = 0 ]
t "4: said" grep -qF "$un: unsanitized (no compute-sanitizer)" "$T/a4.txt"
t "4: the sanitized one stays best" best a4 "$fast2"
t "4: the faster one is not best" notbest a4 "$un"
t "4: detail says why" grep -qxF "sanitize: unsanitized (no compute-sanitizer): faster than the best, not recommended until it passes the sanitizer" <<<"$(sed 's/ *$//' "$T/c4.txt")"

# 5. nothing could be sanitized: the best is provisional
cd "$T" && git init -q -b main fresh && cd fresh || exit 1
git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" vadd && git add -A && git commit -qm "only"
one=$(commit_code second)
printf '2.0\n1.0\n' > "$T/medians"
RUNG_COMPUTE_SANITIZER=none tui ':until 60 2 evaluated' ':sleep 1' ':dump a5.txt' '<Enter>' ':dump c5.txt' Q
t "5: exit 0" [ "$?" = 0 ]
t "5: provisional best" prov a5 "$one"
t "5: detail says so" grep -qxF "sanitize: unsanitized (no compute-sanitizer): this best is provisional" <<<"$(sed 's/ *$//' "$T/c5.txt")"

# 6. a quit during a long sanitize run: not waited for, the run killed, nothing stored
echo 60 > "$T/cs_sleep"
: > "$T/argv.txt"
t0=$(date +%s)
tui ':until 60 sanitizing 1/1' ':dump a6.txt' ':sleep 1' Q # a second: compute-sanitizer is under way
rc=$?
t1=$(date +%s)
t "6: exit 0" [ "$rc" = 0 ]
t "6: it was sanitizing" grep -qE "^sanitizing 1/1 $one " "$T/a6.txt"
t "6: the quit did not wait for it ($((t1 - t0)) s)" [ $((t1 - t0)) -lt 30 ]
t "6: one tool run started ($(runs)), the quit came during it" [ "$(runs)" = 1 ]
sleep 0.5
t "6: no sanitizer left running" bash -c '! pgrep -f "$1/cs/compute-sanitizer" >/dev/null' _ "$T"
t "6: nothing stored as sanitized" bash -c '! "$1" log --json 2>/dev/null | tr -d " \n" | grep -qE "\"sanitize_state\":\"(sanitized|failed)\""' _ "$RUNG"

# 7. a task switch during a long sanitize run: the other task's evaluations do not wait for it
cd "$T" && git init -q -b main two && cd two || exit 1
git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" a && cp -r "$RUNG_SRC/tests/faults/good" b
sed -i 's/^name *=.*/name = task_a/' a/rung.ini && sed -i 's/^name *=.*/name = task_b/' b/rung.ini
git add -A && git commit -qm "both"
printf 'extern "C" __global__ void extra_a(int *p) { if (p) *p = 1; }\n' >> a/kernel.cu && git commit -qam "a faster"
printf 'extern "C" __global__ void extra_b(int *p) { if (p) *p = 1; }\n' >> b/kernel.cu && git commit -qam "b faster"
printf '2.0\n1.0\n2.0\n1.0\n' > "$T/medians"
: > "$T/argv.txt"
t0=$(date +%s)
tui ':until 60 sanitizing 1/1' ':dump a7.txt' T ':until 30 b faster oooo*' ':dump b7.txt' Q
rc=$?
t1=$(date +%s)
t "7: exit 0" [ "$rc" = 0 ]
t "7: the first task was sanitizing" grep -qE "^sanitizing 1/1 " "$T/a7.txt"
t "7: the other task is shown" grep -qE "task_b .*task 2/2" "$T/b7.txt"
t "7: its versions were evaluated, then its best sanitizing" grep -qE "^.{4}[0-9a-f]{7} .* b faster oooo\* " "$T/b7.txt"
t "7: neither waited for the killed run ($((t1 - t0)) s)" [ $((t1 - t0)) -lt 25 ]
t "7: at most one tool run started per task ($(runs))" [ "$(runs)" -le 2 ]
exit $fail
