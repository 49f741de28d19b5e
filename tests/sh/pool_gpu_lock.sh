#!/bin/bash
# The pool on one GPU, without a GPU: fake workers with a device
# (tests/sh/lib/fake_gpu_worker.py, as RUNG_WORKER_EXE) note when each job
# starts and ends on which device UUID.
#  1. local:0,0 (two workers, one device): no two jobs on the device overlap,
#     every timing is marked shared naming the other worker, the workers are
#     local:0 and local:0#2, and the version that only adds a comment is a
#     no-op of the one before (not run: 4 jobs for 5 versions), as with one
#     worker; the verdicts are the one worker's.
#  2. local:0,1 (two devices): their jobs do overlap (what 1 checks can be
#     seen), and nothing is marked shared.
#  3. two devices reporting one UUID (two ssh hosts that reach one box): one
#     job at a time again.
#  4. --sanitize: each member's sanitize rung runs under a fake
#     compute-sanitizer pinned to that member's device, inside the GPU's
#     turn; a stored result without the rung gets it from the pool.
#  5. rung watch --workers local:0,0 (and `workers =` in the config): two
#     commits made together are evaluated on the pool, one line each in
#     commit order naming its worker, one job at a time on the device; a bad
#     spec exits 2 at once.
#  6. local:0,1 where device 1 has no GPU (local:2 on a one-GPU box): every
#     version runs on local:0, none is SKIPPED, and local:1 is retired saying
#     why; with no GPU anywhere every version still gets its (SKIPPED) verdict.
#  7. rung compare --stored of two versions timed on different GPU models
#     (each on its own pool member): OTHER_GPU, exit 1, naming both; --any-gpu
#     gives the verdict with both named; one model: the verdict, exit 0;
#     --any-gpu without --stored: exit 2; rung log gives no speedup over a
#     baseline timed on another model.
#  8. a spec without arch on a pool of two archs: each version compiled for
#     the device that runs it (sm_90 on device 0, sm_80 on device 1).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3 (skipping)"; exit 77; }
T=$(mktemp -d)
WPID=
trap '[ -n "$WPID" ] && kill -KILL "$WPID" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export RUNG_WORKER_EXE=$RUNG_SRC/tests/sh/lib/fake_gpu_worker.py FAKE_LOG=$T/log FAKE_JOB_S=0.4
R=$T/repo
git init -q "$R"
git -C "$R" config user.name "Ada Lovelace"
git -C "$R" config user.email ada@example.com
mkdir "$R/t"
cp "$RUNG_SRC"/tests/faults/good/{rung.ini,kernel.cu,reference.cu} "$R/t/"
git -C "$R" add -A && git -C "$R" commit -qm "v0"
for k in 1 2 3; do # three versions with machine code of their own
	sed -i "s/c\[i\] = .*/c[i] = a[i] + b[i] + (float)(i \& $k);/" "$R/t/kernel.cu"
	git -C "$R" commit -qam "v$k"
done
echo "// only a comment" >>"$R/t/kernel.cu"
git -C "$R" commit -qam "comment"
mapfile -t revs < <(git -C "$R" rev-list --reverse --abbrev-commit --abbrev=7 HEAD)
fresh() { rm -rf "$R/.git/rung"; : >"$T/log"; }

# overlaps UUID: the number of pairs of jobs on UUID whose [start, end] overlap
overlaps() {
	python3 - "$T/log" "$1" <<'EOF'
import sys
spans, open_ = [], {}
for line in open(sys.argv[1]):
    what, uuid, t, pid = line.split()
    if uuid != sys.argv[2]:
        continue
    if what == "start":
        open_[pid] = float(t)
    else:
        spans.append((open_.pop(pid), float(t)))
print(sum(1 for i, a in enumerate(spans) for b in spans[i + 1:] if a[0] < b[1] and b[0] < a[1]))
EOF
}
verdicts() { grep -E "^[0-9a-f]{7} " | awk '{print $1, $2, $3, $4, $5}'; }

# the one worker's verdicts, for comparison
fresh
one=$("$RUNG" eval -C "$R" --task t --all --stats 2>&1)
echo "$one"
grep -q "1 no-op" <<<"$one" || fail "one worker: the comment-only version is not a no-op (the test's premise)"

# 1. two workers on one device
fresh
out=$("$RUNG" eval -C "$R" --task t --all --workers local:0,0 --stats 2>&1)
rc=$?
echo "$out"
cat "$T/log"
[ "$rc" = 0 ] || fail "local:0,0: exit $rc"
[ "$(verdicts <<<"$out")" = "$(verdicts <<<"$one")" ] || fail "local:0,0: verdicts differ from one worker's"
[ "$(overlaps GPU-fake-0)" = 0 ] || fail "local:0,0: two jobs on one GPU at once"
[ "$(grep -c '^start GPU-fake-0 ' "$T/log")" = 4 ] || fail "local:0,0: not 4 jobs for 4 distinct versions + 1 no-op"
grep -q "1 no-op" <<<"$out" || fail "local:0,0: the comment-only version is not a no-op"
for r in "${revs[@]}"; do
	[ "$(grep -c "^$r " <<<"$out")" = 1 ] || fail "$r: not exactly one result"
	grep -E "^$r " <<<"$out" | grep -qE "shared GPU: pid [0-9]+ rung worker \(pool local:0(#2)?\).*\[worker local:0(#2)?\]$" ||
		fail "$r: not marked shared with the other worker of the device"
done
grep -q "^stats: worker local:0: " <<<"$out" && grep -q "^stats: worker local:0#2: " <<<"$out" || fail "no stats for local:0 and local:0#2"
grep -qE "^stats: worker local:0#2: .*, waited [0-9.]+ s for its GPU" <<<"$out" || fail "no GPU wait in the stats"

# 2. two devices: the jobs overlap, nothing shared (the overlap depends on the
# compiles keeping ahead of the GPUs: on a loaded machine, up to 3 tries)
for try in 1 2 3; do
fresh
out=$("$RUNG" eval -C "$R" --task t --all --workers local:0,1 2>&1)
echo "$out"
[ "$(verdicts <<<"$out")" = "$(verdicts <<<"$one")" ] || fail "local:0,1: verdicts differ from one worker's"
o0=$(overlaps GPU-fake-0) o1=$(overlaps GPU-fake-1)
[ "$o0" = 0 ] && [ "$o1" = 0 ] || fail "local:0,1: two jobs at once on one device"
python3 - "$T/log" <<'EOF' && break
import sys
spans = {}
open_ = {}
for line in open(sys.argv[1]):
    what, uuid, t, pid = line.split()
    if what == "start":
        open_[pid] = float(t)
    else:
        spans.setdefault(uuid, []).append((open_.pop(pid), float(t)))
a, b = spans.get("GPU-fake-0", []), spans.get("GPU-fake-1", [])
sys.exit(0 if any(x[0] < y[1] and y[0] < x[1] for x in a for y in b) else 1)
EOF
[ "$try" = 3 ] && fail "local:0,1: the two devices never worked at once in 3 tries (the check of 1 could not fail)"
done
! grep -q "shared GPU" <<<"$out" || fail "local:0,1: a timing on a device of its own marked shared"

# 3. two devices reporting one UUID
fresh
out=$(FAKE_GPU_UUID=GPU-fake-same "$RUNG" eval -C "$R" --task t --all --workers local:0,1 2>&1)
echo "$out"
[ "$(overlaps GPU-fake-same)" = 0 ] || fail "one UUID behind two devices: two jobs at once"
[ "$(grep -c "shared GPU: pid [0-9]* rung worker (pool local:[01])" <<<"$out")" = 5 ] || fail "one UUID: not every timing marked shared"

# 4. --sanitize on the pool: pinned, inside the GPU's turn, and for stored results
mkdir -p "$T/cs"
cat >"$T/cs/compute-sanitizer" <<EOF
#!/bin/sh
echo "\${CUDA_VISIBLE_DEVICES-unset}" >>"$T/sanitized"
while [ \$# -gt 0 ]; do
	case "\$1" in
	--log-file) log=\$2; shift 2 ;;
	--tool|--target-processes|--print-limit) shift 2 ;;
	*) break ;;
	esac
done
cat "$RUNG_SRC/tests/fixtures/sanitize/clean.txt" >"\$log"
exec "\$@"
EOF
chmod +x "$T/cs/compute-sanitizer"
export RUNG_COMPUTE_SANITIZER=$T/cs/compute-sanitizer
fresh
: >"$T/sanitized"
out=$("$RUNG" eval -C "$R" --task t "${revs[0]}" "${revs[1]}" --workers local:2,3 --sanitize=memcheck 2>&1)
rc=$?
echo "$out"
cat "$T/log"
[ "$rc" = 0 ] || fail "--sanitize on the pool: exit $rc"
[ "$(grep -cE "^(${revs[0]}|${revs[1]}) +ok ok ok ok - ok" <<<"$out")" = 2 ] || fail "--sanitize on the pool: no sanitize rung ok"
sort -u "$T/sanitized" | tr '\n' ' ' | grep -qx "2 3 " || fail "sanitize not pinned to the members' devices: $(sort -u "$T/sanitized" | tr '\n' ' ')"
# each device: its GPU job and its sanitize job, never at once
[ "$(overlaps GPU-fake-2)" = 0 ] && [ "$(overlaps GPU-fake-3)" = 0 ] || fail "a sanitize run beside a job on its device"
# 2 GPU jobs, then the sanitize runs: memcheck on each version (--sanitize),
# and the sanitize gate's runs on the would-be best (#25: memcheck, racecheck,
# synccheck at both shapes, what --sanitize ran reused) -- every one pinned (above)
nsan=$(wc -l <"$T/sanitized")
[ "$nsan" -ge 4 ] || fail "not 2 memcheck runs + the gate's: $nsan sanitize runs"
[ "$(grep -c '^start ' "$T/log")" = $((2 + nsan)) ] || fail "not 2 GPU jobs + $nsan sanitize runs: $(grep -c '^start ' "$T/log") starts"
# a stored result without the rung: the pool adds it
: >"$T/sanitized"
# (--no-sanitize: without it the sanitize gate would give it the rung at once)
"$RUNG" eval -C "$R" --task t "${revs[2]}" --workers local:0, --no-sanitize >/dev/null 2>&1 || fail "storing ${revs[2]}"
: >"$T/log"
out=$("$RUNG" eval -C "$R" --task t --missing --workers local:0,1 --sanitize=memcheck 2>&1)
echo "$out"
grep -qE "^${revs[2]} +ok ok ok ok - ok" <<<"$out" || fail "the stored result did not get its sanitize rung from the pool"
[ -s "$T/sanitized" ] || fail "no sanitize run for the stored result"
unset RUNG_COMPUTE_SANITIZER

# 5. rung watch on the pool
watch_pool() { # watch_pool NAME ARGS...: two commits at once while it watches
	local name=$1; shift
	fresh
	"$RUNG" watch -C "$R" --task t --interval 0.2 "$@" >"$T/wout" 2>"$T/werr" &
	WPID=$!
	for _ in $(seq 100); do grep -q "waiting for commits" "$T/werr" && break; sleep 0.1; done
	grep -q "waiting for commits" "$T/werr" || fail "$name: no banner: $(cat "$T/werr")"
	( cd "$R" && for k in 5 6; do
		sed -i "s/c\[i\] = .*/c[i] = a[i] + b[i] + (float)(i \& $k) + $k.0f;/" t/kernel.cu
		git commit -qam "w$k"
	done ) # one commit, then the other, fast: usually one poll sees both
	local new1 new2
	new1=$(git -C "$R" rev-parse --short=7 HEAD~1) new2=$(git -C "$R" rev-parse --short=7 HEAD)
	for _ in $(seq 200); do grep -q "^$new2 " "$T/wout" && break; sleep 0.1; done
	kill -INT "$WPID"
	wait "$WPID"
	local rc=$?
	WPID=
	cat "$T/wout" "$T/werr"
	[ "$rc" = 0 ] || fail "$name: exit $rc after SIGINT"
	[ "$(grep -cE "^($new1|$new2) " "$T/wout")" = 2 ] || fail "$name: not one line per commit"
	[ "$(grep -E "^($new1|$new2) " "$T/wout" | cut -c1-7 | tr '\n' ' ')" = "$new1 $new2 " ] || fail "$name: not in commit order"
	grep -E "^($new1|$new2) " "$T/wout" | grep -vqE "\[worker local:0(#2)?\]$" && fail "$name: a line names no pool worker"
	[ "$(overlaps GPU-fake-0)" = 0 ] || fail "$name: two jobs on the device at once"
	[ "$(grep -c '^start GPU-fake-0 ' "$T/log")" = 2 ] || fail "$name: not 2 jobs"
	( cd "$R" && git reset -q --hard HEAD~2 )
}
watch_pool "watch --workers" --workers local:0,0
mkdir -p "$T/cfg/rung"
echo "workers = local:0,0" >"$T/cfg/rung/config"
XDG_CONFIG_HOME=$T/cfg watch_pool "watch, workers = in the config"
err=$("$RUNG" watch -C "$R" --task t --count 1 --workers gpu:2 2>&1)
[ $? = 2 ] && grep -q "workers" <<<"$err" || fail "watch --workers gpu:2: not a usage error: $err"

# 6. a member without a GPU beside one with
fresh
out=$(FAKE_NO_GPU_DEVICES=1 "$RUNG" eval -C "$R" --task t --all --workers local:0,1 --stats 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || fail "device 1 without a GPU: exit $rc"
[ "$(verdicts <<<"$out")" = "$(verdicts <<<"$one")" ] || fail "device 1 without a GPU: verdicts differ from one worker's"
[ "$(grep -cE '^[0-9a-f]{7} .*\[worker local:0\]$' <<<"$out")" = 5 ] || fail "not every version on local:0"
grep -qE "^stats: worker local:1: 0 job\(s\).*retired: no GPU: no CUDA device \(fake, CUDA_VISIBLE_DEVICES=1\)" <<<"$out" ||
	fail "local:1 not retired with the reason"
fresh
out=$(FAKE_NO_GPU_DEVICES=0,1 "$RUNG" eval -C "$R" --task t --all --workers local:0,1 2>&1)
rc=$?
echo "$out"
[ "$rc" = 4 ] || fail "no GPU anywhere: exit $rc, not 4"
[ "$(grep -cE '^[0-9a-f]{7} +ok skip skip skip' <<<"$out")" = 5 ] || fail "no GPU anywhere: not 5 SKIPPED verdicts"

# 7. compare --stored across GPU models
fresh
export FAKE_GPU_NAME_0="Fake A100" FAKE_GPU_NAME_1="Fake H200"
"$RUNG" eval -C "$R" --task t "${revs[0]}" --workers local:0, || fail "storing ${revs[0]} on device 0"
FAKE_MEDIAN_MS=4.0 "$RUNG" eval -C "$R" --task t "${revs[1]}" --workers local:1, >/dev/null 2>&1 || fail "storing ${revs[1]} on device 1"
FAKE_MEDIAN_MS=4.0 "$RUNG" eval -C "$R" --task t "${revs[2]}" --workers local:0, >/dev/null 2>&1 || fail "storing ${revs[2]} on device 0"
unset FAKE_GPU_NAME_0 FAKE_GPU_NAME_1
out=$("$RUNG" compare -C "$R" --task t --stored "${revs[0]}" "${revs[1]}" 2>&1)
rc=$?
echo "$out"
[ "$rc" = 1 ] || fail "compare --stored across models: exit $rc, not 1"
grep -qx "OTHER_GPU A was timed on Fake A100 (host fakehost), B on Fake H200 (host fakehost): timings of different GPU models are not compared (--any-gpu compares them anyway)" <<<"$out" ||
	fail "compare --stored across models: not OTHER_GPU naming both"
out=$("$RUNG" compare -C "$R" --task t --stored --json "${revs[0]}" "${revs[1]}" 2>&1)
grep -q '"verdict": *"OTHER_GPU"' <<<"$out" && grep -q '"gpu_b": *"Fake H200"' <<<"$out" || fail "--json: $out"
out=$("$RUNG" compare -C "$R" --task t --stored --any-gpu "${revs[0]}" "${revs[1]}" 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || fail "--any-gpu: exit $rc"
grep -qE "^FASTER B/A=0\.8[0-9]* .* stored other GPU: A was timed on Fake A100 .*, B on Fake H200" <<<"$out" || fail "--any-gpu: no verdict naming both GPUs"
out=$("$RUNG" compare -C "$R" --task t --stored "${revs[0]}" "${revs[2]}" 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] && grep -qE "^FASTER B/A=0\.8[0-9]* .* stored$" <<<"$out" || fail "one model: exit $rc, not the verdict"
"$RUNG" compare -C "$R" --task t --any-gpu "${revs[0]}" "${revs[1]}" >/dev/null 2>&1
[ $? = 2 ] || fail "--any-gpu without --stored is not a usage error"
# rung log: no speedup over a baseline of another GPU model
"$RUNG" log -C "$R" --task t --json >"$T/log.json" 2>&1
python3 - "${revs[1]}" "${revs[2]}" "$T/log.json" <<'EOF' || fail "rung log --json: a speedup across GPU models: $(cat "$T/log.json")"
import json, sys
rows = {}
for line in open(sys.argv[3]):
    line = line.strip()
    if line.startswith("{"):
        o = json.loads(line)
        rows[o["short"]] = o
b, c = rows[sys.argv[1]], rows[sys.argv[2]]
assert b.get("other_gpu") == "Fake H200" and b["speedup_vs_baseline"] is None and b["delta_vs_baseline"] is None, b
assert "other_gpu" not in c and abs(c["speedup_vs_baseline"] - 1.25) < 0.01, c
EOF
out=$("$RUNG" compare -C "$R" --task t --stored "${revs[0]}" "${revs[3]}" 2>&1)
[ $? = 1 ] && grep -q "B (${revs[3]}) has no stored result" <<<"$out" || fail "no stored result: $out"

# 8. the arch of the device that runs it
sed -i '/^arch = /d' "$R/t/rung.ini"
git -C "$R" commit -qam "no arch"
fresh
# the batch is compiled for the first worker's device (sm_90); two versions, one on each worker
FAKE_GPU_ARCH_1=sm_80 "$RUNG" eval -C "$R" --task t "${revs[0]}" "${revs[1]}" --workers local:0,1 || fail "arch: the batch"
"$RUNG" log -C "$R" --task t --json >"$T/log.json" 2>&1
python3 - "${revs[0]}" "${revs[1]}" "$T/log.json" <<'EOF' || fail "not compiled for the device that ran it: $(cat "$T/log.json")"
import json, sys
rows = {}
for line in open(sys.argv[3]):
    if line.startswith("{"):
        o = json.loads(line)
        rows[o["short"]] = o["result"]
archs = sorted(rows[r]["env"]["arch"] for r in sys.argv[1:3])
assert archs == ["sm_80", "sm_90"], archs  # one on each device
for r in sys.argv[1:3]:
    assert rows[r]["compile"]["arch"] == rows[r]["env"]["arch"], (r, rows[r]["compile"], rows[r]["env"])
EOF
echo "ok"
