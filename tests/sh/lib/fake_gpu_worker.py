#!/usr/bin/env python3
"""A fake `rung worker --stdio` with a GPU, for the pool's tests on machines
without one (RUNG_WORKER_EXE points at it; rung runs it as `EXE worker
--stdio`, under `env CUDA_VISIBLE_DEVICES=N` for a local pool member; or
`EXE worker --socket` for the one-worker path, stdin then being the socket).

It speaks the worker protocol (docs/ARCHITECTURE.md, "Worker protocol"): a
hello naming a device, then for each job (its CUBIN blobs read and dropped)
a result with run, check and bench ok after FAKE_JOB_S seconds (default
0.4). Which device: FAKE_GPU_UUID if set, else "GPU-fake-" and the
CUDA_VISIBLE_DEVICES it was given, so that local:0,0 makes two workers on
one device and local:0,1 two devices; FAKE_GPU_NAME names the model
(default "Fake GPU"; FAKE_GPU_NAME_N for device N alone), FAKE_GPU_ARCH_N
device N's arch (default sm_90); a device listed in FAKE_NO_GPU_DEVICES (0,1,...)
says hello with no GPU and exits, as rung worker does. Every job appends "start UUID T PID" and "end UUID T
PID" (T: time.time()) to FAKE_LOG, which the test reads to see whether two
jobs on one device overlapped. Nothing here touches a GPU."""
import json
import os
import sys
import time

inp = sys.stdin.buffer
out = sys.stdout.buffer
if "--socket" in sys.argv:  # the one-worker path: stdin is the socket, both ways
    out = os.fdopen(os.dup(0), "wb")
dev = os.environ.get("CUDA_VISIBLE_DEVICES", "0")
uuid = os.environ.get("FAKE_GPU_UUID") or "GPU-fake-" + dev
name = os.environ.get("FAKE_GPU_NAME_" + dev) or os.environ.get("FAKE_GPU_NAME", "Fake GPU")
job_s = float(os.environ.get("FAKE_JOB_S", "0.4"))
log = os.environ.get("FAKE_LOG")
arch = os.environ.get("FAKE_GPU_ARCH_" + dev, "sm_90")
env = {"valid": True, "gpu": name, "uuid": uuid, "driver": "0.0", "cuda": "0.0", "arch": arch, "sms": 132,
       "sm_clock_mhz": 1980, "mem_clock_mhz": 3201, "bus_width": 6016, "l2_bytes": 62914560,
       "persisting_l2_limit": 0, "power_limit_w": 700.0, "host": "fakehost"}


def send(hdr, blob=None):
    if blob is not None:
        hdr["blobs"] = [len(blob)]
    out.write(json.dumps(hdr, separators=(",", ":")).encode() + b"\n")
    if blob is not None:
        out.write(blob)
    out.flush()


def note(what):
    if log:
        with open(log, "a") as f:
            f.write("%s %s %.6f %d\n" % (what, uuid, time.time(), os.getpid()))


if dev in os.environ.get("FAKE_NO_GPU_DEVICES", "").split(","):  # a device this box does not have
    send({"type": "hello", "proto": 1, "ok": False, "reason": "no CUDA device (fake, CUDA_VISIBLE_DEVICES=%s)" % dev})
    sys.exit(0)
send({"type": "hello", "proto": 1, "ok": True, "env": env})
while True:
    line = inp.readline()
    if not line:
        break
    hdr = json.loads(line)
    left = sum(hdr.get("blobs", []))
    while left > 0:
        chunk = inp.read(left)
        if not chunk:
            sys.exit(0)
        left -= len(chunk)
    if hdr.get("type") == "quit":
        break
    if hdr.get("type") != "job":
        send({"type": "error", "step": "run", "reason": "fake worker: no " + str(hdr.get("type")), "fatal": False})
        continue
    note("start")
    time.sleep(job_s)
    note("end")
    median = float(os.environ.get("FAKE_MEDIAN_MS", "5.0"))
    samples = [median * f for f in (0.998, 0.999, 1.0, 1.0, 1.001, 1.002)]
    rec = {"steps": {"run": {"status": "ok"}, "check": {"status": "ok"}, "bench": {"status": "ok"}},
           "bench": {"valid": True, "median": median, "mean": median, "min": median, "max": median, "q1": median,
                     "q3": median, "stddev": 0.0, "rse_median": 0.001, "noise_ok": True, "n": len(samples),
                     "samples": samples, "method": "events", "verified": 3, "sets": 1,
                     "shared": {"read": True, "procs": [], "more": 0}},
           "metrics": [{"output": "c", "n": 1000, "pass": True}], "nshapes": 1, "nseeds": 1,
           "env": env}
    # the record ends with a newline: srun forwards output by lines (the blob would wait there)
    send({"type": "result", "fatal": False}, json.dumps(rec).encode() + b"\n")
