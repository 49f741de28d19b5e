#!/usr/bin/env python3
"""Runs a command; prints its output, wall time from process start to exit, and the
peak RSS of the command and of its largest descendant (the GPU worker), in MB."""
import resource, subprocess, sys, time

t0 = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t0
sys.stdout.write(p.stdout)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"wall={wall:.3f}s rc={p.returncode} peak_rss_max_process={ru.ru_maxrss/1024:.1f}MB")
