# SPDX-License-Identifier: MIT
# Mars's string hash (its hash_func: length-seeded, shift-xor over signed chars, 32-bit wrap),
# shared by the Mars checkers here (invertedindex.py, pageviewcount.py).


def s32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def hash_func(data):
    h = len(data)
    for c in data:
        h = s32((h << 4) ^ (h >> 28) ^ (c - 256 if c > 127 else c))
    return h
