#!/usr/bin/env python3
"""Writes N `rung export` lines on stdout, made from the lines of SRC (an
export file, used in turn): each with its own result key and, with
--commits, two commit ids of its own (so that every line's links can be told
apart). Used by the kill tests (store_rebuild_kill.sh, import_kill.sh).
    export_lines.py SRC N [--commits]"""
import hashlib
import json
import sys

src = [json.loads(l) for l in open(sys.argv[1])]
for i in range(int(sys.argv[2])):
    o = json.loads(json.dumps(src[i % len(src)]))
    o["result"]["key"] = hashlib.sha256(b"%d" % i).hexdigest()
    if "--commits" in sys.argv[3:]:
        o["commits"] = [hashlib.sha1(b"a%d" % i).hexdigest(), hashlib.sha1(b"b%d" % i).hexdigest()]
    print(json.dumps(o))
