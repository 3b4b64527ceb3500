#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for Rodinia's CUDA pathfinder built with its own -DBENCH_PRINT, written from its
# source, not run on any GPU or on warpsim: the wall is rand() % 10 row by row after srand(9)
# (the C library's rand, called through ctypes, as the program's host code calls it); each row's
# cost is its wall plus the least of the three costs above it (a column beyond the edge being
# the cell's own). Prints the program's two lines: the first row and the last costs.
# usage: pathfinder.py COLS ROWS PYRAMID_HEIGHT
import ctypes
import sys

cols, rows = int(sys.argv[1]), int(sys.argv[2])
libc = ctypes.CDLL(None)
libc.srand(9)
wall = [[libc.rand() % 10 for _ in range(cols)] for _ in range(rows)]
cost = list(wall[0])
for t in range(1, rows):
    cost = [wall[t][x] + min(cost[max(x - 1, 0)], cost[x], cost[min(x + 1, cols - 1)])
            for x in range(cols)]
print("".join("%d " % v for v in wall[0]))
print("".join("%d " % v for v in cost))
