#!/usr/bin/env bash
# No version is recommended before it passed the sanitizer (#25 item 1,
# docs/CHECKS.md "Sanitize before best"), and the sanitize rung at the
# benchmark shape with its cost limit (item 2), without a GPU: a fake worker
# (RUNG_WORKER_EXE) gives each version a median from a list and a fake
# compute-sanitizer (RUNG_COMPUTE_SANITIZER) writes a report per tool and
# runs the worker. rung eval sanitizes the would-be best after its versions
# (memcheck, racecheck, synccheck, each at the smallest check shape and at
# the benchmark shape), once per machine code; a failed run makes it not
# best, the next fastest is sanitized instead; brief, log, log --json and
# check show the state; without compute-sanitizer the best is provisional.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC LC_ALL=C
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the fake GPU and compute-sanitizer (worker.sh, cs/compute-sanitizer; clean, runs)
. "$RUNG_SRC/tests/sh/lib/fake_sanitizer.sh"
commit_code() { # a change that reaches the machine code
	printf 'extern "C" __global__ void extra_%s(int *p) { if (p) *p = 1; }\n' "$1" >> vadd/kernel.cu
	git commit -qam "$1"
}

cd "$T" && git init -q -b main repo && cd repo || exit 1
git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" vadd && git add -A && git commit -qm "slow"
commit_code "faster"
commit_code "fastest"
fastest=$(git rev-parse --short=7 HEAD)
printf '3.0\n2.0\n1.0\n' > "$T/medians"
clean

# 1. the fastest is sanitized after the batch, with every gate tool at both shapes
out=$("$RUNG" eval --all 2>"$T/err"); rc=$?
cat "$T/err"
t "eval: exit 0" [ "$rc" = 0 ]
t "eval: the gate names the version and why" grep -qF "rung eval: sanitizing $fastest before it is recommended (the fastest passing version, 1 ms): memcheck, racecheck, synccheck" "$T/err"
t "eval: progress per tool" grep -qF "rung eval: sanitize $fastest: racecheck 2/3 at the benchmark shape" "$T/err"
t "eval: 3 tools x 2 shapes" [ "$(runs)" = 6 ]
t "eval: each tool once per shape" [ "$(sort "$T/argv.txt" | uniq -c | awk '{print $1}' | sort -u)" = 2 ]
t "eval: two sanitize jobs at the benchmark shape per... tool" [ "$(grep -c '^sanitize ' "$T/jobs")" = 6 ]
t "eval: its verdict and cost" grep -qE "^rung eval: $fastest: sanitized \(memcheck, racecheck, synccheck; benchmark shape covered\); memcheck [0-9.]+ s \+ [0-9.]+ s at the benchmark shape, racecheck" "$T/err"
t "eval: best said" grep -qxF "rung eval: best $fastest (sanitized)" "$T/err"
brief=$("$RUNG" brief 2>&1)
t "brief: best is the sanitized one" grep -qF "$fastest \"fastest\"" <<<"$(sed -n '/## Best passing version/,/## /p' <<<"$brief")"
t "brief: the state" grep -qxF "sanitize: sanitized (memcheck, racecheck, synccheck; benchmark shape covered)" <<<"$brief"
json=$("$RUNG" log --json 2>/dev/null | tr -d ' \n')
t "log --json: state of the best" grep -qF "\"sanitize_state\":\"sanitized\"" <<<"$json"
t "log --json: the others not sanitized" [ "$(grep -o '"sanitize_state":"not-sanitized"' <<<"$json" | wc -l)" = 2 ]
t "log --json: one best" [ "$(grep -o '"best":true' <<<"$json" | wc -l)" = 1 ]
t "log --json: cost per tool" grep -qE '"sanitize_cost":\{"bench_limit_s":60(\.0)?,"tools":\[\{"tool":"memcheck","check_ms":[0-9.e+-]+,"bench_ms":[0-9.e+-]+,"bench":"covered"\}' <<<"$json"
log=$("$RUNG" log 2>&1)
t "log: best line" grep -qxF "best: $fastest sanitized (memcheck, racecheck, synccheck; benchmark shape covered)" <<<"$log"

mcp=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"brief","arguments":{}}}' | "$RUNG" mcp 2>/dev/null | tr -d ' \n')
t "mcp brief: best structured" grep -qF "\"best\":{\"version\":\"$(git rev-parse HEAD)\",\"short\":\"$fastest\",\"state\":\"sanitized\",\"provisional\":false" <<<"$mcp"

# 2. nothing new to run: the gate does not run again
: > "$T/argv.txt"
"$RUNG" eval 2>"$T/err" >/dev/null
t "again: no sanitizer run" [ "$(runs)" = 0 ]

# 3. a faster version with a race: sanitized, FAILED, not best; the sanitized one stays best
commit_code "racy"
racy=$(git rev-parse --short=7 HEAD)
echo 0.5 > "$T/medians"
cp "$FIX/racecheck_oneline.txt" "$T/racecheck.log"
out=$("$RUNG" eval 2>"$T/err"); rc=$?
cat "$T/err"; echo "$out"
t "race: exit 1" [ "$rc" = 1 ]
t "race: its line says sanitize FAILED, not best" grep -qE "^$racy +sanitize FAILED: racecheck: race between read at k.cu:10 and write at k.cu:13 .*\(not best\)$" <<<"$out"
t "race: racecheck not run again at the benchmark shape (5 runs)" [ "$(runs)" = 5 ]
t "race: best stays" grep -qxF "rung eval: best $fastest (sanitized)" "$T/err"
brief=$("$RUNG" brief 2>&1)
t "race: brief's best" grep -qF "$fastest \"fastest\"" <<<"$(sed -n '/## Best passing version/,/## /p' <<<"$brief")"
t "race: brief's table names it" grep -qF "sanitize: racecheck: race between read" <<<"$brief"
t "race: log --json" grep -qF '"sanitize_state":"failed"' <<<"$("$RUNG" log --json 2>/dev/null | tr -d ' \n')"

# 4. a comment-only copy of the sanitized version: the same machine code, no run
clean
git revert --no-edit HEAD >/dev/null && printf '// a comment\n' >> vadd/kernel.cu && git commit -qam "comment on fastest"
: > "$T/argv.txt"
"$RUNG" eval 2>"$T/err" >/dev/null
cat "$T/err"
t "no-op: no sanitizer run" [ "$(runs)" = 0 ]
t "no-op: best is sanitized" grep -qE "^rung eval: best [0-9a-f]{7} \(sanitized\)$" "$T/err"

# 5. no compute-sanitizer: a faster version is not best, and says why
commit_code "unsanitizable"
un=$(git rev-parse --short=7 HEAD)
echo 0.25 > "$T/medians"
out=$(RUNG_COMPUTE_SANITIZER=none "$RUNG" eval 2>"$T/err"); rc=$?
cat "$T/err"
t "no tool: exit 0 (the versions passed)" [ "$rc" = 0 ]
t "no tool: said" grep -qF "rung eval: $un: unsanitized (no compute-sanitizer)" "$T/err"
t "no tool: not said to be sanitizing" bash -c '! grep -q "sanitizing" "$1"' _ "$T/err"
t "no tool: the sanitized one stays best" grep -qE "^rung eval: best [0-9a-f]{7} \(sanitized\); a faster version is not sanitized yet$" "$T/err"
brief=$(RUNG_COMPUTE_SANITIZER=none "$RUNG" brief 2>&1)
t "no tool: brief names the faster one" grep -qF "faster, not recommended until it passes the sanitizer: $un" <<<"$brief"

# 6. a repository where nothing could be sanitized: the best is provisional
cd "$T" && git init -q -b main fresh && cd fresh || exit 1
git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" vadd && git add -A && git commit -qm "only"
echo 1.5 > "$T/medians"
RUNG_COMPUTE_SANITIZER=none "$RUNG" eval 2>"$T/err" >/dev/null
cat "$T/err"
t "provisional: eval says so" grep -qE "^rung eval: best [0-9a-f]{7} is provisional: unsanitized \(no compute-sanitizer\)$" "$T/err"
brief=$(RUNG_COMPUTE_SANITIZER=none "$RUNG" brief 2>&1)
t "provisional: brief says so" grep -qxF "sanitize: unsanitized (no compute-sanitizer): this best is provisional" <<<"$brief"
t "provisional: log says so" grep -qE "^best: [0-9a-f]{7} provisional: unsanitized \(no compute-sanitizer\)$" <<<"$(RUNG_COMPUTE_SANITIZER=none "$RUNG" log 2>&1)"
t "provisional: log --json" grep -qF '"sanitize_state":"unsanitized"' <<<"$(RUNG_COMPUTE_SANITIZER=none "$RUNG" log --json 2>/dev/null | tr -d ' \n')"

# the same store once compute-sanitizer is there: nothing to evaluate, but the best is sanitized
clean
: > "$T/argv.txt"
out=$("$RUNG" eval 2>"$T/err"); rc=$?
cat "$T/err"
t "later: nothing to evaluate" grep -q "nothing to evaluate" <<<"$out"
t "later: the best sanitized now" grep -qE "^rung eval: best [0-9a-f]{7} \(sanitized\)$" "$T/err"
t "later: 3 tools x 2 shapes" [ "$(runs)" = 6 ]
t "later: exit 0" [ "$rc" = 0 ]
commit_code "faster_later"
later=$(git rev-parse --short=7 HEAD)
echo 0.75 > "$T/medians"
: > "$T/argv.txt"
"$RUNG" eval --no-sanitize >/dev/null 2>&1
t "--no-sanitize: no gate" [ "$(runs)" = 0 ]
t "--no-sanitize: the faster one is not best" grep -qE "^best: [0-9a-f]{7} sanitized .*; faster, not recommended until it passes the sanitizer: $later \(not sanitized\)$" <<<"$("$RUNG" log 2>&1)"

# 7. the cost limit at the benchmark shape: past it, said and recorded, not a failure
clean
touch "$T/slow"
: > "$T/argv.txt"
echo 1.0 > "$T/medians"
out=$(RUNG_SANITIZE_BENCH_LIMIT=1 "$RUNG" check -C vadd --sanitize=racecheck 2>&1); rc=$?
rm -f "$T/slow"
echo "$out"
t "limit: exit 0" [ "$rc" = 0 ]
t "limit: ok" grep -qxF '[sanitize] ok no findings (racecheck)' <<<"$out"
t "limit: said" grep -qxF '[sanitize]   benchmark shape: racecheck: over the 1 s limit at the benchmark shape (not covered there)' <<<"$out"
t "limit: cost line" grep -qE '^\[sanitize\]   cost: racecheck [0-9.]+ s \+ [0-9.]+ s at the benchmark shape$' <<<"$out"
echo 1.0 > "$T/medians"
json=$(RUNG_SANITIZE_BENCH_LIMIT=1 "$RUNG" check -C vadd --sanitize=racecheck --json 2>/dev/null | tr -d ' \n')
t "limit: json" grep -qE '"sanitize_cost":\{"bench_limit_s":1(\.0)?,"tools":\[\{"tool":"racecheck","check_ms":[0-9.e+-]+,"bench_ms":[0-9.e+-]+,"bench":"covered"\}' <<<"$json"

# 8. a race only at the benchmark shape: the second run finds it, and says where
rm -f "$T"/*.n
cp "$FIX/racecheck_oneline.txt" "$T/racecheck.2.log"
echo 1.0 > "$T/medians"
out=$("$RUNG" check -C vadd --sanitize=racecheck 2>&1); rc=$?
rm -f "$T/racecheck.2.log"
echo "$out"
t "bench race: exit 1" [ "$rc" = 1 ]
t "bench race: found there, said so" grep -qxF '[sanitize] FAILED racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards) (at the benchmark shape)' <<<"$out"
exit $fail
