#!/bin/bash
# The commands that had hand-written argv loops (profile, trace, watch, export,
# import, notes, ceilings, demo, tui, worker) parse through their option tables
# (cli/opts.h), on the real binary: `rung CMD --help` has a line for each option,
# `--opt=VALUE` (and -CDIR) work, numbers are read whole, hidden options parse
# but are listed nowhere, and an unknown option, a missing value or a bad value
# is one "rung CMD: ..." line on stderr with exit 2 and nothing on stdout.
# Every failure is reported (not only the first), then the test exits 1.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC LC_ALL=C.UTF-8 TERM=xterm-256color
unset NO_COLOR
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh" # T and REPO (sgemm, 3 versions, a note on HEAD~1); removed on exit
cd "$T" || exit 1 # not in a repository: a command that wrongly goes on stops at once
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# run ARGS...: rc, out (stdout) and err (stderr) of `rung ARGS...` (stdin /dev/null, at most 2 minutes)
run() {
	timeout 120 "$RUNG" "$@" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
}

# help_lists CMD OPT...: `rung CMD --help` exits 0 with a line "  OPT  help" for each OPT
help_lists() {
	local cmd=$1 o
	shift
	run "$cmd" --help
	[ "$rc" = 0 ] || fail "rung $cmd --help: exit $rc"
	for o in "$@" "-h, --help"; do
		grep -qE -- "^  $o  " <<<"$out" || fail "rung $cmd --help has no line for '$o'"
	done
}

# usage_err CMD MSG ARGS...: `rung CMD ARGS...` exits 2, its stderr starts with the
# line "rung CMD: MSG", and it prints nothing on stdout
usage_err() {
	local cmd=$1 msg=$2
	shift 2
	run "$cmd" "$@"
	[ "$rc" = 2 ] || fail "rung $cmd $*: exit $rc, expected 2 (stderr: $(head -1 <<<"$err"))"
	[ "$(head -1 <<<"$err")" = "rung $cmd: $msg" ] ||
		fail "rung $cmd $*: stderr '$(head -1 <<<"$err")', expected 'rung $cmd: $msg'"
	[ -z "$out" ] || fail "rung $cmd $*: printed on stdout: $out"
}

# the usual three: an unknown option (with the usage line), a missing value, a switch given a value
common_errs() {
	local cmd=$1 valopt=$2 valname=$3 switch=$4
	usage_err "$cmd" "unknown option '--frob'" --frob
	grep -q "^usage: rung $cmd " <<<"$err" || fail "rung $cmd --frob: no usage line after the error"
	usage_err "$cmd" "$valopt: expected a value ($valname), found the end of the command line" "$valopt"
	[ -n "$switch" ] && usage_err "$cmd" "$switch takes no value (found '$switch=1')" "$switch=1"
}

# not_listed CMD OPT: a hidden option is in neither the help, the docs nor the completion
"$RUNG" completion bash >"$T/bash" 2>&1
"$RUNG" completion zsh >"$T/zsh" 2>&1
"$RUNG" help --markdown >"$T/md" 2>&1
not_listed() {
	run "$1" --help
	grep -qF -- "$2" <<<"$out" && fail "rung $1 --help lists the hidden $2"
	sed -n "/^<!-- rung help --markdown $1 -->\$/,/^<!-- end -->\$/p" "$T/md" | grep -qF -- "$2" &&
		fail "rung help --markdown $1 lists the hidden $2"
	grep -qF -- "$2" "$T/bash" && fail "the bash completion offers the hidden $2"
	grep -qF -- "$2" "$T/zsh" && fail "the zsh completion offers the hidden $2"
}

W=(-C "$REPO" --task=sgemm) # the shared options, one in each form

# ---- profile and trace: run and check then profile/trace (no GPU: exit 4, SKIPPED)
for cmd in profile trace; do
	opts=(--json "--seed S" "-C DIR" "--task DIR" "--spec-rev REV")
	[ "$cmd" = profile ] && opts+=(--sass --ncu)
	help_lists "$cmd" "${opts[@]}"
	run "$cmd" --seed=5 --json "${W[@]}" HEAD
	{ [ "$rc" = 0 ] || [ "$rc" = 4 ]; } || fail "rung $cmd --seed=5 --json: exit $rc ($err)"
	grep -q '^{"status":' <<<"$out" || fail "rung $cmd --seed=5 --json: no JSON object: $out"
	common_errs "$cmd" --seed S --json
	usage_err "$cmd" "--seed: expected a non-negative integer, found '12x'" --seed 12x HEAD
	usage_err "$cmd" "--seed: expected a non-negative integer, found '-1'" --seed=-1 HEAD
	usage_err "$cmd" "--seed: expected a non-negative integer, found ''" --seed= HEAD
	usage_err "$cmd" "unexpected argument 'HEAD~1' (takes [TASKDIR|FILE|REV])" HEAD HEAD~1
done
not_listed profile --launch-only
# the hidden mode still parses (what --ncu runs under ncu): run and check lines only
run profile --launch-only "${W[@]}" HEAD
{ [ "$rc" = 0 ] || [ "$rc" = 4 ]; } || fail "rung profile --launch-only: exit $rc ($err)"
grep -q '^\[run\]' <<<"$out" || fail "rung profile --launch-only: no run line: $out"
grep -q '^\[profile\]' <<<"$out" && fail "rung profile --launch-only: profiled: $out"

# ---- watch: two looks at HEAD, nothing new
help_lists watch "--interval SEC" "--count N" --compile-only "-C DIR" "--task DIR" "--spec-rev REV"
run watch "${W[@]}" --interval=0.05 --count=2 --compile-only
[ "$rc" = 0 ] || fail "rung watch --interval=0.05 --count=2: exit $rc ($err)"
grep -q "sgemm/sgemm.cu, 3 version(s) so far" <<<"$err" || fail "rung watch: no banner: $err"
common_errs watch --interval SEC --compile-only
usage_err watch "--count: expected an integer of at least 0, found '3x'" --count 3x
usage_err watch "--count: expected an integer of at least 0, found '-1'" --count -1
usage_err watch "--interval: expected a number greater than 0 and at most 86400, found '0'" --interval 0
usage_err watch "--interval: expected a number, found '2s'" --interval=2s
usage_err watch "unexpected argument 'x' (takes no arguments)" x

# ---- export and import: the results of the store as lines, and back
help_lists export "--out FILE" --recorded "-C DIR" "--task DIR" "--spec-rev REV"
run export "${W[@]}" --out="$T/x.jsonl"
[ "$rc" = 0 ] || fail "rung export --out=FILE: exit $rc ($err)"
[ -f "$T/x.jsonl" ] || fail "rung export --out=FILE: no file"
common_errs export --out FILE --recorded
usage_err export "unexpected argument 'x' (takes no arguments)" x
help_lists import "-C DIR" "--task DIR" "--spec-rev REV"
run import "${W[@]}" "$T/x.jsonl"
[ "$rc" = 0 ] || fail "rung import -C DIR --task=DIR FILE: exit $rc ($err)"
grep -q "^imported 0 recorded result(s) from $T/x.jsonl\$" <<<"$out" || fail "rung import: $out"
common_errs import --task DIR ""
usage_err import "expected FILE, found nothing"
usage_err import "unexpected argument 'b' (takes FILE)" a b

# ---- notes
help_lists notes "-C DIR" "--task DIR" "--spec-rev REV"
run notes -C"$REPO" --task=sgemm
[ "$rc" = 0 ] || fail "rung notes -CDIR --task=DIR: exit $rc ($err)"
grep -q "^    verdict: keep\$" <<<"$out" || fail "rung notes: the note is not listed: $out"
common_errs notes --spec-rev REV ""
usage_err notes "unexpected argument 'x' (takes no arguments)" x

# ---- ceilings (no GPU: exit 4 and a SKIPPED object)
help_lists ceilings --json "-C DIR"
run ceilings -C"$REPO" --json
{ [ "$rc" = 0 ] || [ "$rc" = 4 ]; } || fail "rung ceilings -CDIR --json: exit $rc ($err)"
grep -q '^{"' <<<"$out" || fail "rung ceilings --json: no JSON object: $out"
common_errs ceilings -C DIR --json
usage_err ceilings "unknown option '--task'" --task x # -C only: ceilings takes no task

# ---- demo (it has no option with a value; tests/sh/demo.sh builds one)
help_lists demo --no-tui
usage_err demo "unknown option '--frob'" --frob
usage_err demo "--no-tui takes no value (found '--no-tui=1')" --no-tui=1
usage_err demo "unexpected argument 'b' (takes [DIR])" a b

# ---- tui, from a key script
help_lists tui "-C DIR" "--theme NAME" "--auto-eval\\[=MODE\\]" "--no-auto-eval"
not_listed tui --memory
usage_err tui "--auto-eval: auto_eval is on, off or gpu, not 'sometimes'" --auto-eval=sometimes
usage_err tui "--no-auto-eval takes no value (found '--no-auto-eval=1')" --no-auto-eval=1
printf ':dump v.txt\nQ\n' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=100 LINES=20 run tui --memory=5
[ "$rc" = 0 ] || fail "rung tui --memory=5: exit $rc ($err)"
grep -q "5 versions" "$T/v.txt" 2>/dev/null || fail "rung tui --memory=5: not 5 versions: $(head -1 "$T/v.txt" 2>/dev/null)"
rm -f "$T/v.txt"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=100 LINES=20 run tui -C"$REPO" --theme=light sgemm
[ "$rc" = 0 ] || fail "rung tui -CDIR --theme=light: exit $rc ($err)"
grep -q "rung sgemm: 3 versions" "$T/v.txt" 2>/dev/null || fail "rung tui -CDIR: $(head -1 "$T/v.txt" 2>/dev/null)"
common_errs tui --theme NAME ""
usage_err tui "--memory: expected an integer from 0 to 10000000, found '5x'" --memory 5x
usage_err tui "unexpected argument 'b' (takes [TASKDIR])" a b

# ---- worker: a table, but internal: in no list
help_lists worker --socket "--connect PATH"
"$RUNG" --help | grep -q '^  worker ' && fail "rung --help lists the worker"
grep -qw 'worker' "$T/bash" "$T/zsh" && fail "the completion offers the worker"
grep -q 'markdown worker' "$T/md" && fail "rung help --markdown has a block for the worker"
# --connect=PATH with no one listening: the protocol on stdin (here at its end at once)
run worker --socket --connect="$T/nosock"
[ "$rc" = 0 ] || fail "rung worker --socket --connect=PATH: exit $rc ($err)"
common_errs worker --connect PATH --socket
usage_err worker "--connect goes with --socket" --connect "$T/nosock"

[ "$failed" = 0 ] || exit 1
echo ok
