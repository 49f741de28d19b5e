#!/usr/bin/env python3
"""Each ctest test's wall and CPU time, J at a time (default 2).

  scripts/test-times.py BUILD_DIR [-j J] [-R REGEX] > times.tsv

Runs every test of BUILD_DIR (ctest --show-only=json-v1: its command, its
ENVIRONMENT and WORKING_DIRECTORY, its TIMEOUT) under /usr/bin/time and
prints name, exit status, wall s, user s, sys s (user+sys of the test and of
the children it waited for), slowest CPU first. A developer's tool for
docs/BENCHMARKS.md "The developers' loop"; ctest itself is what judges.
"""
import json, os, re, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

args = sys.argv[1:]
if not args:
    sys.exit(__doc__)
build, jobs, regex = args[0], 2, None
i = 1
while i < len(args):
    if args[i].startswith("-j") and len(args[i]) > 2: jobs = int(args[i][2:]); i += 1
    elif args[i] == "-j": jobs = int(args[i + 1]); i += 2
    elif args[i] == "-R": regex = args[i + 1]; i += 2
    else: sys.exit(__doc__)
info = json.loads(subprocess.check_output(["ctest", "--test-dir", build, "--show-only=json-v1"]))

def run(t):
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    env = dict(os.environ)
    for kv in props.get("ENVIRONMENT", []):
        k, _, v = kv.partition("=")
        env[k] = v
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        t0 = time.monotonic()
        p = subprocess.run(["timeout", str(int(props.get("TIMEOUT", 1500))), "/usr/bin/time", "-o", tf.name,
                            "-f", "%U %S"] + t["command"], cwd=props.get("WORKING_DIRECTORY", build),
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        last = (tf.read().strip().splitlines() or ["0 0"])[-1].split()
        try: user, sys_ = float(last[0]), float(last[1])
        except (ValueError, IndexError): user = sys_ = float("nan")
    return t["name"], p.returncode, wall, user, sys_

tests = [t for t in info["tests"] if "command" in t and (not regex or re.search(regex, t["name"]))]
with ThreadPoolExecutor(jobs) as ex:
    rows = list(ex.map(run, tests))
rows.sort(key=lambda r: -(r[3] + r[4]))
tw = tc = 0
for n, rc, w, u, s in rows:
    print(f"{n}\t{rc}\t{w:.2f}\t{u:.2f}\t{s:.2f}")
    tw += w; tc += u + s
print(f"# {len(rows)} tests, {tw:.1f} s of test wall, {tc:.1f} s CPU (user+sys)", file=sys.stderr)
