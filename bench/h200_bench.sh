#!/usr/bin/env bash
# The engine's measurements on the H200 (docs/BENCHMARKS.md), in one run:
#  1. time from process start to printed verdict and peak RSS of `rung check`
#     on the 4096^3 fp32 tiled SGEMM (bench/tasks/sgemm4096);
#  2. rung's median against ncu's gpu__time_duration.sum for kernels from a few
#     microseconds to 15 ms, and the spread of rung's median over 5 processes;
#  3. rung compare of a copy kernel against a copy slowed by 2%, and against itself.
# Run from the repo root with the binaries in .carry/bin; writes to ${OUT:-/tmp}.
set -u
ROOT=$PWD
B=$ROOT/.carry/bin
O=${OUT:-/tmp}
export LD_LIBRARY_PATH=$ROOT/.carry/lib:${LD_LIBRARY_PATH:-}
W=$(mktemp -d)
PARTS=${PARTS:-"1 2 3"}
has() { case " $PARTS " in *" $1 "*) return 0;; esac; return 1; }
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"

mk_copy() { # N -> task dir
  d=$W/copy_$1; mkdir -p "$d"; cp bench/tasks/copy/*.cu "$d/"
  sed "s/^N = .*/N = $1/" bench/tasks/copy/rung.ini > "$d/rung.ini"; echo "$d"
}
mk_sgemm() { # size -> task dir
  d=$W/sgemm_$1; mkdir -p "$d"; cp bench/tasks/sgemm4096/*.cu "$d/"
  sed -e "s/^M = .*/M = $1/" -e "s/^N = .*/N = $1/" -e "s/^K = .*/K = $1/" bench/tasks/sgemm4096/rung.ini > "$d/rung.ini"; echo "$d"
}
if has 1; then
echo "== 1. time to verdict and peak RSS (3 runs)"
for i in 1 2 3; do
  python3 "$ROOT/bench/rusage.py" "$B/rung" check bench/tasks/sgemm4096
done
fi

if has 2; then
echo "== 2. rung median vs ncu"
targets=""
for n in ${COPY_SIZES:-262144 1048576 4194304 16777216 67108864 268435456}; do targets="$targets copy:$(mk_copy $n)"; done
for s in ${SGEMM_SIZES:-1024 2048 4096}; do targets="$targets sgemm:$(mk_sgemm $s)"; done
for t in $targets; do
  k=${t%%:*}; d=${t#*:}
  meds=""
  for i in 1 2 3 4 5; do
    m=$("$B/rung" check --json --budget 1 "$d" | python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]["bench"]; print(r["median"])')
    meds="$meds $m"
  done
  ncu --clock-control none --target-processes all --kernel-name "regex:^$k" --launch-skip 3 --launch-count 15 \
      --metrics gpu__time_duration.sum --csv "$B/rung" check --budget 0.3 "$d" > "$W/ncu.csv" 2>/dev/null
  python3 "$ROOT/bench/ncu_compare.py" "$(basename "$d")" "$W/ncu.csv" $meds
done
fi

if has 3; then
echo "== 3. compare: copy vs copy slowed 2%, and copy vs itself"
d=$(mk_copy 67108864)
"$B/rung" compare --budget 3 "$d/copy.cu" "$d/slow2.cu"; echo "rc=$?"
"$B/rung" compare --budget 3 "$d/slow2.cu" "$d/copy.cu"; echo "rc=$?"
cp "$d/copy.cu" "$d/copy_again.cu"; echo "// same kernel, another file" >> "$d/copy_again.cu"
"$B/rung" compare --budget 3 "$d/copy.cu" "$d/copy_again.cu"; echo "rc=$?"
fi
