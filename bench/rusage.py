#!/usr/bin/env python3
"""Runs a command; prints its output, wall time from process start to its exit,
and the peak RSS of the command and of its largest descendant (the GPU worker),
in MB. This process is a child subreaper, so a worker the command leaves to
finish its CUDA teardown after the verdict is re-parented here and waited for:
its peak RSS counts even though the command did not wait for it."""
import ctypes, os, resource, subprocess, sys, tempfile, time

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
    t0 = time.perf_counter()
    p = subprocess.Popen(sys.argv[1:], stdout=out, stderr=err)
    rc = p.wait()
    wall = time.perf_counter() - t0
    t1 = time.perf_counter()
    while True:  # descendants left behind (the worker), re-parented here
        try:
            os.wait()
        except ChildProcessError:
            break
    linger = time.perf_counter() - t1
    out.seek(0)
    sys.stdout.write(out.read().decode(errors="replace"))
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"wall={wall:.3f}s rc={rc} peak_rss_max_process={ru.ru_maxrss/1024:.1f}MB descendants_after_exit={linger:.3f}s")
