#!/usr/bin/env bash
# The 40-commit sweep of the loop-speed issue (#14), in one run: a repository
# holding the demo's softmax task with 40 commits, 20 of distinct machine code
# (the four ladder kernels in turn, each with a different extra kernel that
# changes the CUBIN but not the softmax) and 20 comment-only copies of them,
# then `rung eval --all` timed, with the GPU's utilisation sampled by
# nvidia-smi dmon, for the rung on PATH and (when present) .carry/bin/rung-before
# in the same run. Prints wall time, GPU busy %, the no-op rows.
set -u
[ -f bench/h200_env.sh ] && . bench/h200_env.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SRC=$PWD
build_repo() { # DIR
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
sweep() { # BIN LABEL
	local bin=$1 label=$2 d=$W/repo-$2
	rm -rf "$d"; build_repo "$d"
	nvidia-smi dmon -s u -d 1 > "$W/dmon-$label" 2>/dev/null & local dm=$!
	local s e; s=$(date +%s.%N)
	local stats=; "$bin" eval --help 2>&1 | grep -q -- --stats && stats=--stats
	"$bin" eval --all $stats -C "$d" > "$W/eval-$label" 2>&1; local rc=$?
	e=$(date +%s.%N)
	kill $dm 2>/dev/null; wait $dm 2>/dev/null
	local busy; busy=$(awk '$1 ~ /^[0-9]+$/ {s += $2; n++} END {if (n) printf "%.1f", s / n; else print "?"}' "$W/dmon-$label")
	python3 -c "print('$label: rung eval --all over 40 commits: %.2f s (rc $rc), GPU SM utilisation %s %% (nvidia-smi dmon, 1 s samples)' % ($e - $s, '$busy'))"
	echo "   rows: $(grep -cE '^[0-9a-f]{7} ' "$W/eval-$label"), failed: $(grep -cE '^[0-9a-f]{7} .* FAIL' "$W/eval-$label"), from the store: $(grep -c '(cached)' "$W/eval-$label")"
	"$bin" log -C "$d" > "$W/log-$label" 2>&1
	echo "   no-op rows in rung log: $(grep -cE '^[0-9a-f]{7} .* no-op' "$W/log-$label")"
	echo "   suspects: $(grep -c 'suspect' "$W/log-$label"), kernel-records: $(cat "$W/eval-$label" "$W/log-$label" | grep -c 'kernel-records')"
	grep '^stats:' "$W/eval-$label"
	tail -1 "$W/eval-$label"
}
if [ -x .carry/bin/rung-before ]; then sweep .carry/bin/rung-before before; fi
sweep "$(command -v rung)" after
if [ -x .carry/bin/rung-before ]; then sweep .carry/bin/rung-before before2; fi
sweep "$(command -v rung)" after2
for i in $(seq 3 "${AFTER_RUNS:-2}"); do sweep "$(command -v rung)" "after$i"; done
