#!/usr/bin/env python3
"""triton.testing.do_bench of a saxpy (y = a*x + y, f32) at the sizes given, the
Python anchor of the short-kernel table (bench/h200_short.sh). do_bench clears
L2 before every repetition and times with CUDA events; median in us."""
import sys
import torch
import triton
import triton.language as tl


@triton.jit
def saxpy(x_ptr, y_ptr, a, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(y_ptr + i, a * tl.load(x_ptr + i, mask=m) + tl.load(y_ptr + i, mask=m), mask=m)


for n in [int(s) for s in sys.argv[1:]] or [1 << 18]:
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    grid = (triton.cdiv(n, 1024),)
    f = lambda: saxpy[grid](x, y, 2.0, n, BLOCK=1024)
    f()
    ms = triton.testing.do_bench(f, warmup=50, rep=300, return_mode="median")
    print(f"triton do_bench saxpy n={n}: {ms * 1e3:.2f} us")
