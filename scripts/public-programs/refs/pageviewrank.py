#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for Mars's PageViewRank (its main.cu keeps __OUTPUT__ on), written from its source,
# not run on any GPU or on warpsim: each line "URL<TAB>RANK" of the log is a record (rank, the
# line's byte offset); the records sorted by rank, highest first (compare.cu), and the first 10
# printed as the program's validate() prints them.
# usage: pageviewrank.py DATAFILE
import sys

recs, offset = [], 0
with open(sys.argv[1], "rb") as f:
    for line in f.read().split(b"\n"):
        if not line:
            continue
        recs.append((int(line.split(b"\t")[1]), offset))
        offset += len(line) + 1
recs.sort(key=lambda r: -r[0])
for rank, off in recs[:10]:
    print("count: %d, offset: %d" % (rank, off))
