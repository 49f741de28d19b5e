#!/bin/bash
# rung mcp answers the quick methods while a check runs, and honours
# notifications/cancelled (tests/mcp/concurrency.py, #27 item 4). slow.cu is a
# kernel NVRTC takes seconds to compile (a long unrolled loop), so a check of it
# is still running when the quick requests arrive. The latency bound is 1000 ms
# here (2 shared cores); docs/BENCHMARKS.md has the measured ones.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/mcp.stderr" ] && tail -20 "$T/mcp.stderr" | sed 's/^/  mcp stderr: /'; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
python3 - <<'PY' >slow.cu
body = "\n".join("    acc = acc * 1.0001f + sinf(acc + %d.0f) * A[(i + %d) %% 64];" % (k, k) for k in range(40))
print('''// rung: grid = cdiv(N,16), cdiv(M,16); block = 256
extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = B[i %% 64];
#pragma unroll 1
    for (int r = 0; r < 2; r++) {
%s
    }
    C[i] = acc;
}''' % body)
PY
# the cancelled calls check sources of their own: slow.cu's CUBIN is in the
# task's CUBIN cache once the first call compiled it
for k in 2 3; do { cat slow.cu; echo "// copy $k"; } >slow$k.cu; done
python3 "$RUNG_SRC/tests/mcp/concurrency.py" "$RUNG" "$T/demo/sgemm" 1000 || fail "the MCP session (above)"
echo ok
