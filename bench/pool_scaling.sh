#!/usr/bin/env bash
# The worker pool's scaling (#29): a repository of V distinct softmax versions
# (the demo's four ladder kernels in turn, each with a different extra kernel
# so that no two share machine code: no no-op reuse), then
# `rung eval --all --stats --workers local:N` from an empty store for N = 1, 2,
# 4, 8 (up to the GPUs nvidia-smi lists), printing rung's stats lines: the wall
# time and each worker's jobs and busy time. V defaults to 200 (docs/BENCHMARKS.md
# "The worker pool"). Usage: bash bench/pool_scaling.sh [V] [N...]
set -u
[ -f bench/h200_env.sh ] && . bench/h200_env.sh
V=${1:-200}
shift || true
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SRC=$PWD
d=$W/repo
git init -q -b main "$d"
cp "$SRC/examples/softmax/rung.ini" "$SRC/examples/softmax/reference.cu" "$d/"
ladder=("$SRC"/examples/softmax/ladder/*.cu)
for i in $(seq 1 "$V"); do
	k=${ladder[$(((i - 1) % ${#ladder[@]}))]}
	{ cat "$k"; printf '\nextern "C" __global__ void rung_sweep_variant_%d(int *p) { if (p) *p = %d; }\n' "$i" "$i"; } >"$d/softmax.cu"
	git -C "$d" add -A && git -C "$d" -c user.name=A -c user.email=a@x commit -qm "variant $i"
done
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2 4 8)
for n in "${counts[@]}"; do
	if [ "$n" -gt "${gpus:-0}" ] && [ -z "${POOL_OVERSUBSCRIBE:-}" ]; then
		echo "local:$n: only ${gpus:-0} GPU(s) here (POOL_OVERSUBSCRIBE=1 runs it anyway, timings shared)"
		continue
	fi
	rm -rf "$(git -C "$d" rev-parse --absolute-git-dir)/rung"
	t0=$(date +%s.%N)
	rung eval -C "$d" --all --stats --workers "local:$n" >"$W/out-$n" 2>"$W/err-$n"
	rc=$?
	t1=$(date +%s.%N)
	echo "== local:$n, $V versions: exit $rc, shell wall $(echo "$t1 - $t0" | bc) s"
	grep '^stats:' "$W/out-$n"
	echo "   failed: $(grep -c ' FAIL' "$W/out-$n"), shared timings: $(grep -ci shared "$W/out-$n")"
done
