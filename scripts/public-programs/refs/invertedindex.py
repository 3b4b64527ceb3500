#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checker for Mars's InvertedIndex built with its own -D__OUTPUT__, written from its source, not
# run on any GPU or on warpsim: each file of DIR (alphabetical, as scandir's alphasort) is cut
# into blocks of 1,024 bytes stretched to the next newline (main.cu); map.cu's state machine
# finds each <a href="URL"> in a block; the links are grouped by URL, groups ordered as
# compare.cu orders keys (map.cu's hash of the URL as a C int, then its bytes). The program
# prints the number of groups and links and its first two groups: their range, URL and files.
# Exit 0 when its output ($LOG) says the same (a group's files in any order).
# usage: LOG=FILE invertedindex.py DIR/
import os
import re
import sys


from mars_hash import hash_func


def links(block):
    out, state, j = [], 0, 0
    while j < len(block):
        c = block[j:j + 1]
        if state == 0:
            state = 1 if c == b"<" else 0
        elif state == 1:
            state = 2 if c == b"a" else 1 if c == b" " else 0
        elif state == 2:
            if c == b"h":
                if block[j:j + 4] == b"href":
                    state, j = 3, j + 3
                else:
                    state = 0
            else:
                state = 2 if c == b" " else 0
        elif state == 3:
            state = 3 if c in (b" ", b"=") else 4 if c == b'"' else 0
        else:
            end = block.index(b'"', j)
            out.append(block[j:end])
            j, state = end, 0
        j += 1
    return out


d = sys.argv[1]
names = sorted(n for n in os.listdir(d) if n not in (".", ".."))
recs = []
for name in names:
    data = bytearray(open(os.path.join(d, name), "rb").read() + b"\0")
    size, offset = len(data), 0
    while True:
        p = offset + min(1024, size - offset)
        while p < size and data[p] not in (10, 0):
            p += 1
        if p < size and data[p] != 0:
            data[p] = 0
            blocks_end = p + 1
            recs += [(u, d + name) for u in links(bytes(data[offset:blocks_end]))]
            offset = blocks_end
        else:
            recs += [(u, d + name) for u in links(bytes(data[offset:size]))]
            break
groups = {}
for url, f in recs:
    groups.setdefault(url, []).append(f)
order = sorted(groups, key=lambda u: (hash_func(u), u))
want, start = [], 0
for url in order[:2]:
    want.append((start, start + len(groups[url]), url.decode(), sorted(groups[url])))
    start += len(groups[url])

log = open(os.environ["LOG"], errors="replace").read()
m = re.search(r"# of Groups: (\d+), # of records:(\d+)", log)
got = [(int(a), int(b), u, sorted(fl.split()))
       for a, b, u, fl in re.findall(r"========Start:(\d+), End:(\d+), URL: (.*)===========\nFILE LIST: (.*)\n", log)]
ok = m and int(m.group(1)) == len(groups) and int(m.group(2)) == len(recs) and got == want
sys.exit(0 if ok else 1)
