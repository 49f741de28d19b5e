#!/usr/bin/env python3
"""Puts the profile side data ("extras") of a `rung export` taken on the GPU
box into the recorded results of an example, matched by content: the
result lines stay as they are; each one whose content has extras in the new
export gets them (kinds already there are replaced). Usage:
  merge_extras.py examples/sgemm/recorded.jsonl NEW.jsonl [KIND ...]"""
import json, sys

path, new_path, kinds = sys.argv[1], sys.argv[2], set(sys.argv[3:])
new = {}
for line in open(new_path):
    o = json.loads(line)
    if o.get("extras"):
        new[o["content"]] = o["extras"]
out, n = [], 0
for line in open(path):
    line = line.rstrip("\n")
    o = json.loads(line)
    ex = {k: v for k, v in new.get(o["content"], {}).items() if not kinds or k in kinds}
    if ex:
        n += 1
        if "extras" in o:  # re-encode (numbers keep their values)
            o["extras"].update(ex)
            line = json.dumps(o, separators=(",", ":"), ensure_ascii=True)
        else:  # append, leaving the recorded result's text as it was
            assert line.endswith("}")
            line = line[:-1] + ',"extras":' + json.dumps(ex, separators=(",", ":"), ensure_ascii=True) + "}"
    out.append(line)
open(path, "w").write("\n".join(out) + "\n")
print(f"{path}: extras for {n} of {len(out)} results")
