#!/usr/bin/env bash
# Idempotent setup for rung: installs missing build dependencies by package name
# (Debian/Ubuntu apt) and nvdisasm from pip when none is found.
set -euo pipefail
pkgs=(cmake make gcc pkg-config libncursesw5-dev libgit2-dev libsqlite3-dev libinih-dev libjansson-dev tmux git python3-pip)
# tests that watch what rung runs and opens (tests/sh/check_worker_first.sh, tui_first_frame.sh)
pkgs+=(strace)
# the worker pool's tests (tests/sh/pool_ssh.sh, pool_slurm.sh): a real sshd, a one-node Slurm cluster
pkgs+=(openssh-server openssh-client slurm-wlm munge)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "bootstrap: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  # quiet, but what fails is shown (and stops the script)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
have_nvdisasm() {
  command -v nvdisasm >/dev/null 2>&1 && return 0
  [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvdisasm" ] && return 0
  [ -x /usr/local/cuda/bin/nvdisasm ] && return 0
  python3 - <<'PY' 2>/dev/null
import glob, os, sys, site
paths = site.getsitepackages() + [site.getusersitepackages()]
sys.exit(0 if any(glob.glob(os.path.join(p, "nvidia", "*", "bin", "nvdisasm")) for p in paths) else 1)
PY
}
if ! have_nvdisasm; then
  echo "bootstrap: installing nvdisasm (pip nvidia-cuda-nvdisasm)" >&2
  python3 -m pip install -q nvidia-cuda-nvdisasm 2>/dev/null \
    || python3 -m pip install -q --break-system-packages nvidia-cuda-nvdisasm \
    || echo "bootstrap: nvdisasm unavailable; SASS views will say so" >&2
fi
# the official MCP SDK, pinned, for tests/sh/mcp_sdk.sh (skipped without it)
if ! python3 -c 'import mcp.client.stdio, jsonschema' 2>/dev/null; then
  echo "bootstrap: installing the MCP SDK for the tests (pip mcp==2.3.0 jsonschema)" >&2
  python3 -m pip install -q 'mcp==2.3.0' 'jsonschema>=4,<5' 2>/dev/null \
    || python3 -m pip install -q --break-system-packages 'mcp==2.3.0' 'jsonschema>=4,<5' \
    || echo "bootstrap: the MCP SDK is unavailable; tests/sh/mcp_sdk.sh will skip" >&2
fi
if [ ! -d /usr/local/cuda ] && [ -z "${CUDA_HOME:-}" ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "bootstrap: no CUDA toolkit found (NVRTC is needed to build rung); install the CUDA toolkit" >&2
  exit 1
fi
