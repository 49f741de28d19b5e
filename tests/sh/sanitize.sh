#!/usr/bin/env bash
# The sanitize rung from the command line, without a GPU: a fake worker
# (RUNG_WORKER_EXE) stands in for the GPU rungs and a fake compute-sanitizer
# (RUNG_COMPUTE_SANITIZER) writes a report from tests/fixtures/sanitize/ and
# runs the worker. Flag and spec errors, SKIPPED without compute-sanitizer
# (exit 4), findings (exit 1), the spec's default and --no-sanitize, the
# rung stored with a version's result and reused, rung eval --sanitize.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FIX="$RUNG_SRC/tests/fixtures/sanitize"

cat > "$T/worker.sh" <<'EOF'
#!/bin/sh
printf '%s\n' '{"type":"hello","proto":1,"ok":true,"env":{"valid":true,"gpu":"Fake GPU","uuid":"GPU-fake","arch":"sm_90","sms":3}}' >&0
while IFS= read -r line; do
	case "$line" in
	*'"type":"job"'*)
		res='{"steps":{"run":{"status":"ok"},"check":{"status":"ok"},"bench":{"status":"SKIPPED","reason":"fake worker"}},"metrics":[{"output":"c","n":1000,"pass":true}],"nshapes":1,"nseeds":1}'
		printf '{"type":"result","fatal":false,"blobs":[%d]}\n%s' ${#res} "$res" >&0 ;;
	*'"type":"quit"'*) exit 0 ;;
	esac
done
EOF
mkdir -p "$T/cs"
cat > "$T/cs/compute-sanitizer" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >> "$T/argv.txt"
while [ \$# -gt 0 ]; do
	case "\$1" in
	--tool) tool=\$2; shift 2 ;;
	--log-file) log=\$2; shift 2 ;;
	--target-processes|--print-limit) shift 2 ;;
	*) break ;;
	esac
done
cat "$T/\$tool.log" > "\$log"
"\$@"
EOF
chmod +x "$T/worker.sh" "$T/cs/compute-sanitizer"
# the counts of tool runs below are of the runs at the smallest check shape:
# the second run of each tool at the benchmark shape is off here
# (tests/sh/sanitize_gate.sh covers it)
export RUNG_WORKER_EXE="$T/worker.sh" TMPDIR="$T" RUNG_SANITIZE_BENCH_LIMIT=0
logs() { cp "$FIX/$1" "$T/memcheck.log"; cp "$FIX/$2" "$T/racecheck.log"; }
cp -r "$RUNG_SRC/tests/faults/good" "$T/task"
cd "$T/task"

# 1. usage errors: exit 2, the unknown tool named
err=$("$RUNG" check --sanitize=memcheck,leakcheck 2>&1); rc=$?
t "unknown tool exits 2" [ "$rc" = 2 ]
t "unknown tool message" grep -qF "rung check: --sanitize: unknown tool 'leakcheck' (expected memcheck, racecheck, synccheck, initcheck)" <<<"$err"
"$RUNG" check --compile-only --sanitize >/dev/null 2>&1; rc=$?
t "--sanitize with --compile-only exits 2" [ "$rc" = 2 ]

# 2. no compute-sanitizer: SKIPPED with where it looked, exit 4
out=$(RUNG_COMPUTE_SANITIZER=none "$RUNG" check --sanitize 2>&1); rc=$?
echo "$out"
t "no sanitizer: other rungs ran" grep -q '^\[check\] ok' <<<"$out"
t "no sanitizer: SKIPPED line" grep -qxF '[sanitize] SKIPPED compute-sanitizer not found (looked in PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)' <<<"$out"
t "no sanitizer: exit 4" [ "$rc" = 4 ]
if [ ! -x /usr/local/cuda/bin/compute-sanitizer ]; then
	out=$(env -u RUNG_COMPUTE_SANITIZER PATH=/nonexistent CUDA_HOME=/nonexistent "$RUNG" check --sanitize 2>&1); rc=$?
	t "PATH and CUDA_HOME nowhere: SKIPPED, exit 4" [ "$rc" = 4 ]
	t "PATH and CUDA_HOME nowhere: reason" grep -qF '[sanitize] SKIPPED compute-sanitizer not found' <<<"$out"
else
	echo "skip PATH/CUDA_HOME case (/usr/local/cuda/bin/compute-sanitizer exists here)"
fi
out=$(RUNG_COMPUTE_SANITIZER=none "$RUNG" check 2>&1); rc=$?
t "not asked for: no sanitize line, exit 0" [ "$rc" = 0 ]
t "not asked for: nothing printed" bash -c '! grep -q "^\[sanitize\]" <<<"$1"' _ "$out"

# 3. findings: FAILED with the first one, the others listed, exit 1
export RUNG_COMPUTE_SANITIZER="$T/cs/compute-sanitizer"
logs memcheck_oob.txt racecheck_clean.txt
out=$("$RUNG" check --sanitize 2>&1); rc=$?
echo "$out"
t "finding: FAILED line" grep -qxF '[sanitize] FAILED memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd by thread (232,0,0) in block (3,0,0): address 0x7f3c7f2ff000 is out of bounds (2 reports)' <<<"$out"
t "finding: the write listed too" grep -qF '[sanitize]   also memcheck: invalid __global__ write of size 4 bytes at kernel.cu:7 in vadd' <<<"$out"
t "finding: exit 1" [ "$rc" = 1 ]
t "one run per tool" [ "$(grep -c -- '--tool' "$T/argv.txt")" = 2 ]
t "argv: memcheck run" grep -qE -- "^--tool memcheck --target-processes all --log-file $T/rung-sanitize-[A-Za-z0-9]{6} --print-limit 100 $T/worker.sh worker --socket --connect /[^ ]*/rung-worker-[A-Za-z0-9]{6}/w.sock$" "$T/argv.txt"
t "log files removed" bash -c '! ls "$1"/rung-sanitize-* >/dev/null 2>&1' _ "$T"
json=$("$RUNG" check --sanitize=memcheck --json 2>/dev/null)
t "json: findings" grep -qF '"sanitize":[{"tool":"memcheck","kind":"invalid-global-read","where":"candidate","kernel":"vadd","file":"kernel.cu","line":6,"count":2,' <<<"$json"
t "json: step" grep -qF '"sanitize":{"status":"FAILED","reason":"memcheck: invalid __global__ read' <<<"$json"
logs memcheck_reference.txt racecheck_clean.txt
out=$("$RUNG" check --sanitize=memcheck 2>&1); rc=$?
t "reference finding: reference failed, exit 3" [ "$rc" = 3 ]
t "reference finding: line" grep -qF '[sanitize] FAILED reference failed: memcheck: invalid __global__ write of size 4 bytes at reference.cu:6 in vadd_ref' <<<"$out"

# 4. the spec's default, and --no-sanitize
logs clean.txt racecheck_clean.txt
: > "$T/argv.txt"
sed -i 's/^seeds = 2$/seeds = 2\nsanitize = racecheck/' rung.ini
grep -q '^sanitize = racecheck$' rung.ini || { echo "FAIL spec edit"; exit 1; }
out=$("$RUNG" check 2>&1); rc=$?
t "spec default: ok, exit 0" [ "$rc" = 0 ]
t "spec default: line" grep -qxF '[sanitize] ok no findings (racecheck)' <<<"$out"
t "spec default: racecheck only" [ "$(cat "$T/argv.txt" | cut -d' ' -f2)" = racecheck ]
out=$("$RUNG" check --no-sanitize 2>&1); rc=$?
t "--no-sanitize: no line" bash -c '! grep -q "^\[sanitize\]" <<<"$1"' _ "$out"
sed -i 's/^sanitize = racecheck$/sanitize = racecheck, leakcheck/' rung.ini
err=$("$RUNG" check 2>&1); rc=$?
t "spec error: exit 3" [ "$rc" = 3 ]
t "spec error: file:line" grep -qF "rung.ini:16: [check] sanitize: unknown tool 'leakcheck'" <<<"$err"
sed -i '/^sanitize = /d' rung.ini

# 5. a version from git: stored with the result, reused, run again for other tools
cd "$T" && git init -q repo && cd repo
git config user.name t && git config user.email t@example.com
cp -r "$T/task" vadd && git add -A && git commit -qm "vadd" && git commit -q --allow-empty -m "same content"
: > "$T/argv.txt"
out=$("$RUNG" check --sanitize HEAD~1 2>&1); rc=$?
t "git: first run ok" [ "$rc" = 0 ]
t "git: sanitize line" grep -qxF '[sanitize] ok no findings (memcheck, racecheck); 1 host-side report (rung'"'"'s own CUDA calls) not counted' <<<"$out"
out=$("$RUNG" check --sanitize HEAD 2>&1); rc=$?
t "git: same content reused" grep -qF '[sanitize] ok no findings (memcheck, racecheck); 1 host-side report (rung'"'"'s own CUDA calls) not counted (cached)' <<<"$out"
t "git: not run again" [ "$(wc -l < "$T/argv.txt")" = 2 ]
out=$("$RUNG" check HEAD 2>&1)
t "git: shown without the flag" grep -qF '[sanitize] ok no findings (memcheck, racecheck)' <<<"$out"
cp "$FIX/synccheck.txt" "$T/synccheck.log"
out=$("$RUNG" check --sanitize=synccheck HEAD 2>&1); rc=$?
t "git: another tool runs, only that one" [ "$(wc -l < "$T/argv.txt")" = 3 ]
# a kernel of neither name ('reduce' in k.cu) counts as the candidate's
t "git: its verdict" [ "$rc" = 1 ]
t "git: its finding" grep -qF '[sanitize] FAILED synccheck: barrier error detected. Divergent thread(s) in block at k.cu:31 in reduce' <<<"$out"
json=$("$RUNG" check --json HEAD 2>/dev/null)
t "git: the three tools stored" grep -qF '"sanitize_tools":["memcheck","racecheck","synccheck"]' <<<"$json"
log=$("$RUNG" log 2>&1)
t "log: the rung in the steps" grep -qE 'ok ok ok skip - FAIL' <<<"$log"

# 6. rung eval --sanitize: also the versions already stored
logs memcheck_oob.txt racecheck_clean.txt
# a new version with other machine code (a comment alone would be a no-op
# version, which carries the stored verdict: tests/sh/noop.sh)
printf '// a new version\nextern "C" __global__ void v3_extra(int *p) { if (p) *p = 3; }\n' >> vadd/kernel.cu && git commit -qam "third"
: > "$T/argv.txt"
out=$("$RUNG" eval --sanitize=memcheck HEAD 2>&1); rc=$?
echo "$out"
t "eval: FAILED, exit 1" [ "$rc" = 1 ]
t "eval: the steps" grep -qE ' ok ok ok skip - FAIL ' <<<"$out"
t "eval: reason" grep -qF 'sanitize: memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd' <<<"$out"
t "eval: ran once" [ "$(wc -l < "$T/argv.txt")" = 1 ]
out=$("$RUNG" eval --sanitize=memcheck 2>&1)
t "eval --missing: nothing left" grep -q "nothing to evaluate" <<<"$out"
# a stored version without initcheck is missing it: run on the stored result
cp "$FIX/clean.txt" "$T/initcheck.log"
out=$("$RUNG" eval --sanitize=initcheck 2>&1); rc=$?
t "eval --missing --sanitize: the stored ones" [ "$(wc -l < "$T/argv.txt")" = 3 ]
out=$(RUNG_COMPUTE_SANITIZER=none "$RUNG" eval --sanitize=synccheck HEAD 2>&1); rc=$?
t "eval without the tool: exit 4" [ "$rc" = 4 ]
err=$("$RUNG" eval --sanitize=bogus 2>&1); rc=$?
t "eval: bad tool exits 2" [ "$rc" = 2 ]

# 7. the workbench: S sanitizes the selected version in the background (rung eval --sanitize);
# the script waits until the status line's "queued" gives way (the queue is done)
: > "$T/argv.txt"
cat > "$T/keys" <<'KEYS'
S
:until 60 Fake GPU: evaluating every version
:dump versions.txt
<Enter>
:dump detail.txt
Q
KEYS
TERM=xterm-256color LC_ALL=C.UTF-8 RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=110 LINES=30 \
	"$RUNG" tui >"$T/tui.out" 2>&1; rc=$?
t "tui: exits 0" [ "$rc" = 0 ] || cat "$T/tui.out"
t "tui: S ran the missing tool" grep -q -- '--tool racecheck' "$T/argv.txt"
t "tui: CRKBS column" grep -q 'CRKBS' "$T/versions.txt"
t "tui: detail sanitize line" grep -qE '^sanitize .*FAILED .*memcheck, racecheck, initcheck' "$T/detail.txt" || cat "$T/detail.txt"
t "tui: detail finding" grep -qF 'candidate memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd' "$T/detail.txt"
exit $fail
