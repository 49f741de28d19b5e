#!/usr/bin/env bash
# The worker pool on the one H200 (#29): `rung eval --all --stats` with one
# worker (no --workers), --workers local:1, --workers local:0,0 (two workers
# on GPU 0, which app/pool.c lets time one at a time) and --workers local:2
# (devices 0 and 1: on a one-GPU box device 1's worker reports no GPU and is
# retired, so everything runs on local:0) on three repositories:
# the 40-commit sweep of bench/h200_sweep.sh (20 distinct kernels, 20
# comment-only copies: no-ops) and the demo's two ladders (rung demo: sgemm,
# softmax). Each run gets a fresh copy of its repository (no store), so all
# three do the same work. Per run: wall time, versions, rows, failed, no-op,
# timings marked shared, versions whose verdict (the rung words) differs from
# the one worker's, rows lost or doubled, and each worker's jobs, busy and
# GPU-wait seconds from --stats. Writes the table to $O/pool_table.md (and
# stdout), the runs' outputs to $O/pool-*.txt. Then the sanitize rung (memcheck) on
# local:0,0 against one worker's, on the demo's softmax (NO_SANITIZE=1 leaves it out;
# WORKERS=skip runs it alone).
#
# The timing runs pass --no-sanitize: the sanitize gate (one version, after the
# batch) is timed on its own below and in bench/h200_session4.sh.
#
# No sshd runs on the device, so ssh:localhost is not run here; the ssh path
# is covered by tests/sh/pool_ssh.sh (a real sshd, workers without a GPU).
set -u
[ -f bench/h200_env.sh ] && . bench/h200_env.sh
O=${O:-${OUT:-/tmp/rung-out}}
mkdir -p "$O"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SRC=$PWD
command -v rung >/dev/null || { echo "no rung on PATH"; exit 1; }
nvidia-smi --query-gpu=name,uuid --format=csv,noheader 2>/dev/null | head -2
command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || echo "no sshd on this machine: ssh:localhost not run"

build_sweep() { # DIR: as bench/h200_sweep.sh builds it
	local d=$1
	git init -q -b main "$d"
	cp "$SRC/examples/softmax/rung.ini" "$SRC/examples/softmax/reference.cu" "$d/"
	local ladder=("$SRC"/examples/softmax/ladder/*.cu)
	for i in $(seq 1 20); do
		local k=${ladder[$(( (i - 1) % ${#ladder[@]} ))]}
		{ cat "$k"; printf '\nextern "C" __global__ void rung_sweep_variant_%d(int *p) { if (p) *p = %d; }\n' "$i" "$i"; } > "$d/softmax.cu"
		git -C "$d" add -A && git -C "$d" -c user.name=A -c user.email=a@x commit -qm "variant $i"
		printf '// comment-only copy of variant %d\n' "$i" >> "$d/softmax.cu"
		git -C "$d" -c user.name=A -c user.email=a@x commit -qam "variant $i, comment only"
	done
}
build_sweep "$W/sweep"
rung demo --no-tui "$W/demo" > "$W/demo.txt" 2>&1 || { echo "rung demo failed:"; tail -5 "$W/demo.txt"; }
rm -rf "$W/demo/.git/rung" # its recorded results: every run starts from no store

verdicts() { grep -E '^[0-9a-f]{7} ' "$1" | awk '{print $1, $2, $3, $4, $5}' | sort; }
TABLE=$O/pool_table.md
{
	echo "| repository | workers | wall s | versions | rows | failed | no-op | shared | verdicts differing | lost/doubled | per worker (jobs, busy s, GPU wait s) |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
} > "$TABLE"
run() { # NAME DIR TASK WORKERS
	local name=$1 dir=$2 task=$3 workers=$4 d=$W/run
	rm -rf "$d"; cp -a "$dir" "$d"
	local targs=(); [ -n "$task" ] && targs=(--task "$task")
	local wargs=(); [ "$workers" != one ] && wargs=(--workers "$workers")
	local out=$O/pool-$name-${workers//[:,]/_}.txt
	local s e; s=$(date +%s.%N)
	timeout 500 rung eval --all --stats --no-sanitize -C "$d" "${targs[@]}" "${wargs[@]}" > "$out" 2>&1; local rc=$?
	e=$(date +%s.%N)
	local nv; nv=$(sed -nE 's/^rung eval: ([0-9]+) version\(s\).*/\1/p' "$out" | tail -1) # the versions of the task
	local rows failed noop shared diff lost per
	rows=$(grep -cE '^[0-9a-f]{7} ' "$out")
	failed=$(grep -cE '^[0-9a-f]{7} .*FAIL' "$out")
	noop=$(sed -nE 's/^stats: .* ([0-9]+) no-op.*/\1/p' "$out")
	shared=$(grep -cE '^[0-9a-f]{7} .*shared GPU' "$out")
	if [ "$workers" = one ]; then verdicts "$out" > "$W/one-$name"; diff=-; else
		diff=$(comm -3 "$W/one-$name" <(verdicts "$out") | wc -l); fi
	lost=$(( ${nv:-0} - $(grep -E '^[0-9a-f]{7} ' "$out" | cut -c1-7 | sort -u | wc -l) ))
	local doubled=$(( rows - $(grep -E '^[0-9a-f]{7} ' "$out" | cut -c1-7 | sort -u | wc -l) ))
	per=$(sed -nE 's/^stats: worker ([^:]+:[^:]+): ([0-9]+) job\(s\), [0-9]+ failed, [0-9]+ lost, busy ([0-9.]+) s(, waited ([0-9.]+) s)?.*/\1 \2, \3, \5/p' "$out" | sed 's/, $/, 0/' | paste -sd';')
	printf '| %s | %s | %.2f (rc %s) | %s | %s | %s | %s | %s | %s | %s/%s | %s |\n' "$name" "$workers" \
		"$(echo "$e - $s" | awk '{print $1 - $3}')" "$rc" "$nv" "$rows" "$failed" "${noop:-?}" "$shared" "$diff" "$lost" \
		"$doubled" "${per:--}" >> "$TABLE"
	echo "== $name $workers: rc $rc"; grep '^stats:' "$out"; tail -1 "$out"
}
WORKERS=${WORKERS:-one local:1 local:0,0 local:2} # WORKERS=skip: the sanitize part alone
[ "$WORKERS" = skip ] && WORKERS=
for w in $WORKERS; do run sweep "$W/sweep" "" "$w"; done
for t in sgemm softmax; do
	for w in $WORKERS; do run "demo-$t" "$W/demo" "$t" "$w"; done
done
# the sanitize rung on the pool (memcheck; compute-sanitizer pinned to each worker's device):
# the same rung words as with one worker, never SKIPPED where one worker ran it
if [ -z "${NO_SANITIZE:-}" ]; then
	for w in one local:0,0; do
		d=$W/san; rm -rf "$d"; cp -a "$W/demo" "$d"
		wargs=(); [ "$w" != one ] && wargs=(--workers "$w")
		s=$(date +%s.%N)
		timeout 400 rung eval --all --stats --sanitize=memcheck -C "$d" --task softmax "${wargs[@]}" > "$O/pool-sanitize-${w//[:,]/_}.txt" 2>&1
		echo "== sanitize $w: rc $? in $(echo "$(date +%s.%N) $s" | awk '{print $1 - $2}') s"
		grep -E '^[0-9a-f]{7} ' "$O/pool-sanitize-${w//[:,]/_}.txt" | awk '{print $1, $2, $3, $4, $5, $6, $7}' | sort > "$W/san-$w"
		cat "$W/san-$w"
	done
	echo "sanitize: versions whose rung words differ from one worker's: $(comm -3 "$W/san-one" "$W/san-local:0,0" | wc -l)"
fi
echo
cat "$TABLE"
echo "(verdicts differing: versions whose rung words differ from the one worker's; shared: rows whose timing is marked"
echo " shared, expected on every timed row with local:0,0 and on none with one worker, local:1 or local:2 on one GPU)"
