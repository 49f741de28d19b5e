#!/usr/bin/env bash
# One H200 session's worth of checks and measurements (see docs/BENCHMARKS.md):
# GPU tests, time to verdict, ceilings, the demo ladders evaluated and profiled
# (exported as the recorded results under examples/), cuBLAS, then the engine
# benchmarks. Run from the repo root with binaries in .carry/bin; logs to $OUT.
set -u
. bench/h200_env.sh
STEPS=${STEPS:-"tests timing ceilings demo cublas engine"}
want() { case " $STEPS " in *" $1 "*) return 0;; esac; return 1; }

if want tests; then
  for t in gpu_faults gpu_profile gpu_rev_store gpu_trace; do
    [ -x "$B/$t" ] || continue
    echo "== $t"; timeout 300 "$B/$t"; echo "rc=$?"
  done > "$O/gputests.log" 2>&1
  grep -E "^== |passed|rc=" "$O/gputests.log"
fi

if want timing; then
  { echo "== RUNG_TIMING=1 rung check bench/tasks/sgemm4096"
    RUNG_TIMING=1 rung check bench/tasks/sgemm4096
    for i in 1 2 3; do python3 bench/rusage.py rung check bench/tasks/sgemm4096; done
  } > "$O/timing.log" 2>&1
  cat "$O/timing.log"
fi

if want ceilings; then
  rung ceilings > "$O/ceilings.log" 2>&1; cat "$O/ceilings.log"
fi

if want demo; then
  D=/tmp/rung-demo; rm -rf "$D"
  {
    rung demo --no-tui "$D" | tail -3
    cd "$D"
    for t in sgemm softmax; do
      echo "== eval $t"; rung eval --all --task "$t" 2>&1 | tail -20
      echo "== log $t"; rung log --task "$t"
    done
    echo "== profile sgemm ladder"
    for rev in $(git log --format=%h -- sgemm/sgemm.cu | tac); do
      echo "-- $rev $(git log -1 --format=%s "$rev" | cut -c1-60)"
      rung profile --task sgemm "$rev" 2>&1 | grep -E "^\[(profile|compile)\]|note"
    done
    echo "== profile softmax ladder"
    for rev in $(git log --format=%h -- softmax/softmax.cu | tac); do
      echo "-- $rev"; rung profile --task softmax "$rev" 2>&1 | grep -E "^\[profile\]"
    done
    echo "== note + brief"
    top=$(git log -1 --format=%h -- sgemm/sgemm.cu)
    rung note "$top" "try a 3xTF32 split to get FP32 accuracy at tensor-core speed" || true
    rung brief --task sgemm
    rung export --out "$O/recorded.jsonl"; wc -l "$O/recorded.jsonl"
    cd "$ROOT"
  } > "$O/demo.log" 2>&1
  cat "$O/demo.log"
fi

if want cublas; then
  python3 bench/cublas_sgemm.py > "$O/cublas.log" 2>&1; cat "$O/cublas.log"
fi

if want engine; then
  COPY_SIZES=${COPY_SIZES:-"1048576 4194304 16777216 67108864 268435456"} SGEMM_SIZES=${SGEMM_SIZES:-"1024 4096"} \
    timeout 360 bash bench/h200_bench.sh > "$O/engine.log" 2>&1
  cat "$O/engine.log"
fi
