#!/usr/bin/env bash
# One validation for every command (#18 item 11): a version whose kernel has a
# broken `// rung:` launch line (an unknown key; an expression nested 100000
# deep) is said with its file:line by every command that loads it. check and
# dump stop (exit 3); eval (--compile-only too), watch and the workbench give
# it the verdict compile FAILED with the message (eval said "ok"); log, brief
# and the workbench's table show that verdict for it without an evaluation
# (they showed "not evaluated").
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
fail=0
t() { # t NAME CONDITION...: records a failure with its name
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -qF -- "$1" <<<"$2"; }
T=$(mktemp -d)
WPID=
cleanup() { [ -n "$WPID" ] && kill -KILL "$WPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
run() { out=$("$RUNG" "$@" 2>&1); rc=$?; }

cd "$T" && git init -q repo && cd repo
git config user.name "Ada Lovelace" && git config user.email ada@example.com
mkdir sgemm && cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
git add -A && git commit -qm "naive sgemm"
GOOD=$(git rev-parse --short=7 HEAD)
sed -i 's|^// rung: grid = |// rung: gird = |' sgemm/sgemm.cu
git commit -qam "misspelt launch key"
BAD=$(git rev-parse --short=7 HEAD)
MSG="sgemm/sgemm.cu:2: rung: unknown key 'gird' (expected grid, block or smem)"
python3 - sgemm/sgemm.cu <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read().replace("// rung: gird = cdiv(N,32)", "// rung: grid = " + "(" * 100000 + "1" + ")" * 100000)
open(p, "w").write(s)
EOF
git commit -qam "launch expression nested 100000 deep"
DEEP=$(git rev-parse --short=7 HEAD)
DMSG="sgemm/sgemm.cu:2: rung grid: expression nested too deeply"

# check and dump: the load fails at the line (exit 3)
for cmd in check dump; do
	run $cmd --compile-only HEAD~1
	[ "$cmd" = dump ] && run dump HEAD~1
	t "$cmd: exit 3" [ "$rc" = 3 ]
	t "$cmd: file:line" has "rung $cmd: sgemm/sgemm.cu@$BAD:2: rung: unknown key 'gird'" "$out"
done

# eval --compile-only, and eval (the GPU is never reached: the version does not build)
run eval --compile-only HEAD~1
t "eval --compile-only: exit 1" [ "$rc" = 1 ]
t "eval --compile-only: compile FAILED with the message" has "$BAD  FAIL - - - -           compile: $MSG  misspelt launch key" "$out"
run eval --compile-only HEAD
t "eval --compile-only: 100000 deep" has "$DEEP  FAIL - - - -           compile: $DMSG  launch expression" "$out"
run eval HEAD~1
t "eval: exit 1 (4 without a GPU)" [ "$rc" = 1 -o "$rc" = 4 ]
t "eval: compile FAILED with the message" has "compile: $MSG" "$out"
run eval --compile-only
t "eval (every version): the good one compiles" grep -q "^$GOOD  ok " <<<"$out"
t "eval (every version): both broken ones fail" [ "$(grep -c "FAIL - - - -  *compile: sgemm/sgemm.cu:2: rung" <<<"$out")" = 2 ]

# log (text and JSON) and brief: the verdict, without an evaluation
run log
t "log: exit 0" [ "$rc" = 0 ]
t "log: the broken row" grep -qE "^$BAD  misspelt launch key +FAIL - - - - +compile: sgemm/sgemm.cu:2: rung: unknown key 'gird'" <<<"$out"
# the good row: the compile verdict `eval --compile-only` gave, kept (#28 D-16: it read "not evaluated")
t "log: the good row is compiled only" grep -qE "^$GOOD  naive sgemm +ok skip skip skip skip " <<<"$out"
t "log: what compiled only means" grep -q "^         compiled here (sm_[0-9]*, [0-9-]*) with no GPU: run, check and bench need one$" <<<"$out"
run log --json
t "log --json: compile FAILED and the reason" grep -q "\"short\":\"$BAD\".*\"compile\":\"FAILED\".*\"reason\":\"compile: sgemm/sgemm.cu:2: rung: unknown key 'gird'" <<<"$out"
run brief
t "brief: the broken row" has "| $BAD | misspelt launch key |  | FAILED | compile: $MSG |" "$out"
t "brief: 100000 deep" has "| $DEEP | launch expression nested 100000 deep |  | FAILED | compile: $DMSG |" "$out"

# watch: a broken version committed while it watches gets the same verdict
"$RUNG" watch -C "$T/repo" --interval 0.2 >"$T/wout" 2>"$T/werr" &
WPID=$!
for _ in $(seq 1 200); do grep -q "waiting for commits" "$T/werr" && break; sleep 0.1; done
sed -i 's|^// rung: grid = .*|// rung: grid = cdiv(N,32), cdiv(M,32); blok = 32, 32|' sgemm/sgemm.cu
git commit -qam "misspelt block"
NEW=$(git rev-parse --short=7 HEAD)
for _ in $(seq 1 300); do grep -q "^$NEW " "$T/wout" && break; sleep 0.1; done
kill -TERM "$WPID"; wait "$WPID"; WPID=
t "watch: compile FAILED with the message" grep -qF "$NEW  FAIL - - - -           compile: sgemm/sgemm.cu:2: rung: unknown key 'blok'" "$T/wout"
git reset -q --hard HEAD~1

# the workbench: the evaluation of the selected version (e), through the pipeline
export TERM=xterm-256color LC_ALL=C.UTF-8
# (until its row shows the failed compile: about a second, 50 s at most)
printf 'e\n:until 50 deep ✗\n<Enter>\n:dump detail.txt\nQ\n' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=140 LINES=30 "$RUNG" tui -C "$T/repo" >"$T/tui.out" 2>&1
t "tui: exit 0" [ $? = 0 ]
t "tui e: detail shows compile FAILED with the message" grep -qE "^compile  ✗ FAILED .*$DMSG" "$T/detail.txt"

# the workbench's table at load (a store with results: the demo's recorded ones)
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || { echo "FAIL rung demo"; exit 1; }
cd "$T/demo" && sed -i '1i // rung: gird = 1' sgemm/sgemm.cu && git -c user.name=t -c user.email=t@e commit -qam "broken launch line"
printf ':wait\n<Enter>\n:dump detail2.txt\nQ\n' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=140 LINES=30 "$RUNG" tui -C "$T/demo" sgemm >"$T/tui.out" 2>&1
t "tui at load: detail shows compile FAILED with the message" \
	grep -qF "compile  ✗ FAILED   sgemm/sgemm.cu:1: rung: unknown key 'gird' (expected grid, block or smem)" "$T/detail2.txt"
exit $fail
