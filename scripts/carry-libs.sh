#!/usr/bin/env bash
# Copies the shared libraries a built rung needs but a bare CUDA box may lack
# (libgit2 and its deps, inih, jansson, sqlite) into DIR (default .carry/lib),
# for running a binary built here on another machine with LD_LIBRARY_PATH=DIR.
set -euo pipefail
bin=${1:-build/rung}
out=${2:-.carry/lib}
mkdir -p "$out"
ldd "$bin" | awk '/=> \//{print $1, $3}' | while read -r name path; do
  case "$name" in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*|libnvrtc*|libcuda*|libstdc++*|libgcc_s*|libncurses*|libtinfo*) continue ;;
  esac
  cp -L "$path" "$out/$name"
done
ls "$out"
