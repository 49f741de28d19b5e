#!/bin/bash
# rung demo: builds the ladder repository from the examples embedded in the
# binary (run from an unrelated directory), with the ladder commits in date
# order, their authors and dates, the steering notes, and a table with a row
# per version: recorded results where the examples carry them, else a real
# NVRTC compile (the broken step FAILS with file:line). A non-empty directory
# is refused and left alone; without a terminal the demo never waits.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd /   # any directory: the examples come from the binary

out=$("$RUNG" demo --no-tui "$T/d" 2>&1) || fail "rung demo failed: $out"
echo "$out"
grep -q "^rung demo: repository at $T/d$" <<<"$out" || fail "no repository line"
# the softmax ladder's Triton step (05-triton) is in the build only with the
# Triton PTX and its sidecar committed (examples/softmax-triton); without them
# the demo leaves it out and says which file to drop in
if [ -f "$RUNG_SRC/examples/softmax-triton/softmax.ptx" ] && [ -f "$RUNG_SRC/examples/softmax-triton/softmax.json" ]; then
	nsoft=5 skip=NONE
	grep -q "left out" <<<"$out" && fail "the Triton step was left out though its files are there: $out"
else
	nsoft=4 skip=05-triton
	grep -q "^rung demo: softmax step 05-triton left out: examples/softmax-triton/softmax.ptx is not in this build" <<<"$out" ||
		fail "no note on the Triton step left out: $out"
fi
grep -q "sgemm: 11 versions, softmax: $nsoft versions" <<<"$out" || fail "version counts"

# the ladder commits, in date order, as ladder.txt says (author, date, message)
want=$(cat "$RUNG_SRC"/examples/sgemm/ladder.txt "$RUNG_SRC"/examples/softmax/ladder.txt |
	grep -v '^#' | grep -Ev '^(remark|directive|done) [|]' | grep -v '^ *$' | grep -v "^$skip " |
	awk -F' [|] ' '{ printf "%s|%s|%s\n", $3, $2, $4 }' | sort -s -t'|' -k1,1)
[ "$(wc -l <<<"$want")" = $((11 + nsoft)) ] || fail "ladder plans: $want"
got=$(git -C "$T/d" log --reverse --date=format-local:%Y-%m-%dT%H:%M:%SZ --format='%ad|%an <%ae>|%s' | tail -n +2)
[ "$want" = "$got" ] || fail "commits differ from the ladder plan:
want:
$want
got:
$got"
first=$(git -C "$T/d" log --reverse --format='%an|%s' | head -1)
[ "$first" = "Ada Lovelace|Add the sgemm and softmax tasks: rung.ini and reference kernels" ] || fail "setup commit: $first"
git -C "$T/d" show --stat --format= HEAD~$((11 + nsoft)) | grep -q "sgemm/reference.cu" || fail "setup commit lacks the reference"
[ -z "$(git -C "$T/d" status --porcelain)" ] || fail "working tree not clean: $(git -C "$T/d" status --porcelain)"
cmp -s "$T/d/sgemm/sgemm.cu" "$RUNG_SRC/examples/sgemm/ladder/08-tf32-mma.cu" || fail "working tree is not the last step"

# steering notes
base=$(git -C "$T/d" log --format=%h --grep='^sgemm: naive kernel')
[ -n "$base" ] || fail "no baseline commit"
git -C "$T/d" notes --ref=rung show "$base" | grep -q "^verdict: baseline$" || fail "baseline verdict: $(git -C "$T/d" notes --ref=rung show "$base")"
git -C "$T/d" notes --ref=rung show "$base" | grep -q "^\* 2025-06-02 09:06 Ada Lovelace: Baseline for this ladder" || fail "baseline note text (a remark)"
ntail=$(git -C "$T/d" log --format=%h --grep='^sgemm: warp tiling')
git -C "$T/d" notes --ref=rung show "$ntail" | grep -q "^verdict: reject$" || fail "reject verdict"

# a row per version; without recorded results, compile status from a real NVRTC compile
for task in sgemm softmax; do
	for h in $(git -C "$T/d" log --format=%h -- "$task/$task.cu"); do
		grep -q "^$h " <<<"$out" || fail "no row for $task version $h"
	done
done
typo=$(git -C "$T/d" log --format=%h --grep='^sgemm: float4 global loads')
fixed=$(git -C "$T/d" log --format=%h --grep='^sgemm: fix build')
if [ -f "$RUNG_SRC/examples/sgemm/recorded.jsonl" ]; then
	grep -q "recorded on NVIDIA H200, " <<<"$out" || fail "recorded results not labelled"
	grep -A2 "^$typo " <<<"$out" | grep -q "FAILED compile: sgemm/sgemm.cu:[0-9]*:" || fail "typo step: $(grep -A2 "^$typo " <<<"$out")"
else
	grep -q "^$typo .* FAIL - - - - " <<<"$out" || fail "typo step not FAIL: $(grep "^$typo " <<<"$out")"
	grep -A1 "^$typo " <<<"$out" | grep -q "FAILED compile: sgemm/sgemm.cu:[0-9]*: reinterpret_cast" || fail "no file:line for the compile error"
	grep -q "^$fixed .* ok - - - - " <<<"$out" || fail "fixed step not compiled ok: $(grep "^$fixed " <<<"$out")"
	grep -q "11 versions compiled now with NVRTC (1 failed)" <<<"$out" || fail "compile summary"
	grep -q "$nsoft versions compiled now with NVRTC (0 failed)" <<<"$out" || fail "softmax compile summary"
fi
# nothing compile-only was stored: rung log still shows the versions as not evaluated
log=$("$RUNG" log -C "$T/d" --task sgemm 2>&1) || fail "rung log: $log"
[ "$(grep -c 'not evaluated' <<<"$log")" = 11 ] || [ -f "$RUNG_SRC/examples/sgemm/recorded.jsonl" ] || fail "rung log: $log"

# the suggested command is one the shell reads back: a path with a space and a quote is quoted
grep -q "^rung demo: open the workbench with: rung tui -C $T/d sgemm$" <<<"$out" || fail "plain path quoted: $out"
odd="$T/my demo's dir"
out=$("$RUNG" demo --no-tui "$odd" 2>&1) || fail "rung demo in '$odd': $out"
line=$(grep "^rung demo: open the workbench with: rung tui " <<<"$out") || fail "no suggested command: $out"
eval "set -- ${line#rung demo: open the workbench with: rung tui }"
[ $# = 3 ] && [ "$1" = -C ] && [ "$2" = "$odd" ] && [ "$3" = sgemm ] || fail "the shell reads '$line' as: $*"

# a non-empty directory is refused, its files kept
mkdir "$T/full" && echo keep >"$T/full/mine.txt"
err=$("$RUNG" demo --no-tui "$T/full" 2>&1) && fail "non-empty dir accepted"
grep -q "rung demo: $T/full is not empty (1 entry): the demo needs a new or empty directory; nothing was changed" <<<"$err" || fail "message: $err"
[ "$(cat "$T/full/mine.txt")" = keep ] && [ ! -e "$T/full/.git" ] || fail "files touched"
"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 && fail "existing demo repo overwritten"

# no terminal and no --no-tui: the table, never the workbench; default dir under $TMPDIR
out=$(TMPDIR="$T" timeout 60 "$RUNG" demo </dev/null 2>&1) || fail "demo without a terminal: $out"
grep -q "^rung demo: repository at $T/rung-demo-" <<<"$out" || fail "default directory: $out"
grep -q "not on a terminal" <<<"$out" || fail "no notice: $out"
grep -qE "^softmax: $nsoft versions of softmax/softmax.(cu|ptx)" <<<"$out" || fail "no table without a terminal"
# on a terminal it opens the workbench on the first task (keys from a script, no display)
if command -v script >/dev/null; then
	# it asks a worker for the GPU in the background; with none, it says so (only a
	# version without a recorded result gets its compile rung: a few seconds for it)
	# (until it says there is none: 5 s at most, all that a machine with a GPU waits)
	printf ':wait\n:until 5 no GPU: showing recorded results\n:dump versions.txt\nQ\n' >"$T/keys"
	TERM=xterm-256color COLUMNS=120 LINES=30 RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" \
		timeout 60 script -qec "'$RUNG' demo '$T/tui'" /dev/null >"$T/tui.out" 2>&1 || fail "demo on a terminal: $(cat "$T/tui.out")"
	grep -q "rung sgemm (task 1/2, T switches): 11 versions" "$T/versions.txt" || fail "workbench not opened on sgemm: $(cat "$T/versions.txt" "$T/tui.out")"
	if ! nvidia-smi >/dev/null 2>&1; then
		grep -q "no GPU: showing recorded results" "$T/versions.txt" || fail "no-GPU status missing: $(cat "$T/versions.txt")"
	fi
	grep -q "repository stays in $T/tui" "$T/tui.out" || fail "no closing line: $(cat "$T/tui.out")"
fi
# the commit ids the docs show are the ones the demo builds (they are deterministic)
ids=$("$RUNG" log -C "$T/d" --task sgemm 2>/dev/null | grep -oE '^[0-9a-f]{7} ' | tr -d ' ')
[ "$(wc -l <<<"$ids")" = 11 ] || fail "sgemm ids: $ids"
for id in $(head -1 <<<"$ids") $(tail -1 <<<"$ids"); do
	grep -q "$id" "$RUNG_SRC/docs/DEMO.md" || fail "docs/DEMO.md does not show $id"
	grep -q "$id" "$RUNG_SRC/README.md" || fail "README.md does not show $id"
done
"$RUNG" demo --bogus >/dev/null 2>&1; [ $? = 2 ] || fail "bad option not a usage error"
echo "demo: ok"
