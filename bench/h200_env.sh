# Sourced by the bench/h200_*.sh scripts, from the repo root on the GPU box:
# the carried binaries and libraries on the paths, $O for logs, and the source
# path the test binaries were built from (scripts/build-carry.sh) made to
# resolve here.
ROOT=$PWD
B=$ROOT/.carry/bin
O=${OUT:-/tmp/rung-out}; mkdir -p "$O"
export LD_LIBRARY_PATH=$ROOT/.carry/lib:${LD_LIBRARY_PATH:-}
export PATH=$B:$PATH TZ=UTC
SRC=${RUNG_BUILT_SRC:-/tmp/rh}
mkdir -p "$SRC/build" && for d in tests examples bench; do ln -sfn "$ROOT/$d" "$SRC/$d"; done
ln -sfn "$B/rung" "$SRC/build/rung"
