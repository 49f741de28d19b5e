#!/usr/bin/env python3
"""The Python loop rung is measured against (docs/BENCHMARKS.md, "Time to
verdict"): what a kernel engineer writes without rung, for one of rung's
task directories, in one process:
  compile the kernel and the reference with cupy (NVRTC), inputs with torch
  (normal, seeded), run both at the benchmark shape, the metrics rung reports
  (max abs/rel error, MAE, RMSE, PSNR, cosine similarity, in double), then
  the timing with triton.testing.do_bench (median).
It checks one shape and one seed where rung checks every [check] size and
seed plus the bench shape: it does less than rung. Run it under
bench/rusage.py for wall time and peak RSS. Usage: python_loop.py TASKDIR"""
import configparser, math, os, re, sys, time

t0 = time.perf_counter()
import cupy as cp  # noqa: E402
import torch  # noqa: E402
import triton.testing  # noqa: E402

task = sys.argv[1]
ini = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
ini.optionxform = str
ini.read(os.path.join(task, "rung.ini"))
dims = {k: int(v) for k, v in ini["dims"].items()}


def ev(expr):
    env = dict(dims, cdiv=lambda a, b: (a + b - 1) // b)
    return int(eval(expr, {"__builtins__": {}}, env))


def top_split(text):
    """Splits at the commas outside parentheses: "cdiv(N,32), cdiv(M,32)"."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def dim3(text):
    v = [ev(x) for x in top_split(text)]
    return tuple(v + [1] * (3 - len(v)))


T = {"f32": (torch.float32, cp.float32), "i32": (torch.int32, cp.int32)}
args = [(s[4:], ini[s]) for s in ini.sections() if s.startswith("arg ")]
g = torch.Generator(device="cuda").manual_seed(1)


def buffers():
    out = []
    for name, a in args:
        kind, dt = a.get("kind"), a.get("dtype", "f32")
        if kind == "scalar":
            out.append((name, kind, T[dt][1](ev(a["value"]) if dt == "i32" else float(a["value"]))))
            continue
        shape = [ev(x) for x in top_split(a["shape"])]
        if kind == "output":
            t = torch.zeros(shape, dtype=T[dt][0], device="cuda")
        else:
            t = torch.randn(shape, dtype=T[dt][0], device="cuda", generator=g)
        out.append((name, kind, t))
    return out


def module(src_file, entry):
    src = open(os.path.join(task, src_file)).read()
    m = cp.RawModule(code=src, options=("-std=c++17",),
                     name_expressions=[entry])
    return m.get_function(entry)


def launch_of(src_file):
    """The file's `// rung: grid = ...; block = ...` line, else the spec's [launch]."""
    m = re.search(r"//\s*rung:\s*(.*)", open(os.path.join(task, src_file)).read())
    kv = dict(ini["launch"]) if ini.has_section("launch") else {}
    if m:
        for part in m.group(1).split(";"):
            if "=" in part:
                k, v = part.split("=", 1)
                kv[k.strip()] = v.strip()
    return dim3(kv["grid"]), dim3(kv["block"]), ev(kv.get("smem", "0"))


kern = module(ini["task"]["kernel"], ini["task"]["entry"])
ref = module(ini["task"]["reference"], ini["task"]["reference_entry"])
grid, block, smem = launch_of(ini["task"]["kernel"])
ref_grid, ref_block, ref_smem = launch_of(ini["task"]["reference"])
cand = buffers()
refb = [(n, k, t.clone() if isinstance(t, torch.Tensor) else t) for n, k, t in cand]
ptr = lambda bs: tuple(cp.uint64(t.data_ptr()) if isinstance(t, torch.Tensor) else t for _, _, t in bs)  # noqa: E731
outs = [i for i, (_, k, _) in enumerate(cand) if k in ("output", "inout")]
kern(grid, block, ptr(cand), shared_mem=smem)
ref(ref_grid, ref_block, ptr(refb), shared_mem=ref_smem)
torch.cuda.synchronize()
for i in outs:
    got, want = cand[i][2].double().flatten(), refb[i][2].double().flatten()
    d = (got - want).abs()
    mse = float((d * d).mean())
    peak = float(want.abs().max())
    rel = float((d / want.abs().clamp_min(1e-30)).max())
    cos = float(torch.nn.functional.cosine_similarity(got, want, dim=0))
    psnr = 10 * math.log10(peak * peak / mse) if mse > 0 else float("inf")
    print(f"{cand[i][0]}: max_abs={float(d.max()):.3g} max_rel={rel:.3g} mae={float(d.mean()):.3g} "
          f"rmse={math.sqrt(mse):.3g} psnr={psnr:.1f}dB cos={cos:.7f}")
pc = ptr(cand)
ms = triton.testing.do_bench(lambda: kern(grid, block, pc, shared_mem=smem), return_mode="median")
print(f"do_bench median {ms:.6f} ms")
print(f"python loop: {time.perf_counter() - t0:.3f} s after the interpreter started")
