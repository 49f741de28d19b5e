#!/bin/bash
# rung mcp through the official MCP Python SDK (tests/mcp/sdk.py, #27 item 8).
# Needs the `mcp` package (scripts/bootstrap.sh installs it, pinned) and
# jsonschema: skipped (77) without them. RUNG_MCP_PYTHON names another python.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
PY=${RUNG_MCP_PYTHON:-python3}
"$PY" -c 'import mcp.client.stdio, jsonschema, anyio' 2>/dev/null || { echo "no mcp SDK (pip install mcp): skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/mcp.stderr" ] && tail -20 "$T/mcp.stderr" | sed 's/^/  mcp stderr: /'; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
# a kernel NVRTC takes seconds to compile (as tests/sh/mcp_concurrency.sh)
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
"$PY" "$RUNG_SRC/tests/mcp/sdk.py" "$RUNG" "$T/demo/sgemm" || fail "the SDK session (above)"
echo ok
