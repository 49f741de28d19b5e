#!/usr/bin/env python3
"""Row softmax in Triton, for rung's softmax-triton task (examples/softmax-triton).

rung never runs this: a person or an agent runs it on a machine with a GPU,
triton and torch, and commits what it writes next to rung.ini:

  softmax.ptx   the kernel's PTX as Triton made it, with one `// rung:` line
                prepended for the grid (grid = R: the launch, which Triton's
                metadata does not record)
  softmax.json  the compiled kernel's metadata (num_warps, shared, scratch
                sizes, triton version): rung's sidecar for softmax.ptx, from
                which it takes block = num_warps*32 and smem = shared
                (docs/SPEC.md, "The sidecar"); it holds only numbers and names,
                never a command (rung refuses a key that names one)

  python3 triton_softmax.py [--out DIR] [--bench]

--bench also times the same kernel at rung's bench shape (R=16384, C=4096)
with triton.testing.do_bench (median, L2 cleared between runs) and prints
`do_bench_median_ms <ms>`, to compare with rung's median.

The kernel reads any C in chunks of BLOCK columns with an online max and sum
(C up to 10003 in rung's check sizes), so R and C are not specialized: Triton
would otherwise drop an argument equal to 1 (C=1 is a check size) and assume
C % 16 == 0 from the value it was compiled with.
"""
import argparse
import json
import os

import torch
import triton
import triton.language as tl

BLOCK = 1024
NUM_WARPS = 4
R_BENCH, C_BENCH = 16384, 4096


@triton.jit(do_not_specialize=["R", "C"])
def softmax_kernel(x_ptr, y_ptr, R, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * C
    y_row = y_ptr + row.to(tl.int64) * C
    offs = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    d = tl.zeros([BLOCK], tl.float32)
    for start in range(0, C, BLOCK):
        cols = start + offs
        v = tl.load(x_row + cols, mask=cols < C, other=float("-inf"))
        m_new = tl.maximum(m, v)
        empty = m_new == float("-inf")
        d = tl.where(empty, 0.0, d * tl.exp(m - m_new) + tl.exp(v - m_new))
        m = m_new
    mx = tl.max(m, 0)
    d = tl.sum(tl.where(m == float("-inf"), 0.0, d * tl.exp(m - mx)), 0)
    inv = 1.0 / d
    for start in range(0, C, BLOCK):
        cols = start + offs
        v = tl.load(x_row + cols, mask=cols < C, other=0.0)
        tl.store(y_row + cols, tl.exp(v - mx) * inv, mask=cols < C)


def launch(x, y):
    R, C = x.shape
    return softmax_kernel[(R,)](x, y, R, C, BLOCK=BLOCK, num_warps=NUM_WARPS)


def metadata_dict(md):
    if hasattr(md, "_asdict"):
        md = md._asdict()
    elif not isinstance(md, dict):
        md = dict(vars(md))
    keep = ("name", "num_warps", "num_ctas", "num_stages", "shared", "global_scratch_size", "global_scratch_align",
            "profile_scratch_size", "profile_scratch_align", "maxnreg", "ptx_version", "arch")
    out = {k: md[k] for k in keep if k in md and isinstance(md[k], (int, str, float))}
    if "target" in md:
        t = md["target"]
        out["target"] = {"backend": getattr(t, "backend", None), "arch": getattr(t, "arch", None)}
    out["triton_version"] = triton.__version__
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--bench", action="store_true")
    a = ap.parse_args()
    x = torch.randn(R_BENCH, C_BENCH, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    k = launch(x, y)
    torch.cuda.synchronize()
    err = (y - torch.softmax(x, dim=1)).abs().max().item()
    md = metadata_dict(k.metadata)
    ptx = k.asm["ptx"]
    block = md["num_warps"] * 32
    smem = md.get("shared", 0)
    for key in ("global_scratch_size", "profile_scratch_size"):
        if md.get(key, 0):
            raise SystemExit(f"{key} = {md[key]}: rung passes scratch as a null pointer (size 0 only)")
    # block and smem come from the sidecar (softmax.json); the grid is the launch's
    head = ("// rung: grid = R\n"
            "// Written by triton_softmax.py (triton %s, num_warps %d, BLOCK %d, shared %d); do not edit.\n"
            % (triton.__version__, md["num_warps"], BLOCK, smem))
    with open(os.path.join(a.out, "softmax.ptx"), "w") as f:
        f.write(head + ptx)
    with open(os.path.join(a.out, "softmax.json"), "w") as f:
        json.dump(md, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote softmax.ptx ({len(ptx)} bytes, entry {md.get('name')}, block {block}, smem {smem}); "
          f"max abs error vs torch.softmax {err:.3g}")
    if a.bench:
        ms = triton.testing.do_bench(lambda: launch(x, y), warmup=100, rep=2000, return_mode="median")
        print(f"do_bench_median_ms {ms:.6f}")
        # CUDA events around each Python launch include the launch's gap on the
        # GPU; a CUDA graph replays the same launches without it (the input,
        # 256 MB, is far larger than L2, so no cache clearing is needed)
        ms = triton.testing.do_bench_cudagraph(lambda: launch(x, y), rep=500, return_mode="median")
        print(f"do_bench_cudagraph_median_ms {ms:.6f}")


if __name__ == "__main__":
    main()
