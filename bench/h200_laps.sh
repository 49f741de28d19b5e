#!/usr/bin/env bash
# Issue #31 item 1: where the one-shot verdict's time goes, on the H200. For
# bench/tasks/sgemm4096 and a 4096 x 8192 softmax (examples/softmax with its
# [dims] changed), RUNS (default 3) runs of `RUNG_TIMING=1 rung check`, each in
# a fresh git repository, with one cache directory for the script
# (RUNG_CACHE_DIR: the reference's CUBIN is read back after the first run, as
# on a user's box), with the wall time (bench/rusage.py) and every lap
# of the parent and the worker. Logs to $OUT. Run from the repo root with the
# binaries in .carry/bin (scripts/build-carry.sh); RUNG_BIN measures another.
set -u
. bench/h200_env.sh
R=${RUNG_BIN:-$B/rung}
W=$(mktemp -d)
export RUNG_CACHE_DIR=$W/cache
trap 'rm -rf "$W"' EXIT
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null) rung=$R"
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
mk() { # mk NAME SRC: a repository with the task at its root
  git init -q "$W/$1" && cp "$2"/* "$W/$1/" && git -C "$W/$1" add -A && git -C "$W/$1" commit -qm "$1"
}
mk sgemm4096 bench/tasks/sgemm4096
mk softmax examples/softmax
sed -i 's/^R = .*/R = 4096/; s/^C = .*/C = 8192/' "$W/softmax/rung.ini"
git -C "$W/softmax" commit -qam "4096 x 8192"
# KERNEL=new: each run first changes the kernel's source (a comment: a new
# CUBIN, as after an agent's edit), then checks it again unchanged (its CUBIN
# from the cache): the walls of both, interleaved, in laps_walls_NAME_new.txt
# and laps_walls_NAME_cached.txt
kernel_of() { sed -n 's/^kernel *= *//p' "$W/$1/rung.ini"; }
for name in sgemm4096 softmax; do
  : > "$O/laps_walls_$name.txt"
  modes=same; [ "${KERNEL:-}" = new ] && modes="new cached"
  for m in $modes; do : > "$O/laps_walls_${name}_$m.txt"; done
  for i in $(seq "${RUNS:-3}"); do
    for m in $modes; do
      [ "$m" = new ] && printf '\n// run %s at %s\n' "$i" "$(date +%s.%N)" >> "$W/$name/$(kernel_of "$name")"
      log=$O/laps_${name}_${i}_$m.log
      (cd "$W/$name" && RUNG_TIMING=1 timeout 120 python3 "$ROOT/bench/rusage.py" sh -c "'$R' check 2>&1") > "$log" 2>&1
      wall=$(sed -n 's/^wall=\([0-9.]*\)s.*/\1/p' "$log" | tail -1)
      echo "$wall" >> "$O/laps_walls_$name.txt"
      echo "$wall" >> "$O/laps_walls_${name}_$m.txt"
      echo "== $name run $i ($m): wall ${wall:-?} s"
      grep -E '^\[(compile|check|bench)\]' "$log" | cut -c1-150
      grep -E '^rung timing' "$log" | sed 's/^rung timing //'
    done
  done
  for m in $modes; do
    echo "median wall $name ($m): $(sort -n "$O/laps_walls_${name}_$m.txt" | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }') s"
  done
done
