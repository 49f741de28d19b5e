#!/usr/bin/env python3
"""Re-links the demo's recorded results (examples/*/recorded.jsonl) to the
demo's commits when a change to the demo gives some of them new ids (a
[goal] added to a step's rung.ini changes that commit and every later one,
not what is measured). A line's commits are matched by subject, the result's
label (which may be the subject cut short). usage: relink-recorded.py DEMO_REPO examples/X/recorded.jsonl..."""
import json, subprocess, sys

repo = sys.argv[1]
log = subprocess.run(["git", "-C", repo, "log", "--format=%H %s"], capture_output=True, text=True,
                     check=True).stdout.splitlines()
by_subject = {}
for line in log:
    h, s = line.split(" ", 1)
    by_subject.setdefault(s, h)
for path in sys.argv[2:]:
    out, changed = [], 0
    for line in open(path):
        d = json.loads(line)
        label = d["result"].get("label", "")
        new = by_subject.get(label) or next((h for s, h in by_subject.items() if label and s.startswith(label)), None)
        old = d["result"].get("rev")
        if new and old and old != new:  # the ids alone change: the line stays byte for byte otherwise
            line = line.replace('"%s"' % old, '"%s"' % new)
            changed += 1
        out.append(line.rstrip("\n"))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{path}: {changed} line(s) re-linked")
