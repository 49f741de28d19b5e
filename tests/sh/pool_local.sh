#!/bin/bash
# rung eval --workers local:N / local:0,3: one local worker per device, pinned
# with CUDA_VISIBLE_DEVICES (seen by the worker binary, through
# RUNG_WORKER_EXE = a wrapper that notes it), results in commit order naming
# their worker, the same batch seed everywhere; a worker killed before it
# speaks has its version re-run on the other one, once; bad values exit 2.
# Without a GPU the workers report none, which still runs the whole dispatch.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=$T/repo
git init -q "$R"
git -C "$R" config user.name "Ada Lovelace"
git -C "$R" config user.email ada@example.com
mkdir "$R/t"
cp "$RUNG_SRC"/tests/faults/good/{rung.ini,kernel.cu,reference.cu} "$R/t/"
git -C "$R" add -A && git -C "$R" commit -qm "v0"
for i in 1 2 3; do
	echo "// v$i" >>"$R/t/kernel.cu"
	git -C "$R" commit -qam "v$i"
done
mapfile -t revs < <(git -C "$R" rev-list --reverse --abbrev-commit --abbrev=7 HEAD)

cat >"$T/note-rung" <<EOF
#!/bin/bash
echo "\${CUDA_VISIBLE_DEVICES-unset}" >>"$T/devices"
exec "$RUNG" "\$@"
EOF
chmod +x "$T/note-rung"

# 1. local:2: four versions over two pinned workers, in commit order
# a fresh store before each run: on a box with a GPU the last run's results would be store hits
fresh() { rm -rf "$R/.git/rung"; }
fresh
out=$(RUNG_WORKER_EXE=$T/note-rung "$RUNG" eval -C "$R" --task t --all --workers local:2 --stats 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || [ "$rc" = 4 ] || fail "exit $rc"
got=$(grep -E "^[0-9a-f]{7} " <<<"$out" | cut -c1-7 | tr '\n' ' ')
[ "$got" = "${revs[*]} " ] || fail "not in commit order: '$got' vs '${revs[*]} '"
for r in "${revs[@]}"; do
	grep -qE "^$r .*\[worker local:[01]\]$" <<<"$out" || fail "$r names no local worker"
done
sort -u "$T/devices" | tr '\n' ' ' | grep -qx "0 1 " || fail "workers not pinned to devices 0 and 1: $(sort -u "$T/devices" | tr '\n' ' ')"
grep -q "^stats: worker local:0: " <<<"$out" && grep -q "^stats: worker local:1: " <<<"$out" || fail "no per-worker stats"
# the job count adds up: every version once
jobs=$(grep -E "^stats: worker local" <<<"$out" | sed -E 's/.*: ([0-9]+) job.*/\1/' | paste -sd+)
jobs=$(( ${jobs:-0} ))
[ "$jobs" = 4 ] || fail "jobs over the workers: $jobs, not 4"

# 2. a device list pins those devices
: >"$T/devices"
fresh
out=$(RUNG_WORKER_EXE=$T/note-rung "$RUNG" eval -C "$R" --task t "${revs[0]}" "${revs[1]}" --workers local:0,3 --stats 2>&1)
echo "$out"
sort -u "$T/devices" | tr '\n' ' ' | grep -qx "0 3 " || fail "local:0,3 not pinned to 0 and 3"
# device 3 ran one, unless this box has a GPU 0 and no GPU 3: then local:3 is retired, saying why
grep -qE "\[worker local:3\]" <<<"$out" || grep -qE "^stats: worker local:3: 0 job\(s\).*, retired: no GPU: " <<<"$out" ||
	fail "no result from local:3, and it was not retired for want of a GPU"

# 3. the worker on device 1 is killed before its first hello (at a job's
# start: device 0's worker said hello when the batch opened): that version is
# re-run on local:0, once; every version has one result
cat >"$T/slow-rung" <<EOF
#!/bin/bash
if [ "\$CUDA_VISIBLE_DEVICES" = 1 ] && mkdir "$T/first" 2>/dev/null; then echo \$\$ >"$T/pid"; exec sleep 300; fi
exec "$RUNG" "\$@"
EOF
chmod +x "$T/slow-rung"
fresh
RUNG_WORKER_EXE=$T/slow-rung "$RUNG" eval -C "$R" --task t --all --workers local:2 >"$T/out3" 2>&1 &
EV=$!
for _ in $(seq 100); do [ -s "$T/pid" ] && break; sleep 0.1; done
[ -s "$T/pid" ] || fail "no worker started on device 1"
kill -9 "$(cat "$T/pid")"
wait $EV
out=$(cat "$T/out3")
echo "$out"
[ "$(grep -cE "\[worker local:0 \(re-run after local:1: worker crashed \(Killed" <<<"$out")" = 1 ] || fail "not re-run once after the kill"
for r in "${revs[@]}"; do
	[ "$(grep -c "^$r " <<<"$out")" = 1 ] || fail "$r: not exactly one result"
done

# 4. bad values: exit 2 with a message
for bad in local:0 local:x local:1,y gpu:2 ssh: slurm:0 slurm:2,colour=red; do
	err=$("$RUNG" eval -C "$R" --task t "${revs[0]}" --workers "$bad" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] || fail "--workers $bad: exit $rc, not 2 ($err)"
	grep -q "workers" <<<"$err" || fail "--workers $bad: the message does not say what: $err"
done
# 5. workers = SPEC in the user's config when --workers is not given
mkdir -p "$T/cfg/rung"
echo "workers = local:2" >"$T/cfg/rung/config"
fresh
out=$(XDG_CONFIG_HOME=$T/cfg "$RUNG" eval -C "$R" --task t "${revs[0]}" "${revs[1]}" 2>&1)
echo "$out"
[ "$(grep -cE "\[worker local:[01]\]" <<<"$out")" = 2 ] || fail "the config's workers were not used"
echo "workers = gpu:9" >"$T/cfg/rung/config"
fresh
XDG_CONFIG_HOME=$T/cfg "$RUNG" eval -C "$R" --task t "${revs[0]}" >/dev/null 2>&1
[ $? = 2 ] || fail "a bad workers in the config did not exit 2"
echo "ok"
