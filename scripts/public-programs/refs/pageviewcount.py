#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checker for Mars's PageViewCount built with its own -D__OUTPUT__, written from its source, not
# run on any GPU or on warpsim: the log's lines are made unique (the first MapReduce), then
# grouped by URL, the groups ordered as compare.cu orders keys (map.cu's hash of the URL and its
# terminating NUL, as a C int, then the URL's bytes); the program prints the first two groups'
# URL, size and IPs. Exit 0 when its output ($LOG) shows the same two groups with the same IPs
# (in any order: equal keys leave the sort free to order them).
# usage: LOG=FILE pageviewcount.py DATAFILE
import os
import re
import sys


from mars_hash import hash_func


lines = open(sys.argv[1], "rb").read().split(b"\n")
groups = {}
for line in sorted(set(l for l in lines if l)):
    fields = line.split(b"\t")
    groups.setdefault(fields[0], []).append(fields[1].decode())
order = sorted(groups, key=lambda url: (hash_func(url + b"\0"), url))
want = [(url.decode(), sorted(groups[url])) for url in order[:2]]

got, cur = [], None
for line in open(os.environ["LOG"], errors="replace"):
    m = re.match(r"===========URL: (.*) - (\d+) unique ip accesses===========$", line.rstrip("\n"))
    if m:
        cur = (m.group(1), int(m.group(2)), [])
        got.append(cur)
    elif line.startswith("IP: ") and cur:
        cur[2].append(line[4:].rstrip("\n"))
ok = len(got) == len(want) and all(
    g[0] == w[0] and g[1] == len(w[1]) and sorted(g[2]) == w[1] for g, w in zip(got, want))
sys.exit(0 if ok else 1)
