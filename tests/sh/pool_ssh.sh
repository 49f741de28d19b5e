#!/bin/bash
# rung eval --workers ssh:HOST,HOST through a real sshd on 127.0.0.1 (a high
# port, a host key and a user key made here, a private sshd_config and
# ssh_config given as RUNG_SSH_CONFIG). The workers report no GPU, which still
# runs the protocol over ssh: every version gets a verdict from a named
# worker, in commit order. Faults: the remote worker killed before it speaks,
# and the ssh client killed: the job is re-run on the other host and says so;
# with both hosts lost the job is FAILED with both reasons. Two hosts that
# report one GPU take turns on it; the sanitize rung is SKIPPED on remote
# workers. 77 when no sshd can be started.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] && command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || { echo "no openssh-server (skipping)"; exit 77; }
T=$(mktemp -d)
SPID=
cleanup() { [ -n "$SPID" ] && kill "$SPID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
PORT=$((20000 + RANDOM % 20000))
ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" || exit 77
ssh-keygen -q -t ed25519 -N '' -f "$T/userkey" || exit 77
cp "$T/userkey.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
cat >"$T/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile $T/sshd.pid
EOF
cat >"$T/ssh_config" <<EOF
Host alpha beta
	HostName 127.0.0.1
	Port $PORT
	User $(id -un)
	IdentityFile $T/userkey
	IdentitiesOnly yes
	UserKnownHostsFile $T/known_hosts
	StrictHostKeyChecking no
	LogLevel ERROR
EOF
[ -d /run/sshd ] || mkdir -p /run/sshd 2>/dev/null
"$SSHD" -D -f "$T/sshd_config" -E "$T/sshd.log" &
SPID=$!
for _ in $(seq 50); do
	ssh -F "$T/ssh_config" -o BatchMode=yes alpha true 2>/dev/null && break
	sleep 0.1
done
ssh -F "$T/ssh_config" -o BatchMode=yes alpha true 2>/dev/null || { echo "sshd did not start (skipping)"; cat "$T/sshd.log"; exit 77; }

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
export RUNG_SSH_CONFIG=$T/ssh_config RUNG_REMOTE_RUNG=$RUNG # the remote side: this build, by path

# 1. both versions over ssh, each result naming its worker, in commit order
# a fresh store before each run: on a box with a GPU the last run's results would be store hits
fresh() { rm -rf "$R/.git/rung"; }
fresh
out=$("$RUNG" eval -C "$R" --task t --all --workers ssh:alpha,beta --stats 2>&1)
rc=$?
echo "$out"
[ "$rc" = 4 ] || [ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "exit $rc"
lines=$(grep -E "^($a|$b) " <<<"$out")
[ "$(head -1 <<<"$lines" | cut -c1-7)" = "$a" ] && [ "$(tail -1 <<<"$lines" | cut -c1-7)" = "$b" ] || fail "not in commit order"
grep -qE "^$a .*\[worker ssh:(alpha|beta)\]$" <<<"$out" || fail "version a names no ssh worker"
grep -qE "^$b .*\[worker ssh:(alpha|beta)\]$" <<<"$out" || fail "version b names no ssh worker"
grep -q "^stats: worker ssh:alpha: " <<<"$out" && grep -q "^stats: worker ssh:beta: " <<<"$out" || fail "no per-worker stats"

# the remote rung: a wrapper that hangs on its second start (pid noted): the
# first is the first host's hello when the batch opens, the second the other
# host's, at its first job
cat >"$T/slow-rung" <<EOF
#!/bin/bash
mkdir "$T/first" 2>/dev/null && exec "$RUNG" "\$@"
if mkdir "$T/second" 2>/dev/null; then echo \$\$ >"$T/remote.pid"; exec sleep 300; fi
exec "$RUNG" "\$@"
EOF
chmod +x "$T/slow-rung"

# 2. the remote worker killed before it says hello: re-run on the other host
fresh
RUNG_REMOTE_RUNG=$T/slow-rung "$RUNG" eval -C "$R" --task t --all --workers ssh:alpha,beta >"$T/out2" 2>&1 &
EV=$!
for _ in $(seq 100); do [ -s "$T/remote.pid" ] && break; sleep 0.1; done
[ -s "$T/remote.pid" ] || fail "the remote worker never started"
kill -9 "$(cat "$T/remote.pid")"
wait $EV
out=$(cat "$T/out2")
echo "$out"
[ "$(grep -cE "\[worker ssh:alpha \(re-run after ssh:beta: worker exited" <<<"$out")" = 1 ] || fail "kill: not re-run once on the other host"
[ "$(grep -c "^$a " <<<"$out")" = 1 ] && [ "$(grep -c "^$b " <<<"$out")" = 1 ] || fail "kill: not one result per version"

# 3. the ssh client killed: an ssh in PATH that notes its pid and execs the real one
mkdir "$T/bin"
cat >"$T/bin/ssh" <<EOF
#!/bin/bash
echo \$\$ >>"$T/ssh.pids"
exec $(command -v ssh) "\$@"
EOF
chmod +x "$T/bin/ssh"
rmdir "$T/first" "$T/second"; rm -f "$T/remote.pid"
fresh
PATH=$T/bin:$PATH RUNG_REMOTE_RUNG=$T/slow-rung "$RUNG" eval -C "$R" --task t --all --workers ssh:beta,alpha >"$T/out3" 2>&1 &
EV=$!
for _ in $(seq 100); do [ -s "$T/remote.pid" ] && break; sleep 0.1; done
[ -s "$T/remote.pid" ] || fail "the remote worker never started (3)"
kill -9 "$(sed -n 2p "$T/ssh.pids")" # the second ssh: alpha's
wait $EV
out=$(cat "$T/out3")
echo "$out"
[ "$(grep -cE "\[worker ssh:beta \(re-run after ssh:alpha: " <<<"$out")" = 1 ] || fail "ssh client killed: not re-run once"
kill -9 "$(cat "$T/remote.pid")" 2>/dev/null

# 4. lost on both: FAILED with both reasons, the exit code says a rung failed
cat >"$T/dead-rung" <<EOF
#!/bin/bash
exit 9
EOF
chmod +x "$T/dead-rung"
fresh
out=$(RUNG_REMOTE_RUNG=$T/dead-rung "$RUNG" eval -C "$R" --task t "$a" --workers ssh:alpha,beta 2>&1)
rc=$?
echo "$out"
[ "$rc" = 1 ] || [ "$rc" = 4 ] || fail "lost twice: exit $rc, not 1 (or 4: no GPU anywhere)"
grep -qE "^$a .*FAIL.*worker lost twice: .* on ssh:(alpha|beta); .* on ssh:(alpha|beta)" <<<"$out" || fail "lost twice: not FAILED with both reasons"
grep -q "1 failed" <<<"$out" || fail "lost twice: not counted as failed"

# 5. a remote rung of another build (its hello names another protocol): FAILED, saying so
cat >"$T/old-rung" <<EOF
#!/bin/bash
printf '{"type":"hello","proto":0,"ok":false,"reason":"no CUDA device"}\n'
cat >/dev/null
EOF
chmod +x "$T/old-rung"
fresh
out=$(RUNG_REMOTE_RUNG=$T/old-rung "$RUNG" eval -C "$R" --task t "$a" --workers ssh:alpha 2>&1)
echo "$out"
grep -qE "^$a .*FAIL.*worker protocol 0, this rung speaks [0-9]+: the worker's rung is another build" <<<"$out" || fail "protocol mismatch not said"

# 6. a host name that would be an option is refused (exit 2)
fresh
"$RUNG" eval -C "$R" --task t "$a" --workers "ssh:-oProxyCommand=x" >/dev/null 2>&1
[ $? = 2 ] || fail "an option as host name was not refused"

# 7. two hosts that reach one GPU (fake workers with a device, tests/sh/lib/fake_gpu_worker.py,
# both reporting GPU-fake-0): one job at a time, each timing marked shared naming the other
# host's worker; the sanitize rung cannot run on a remote worker: SKIPPED saying so, exit 4
fresh
out=$(RUNG_REMOTE_RUNG=$RUNG_SRC/tests/sh/lib/fake_gpu_worker.py "$RUNG" eval -C "$R" --task t --all \
	--workers ssh:alpha,beta --sanitize=memcheck --stats 2>&1)
rc=$?
echo "$out"
[ "$rc" = 4 ] || fail "remote sanitize: exit $rc, not 4"
[ "$(grep -cE "^($a|$b) .*shared GPU: pid [0-9]+ rung worker \(pool ssh:(alpha|beta)\)" <<<"$out")" = 2 ] ||
	fail "one UUID over ssh: not both timings marked shared"
grep -qE "^stats: worker ssh:(alpha|beta): .*waited [0-9.]+ s for its GPU \(shared with 1 other worker\), on Fake GPU" <<<"$out" ||
	fail "one UUID over ssh: the workers do not know they share the GPU"
[ "$(grep -cE "^($a|$b) +ok ok ok ok - skip " <<<"$out")" = 2 ] || fail "remote sanitize: not SKIPPED"
"$RUNG" log -C "$R" --task t --json >"$T/log.json" 2>&1
python3 - "$T/log.json" <<'EOF' || fail "remote sanitize: the stored rung does not say why: $(cat "$T/log.json")"
import json, re, sys
n = 0
for line in open(sys.argv[1]):
    if line.startswith("{"):
        st = json.loads(line)["result"]["steps"]["sanitize"]
        assert st["status"] == "SKIPPED" and re.search(r"the sanitize rung runs on local workers only \(ssh:(alpha|beta) is not\)", st["reason"]), st
        n += 1
assert n == 2, n
EOF
echo "ok"
