#!/bin/bash
# rung eval --workers slurm:2[,partition=P] on a real one-node Slurm cluster
# (munged, slurmctld, slurmd from tests/cluster/slurm.sh, all in a temp dir).
# The workers are job steps (`srun --ntasks=1 ... rung worker --stdio`) and
# report no GPU: every version gets a verdict from a named step, in commit
# order. Faults: a step cancelled with scancel before it speaks (the
# version is re-run on the other step and says so); an unknown partition
# (srun refuses: FAILED, with the reason). 77 when the daemons cannot start.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
# shellcheck source=../cluster/slurm.sh
source "$RUNG_SRC/tests/cluster/slurm.sh"
cleanup() { rung_slurm_stop; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
rung_slurm_start "$T/cluster" || { echo "no Slurm cluster could start (skipping)"; exit 77; }

R=$T/repo
git init -q "$R"
git -C "$R" config user.name "Ada Lovelace"
git -C "$R" config user.email ada@example.com
mkdir "$R/t"
cp "$RUNG_SRC"/tests/faults/good/{rung.ini,kernel.cu,reference.cu} "$R/t/"
git -C "$R" add -A && git -C "$R" commit -qm "good"
cp "$RUNG_SRC"/tests/faults/unwritten/kernel.cu "$R/t/kernel.cu"
git -C "$R" commit -qam "skip every 64th element"
a=$(git -C "$R" rev-parse --short=7 HEAD~1)
b=$(git -C "$R" rev-parse --short=7 HEAD)

# 1. two job steps, each result naming its step, in commit order; the
# partition given by name
# a fresh store before each run: on a box with a GPU the last run's results would be store hits
fresh() { rm -rf "$R/.git/rung"; }
fresh
out=$("$RUNG" eval -C "$R" --task t --all --workers slurm:2,partition=debug --stats 2>&1)
rc=$?
echo "$out"
[ "$rc" = 4 ] || [ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "exit $rc"
lines=$(grep -E "^($a|$b) " <<<"$out")
[ "$(head -1 <<<"$lines" | cut -c1-7)" = "$a" ] && [ "$(tail -1 <<<"$lines" | cut -c1-7)" = "$b" ] || fail "not in commit order"
grep -qE "^$a .* skip .*\[worker slurm:[01]\]$" <<<"$out" || fail "version a: no verdict from a Slurm step"
grep -qE "^$b .* skip .*\[worker slurm:[01]\]$" <<<"$out" || fail "version b: no verdict from a Slurm step"
grep -q "^stats: worker slurm:1: " <<<"$out" || fail "no per-worker stats"

# 2. the second step (slurm:1's, at its first job) hangs before hello and is cancelled (scancel): re-run on the other
cat >"$T/slow-rung" <<EOF
#!/bin/bash
mkdir "$T/first" 2>/dev/null && exec "$RUNG" "\$@" # slurm:0's hello when the batch opens
if mkdir "$T/second" 2>/dev/null; then echo "\$SLURM_JOB_ID" >"$T/job"; exec sleep 300; fi
exec "$RUNG" "\$@"
EOF
chmod +x "$T/slow-rung"
fresh
RUNG_REMOTE_RUNG=$T/slow-rung "$RUNG" eval -C "$R" --task t --all --workers slurm:2 >"$T/out2" 2>&1 &
EV=$!
for _ in $(seq 150); do [ -s "$T/job" ] && break; sleep 0.1; done
[ -s "$T/job" ] || fail "the second step never started"
scancel "$(cat "$T/job")"
wait $EV
out=$(cat "$T/out2")
echo "$out"
[ "$(grep -cE "\[worker slurm:0 \(re-run after slurm:1: " <<<"$out")" = 1 ] || fail "scancel: not re-run once on the other step"
[ "$(grep -c "^$a " <<<"$out")" = 1 ] && [ "$(grep -c "^$b " <<<"$out")" = 1 ] || fail "scancel: not one result per version"

# 3. a partition the cluster does not have: srun refuses, the version FAILED with why
fresh
out=$("$RUNG" eval -C "$R" --task t "$b" --workers slurm:1,partition=nosuch 2>&1)
echo "$out"
grep -qE "^$b .*FAIL.*worker lost twice" <<<"$out" || fail "unknown partition: not FAILED"
fresh
"$RUNG" eval -C "$R" --task t "$b" --workers "slurm:1,partition=-x" >/dev/null 2>&1
[ $? = 2 ] || fail "an option as partition was not refused"

# 4. two steps on one GPU (fake workers with a device, tests/sh/lib/fake_gpu_worker.py, both
# reporting GPU-fake-0 on this one node): one job at a time, each timing marked shared
fresh
out=$(RUNG_REMOTE_RUNG=$RUNG_SRC/tests/sh/lib/fake_gpu_worker.py FAKE_GPU_UUID=GPU-fake-node "$RUNG" eval -C "$R" \
	--task t --all --workers slurm:2 --stats 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || fail "fake GPU steps: exit $rc"
[ "$(grep -cE "^($a|$b) .*shared GPU: pid [0-9]+ rung worker \(pool slurm:[01]\)" <<<"$out")" = 2 ] ||
	fail "two steps on one GPU: not both timings marked shared"
grep -qE "^stats: worker slurm:[01]: .*\(shared with 1 other worker\), on Fake GPU" <<<"$out" ||
	fail "two steps on one GPU: the workers do not know they share it"
echo "ok"
