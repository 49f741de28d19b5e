#!/usr/bin/env python3
"""cuBLAS FP32 SGEMM at 4096^3 through PyTorch, for the ratio of the demo ladder's
best version to cuBLAS (docs/BENCHMARKS.md). TF32 is off for the FP32 figure and
on for the TF32 figure. Timing: CUDA events over 20 launches after warm-up,
L2 flushed before each by writing a 256 MiB buffer (as triton's do_bench does)."""
import statistics
import torch

M = N = K = 4096
a = torch.randn(M, K, device="cuda")
b = torch.randn(K, N, device="cuda")
flush = torch.empty(256 * 1024 * 1024 // 4, device="cuda")


def bench(label):
    for _ in range(5):
        torch.mm(a, b)
    times = []
    for _ in range(20):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.mm(a, b)
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    med = statistics.median(times)
    print(f"cublas {label}: median={med:.3f}ms {2*M*N*K/med/1e9:.2f}TFLOP/s (torch {torch.__version__})")


torch.backends.cuda.matmul.allow_tf32 = False
bench("fp32")
torch.backends.cuda.matmul.allow_tf32 = True
bench("tf32")
