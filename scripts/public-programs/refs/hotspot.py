#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for Rodinia's CUDA hotspot, written from its kernel's arithmetic (not run on any GPU
# or on warpsim): each step T += step/Cap * (P + (T_S + T_N - 2T)/Ry + (T_E + T_W - 2T)/Rx
# + (80 - T)/Rz), a neighbour beyond the grid's edge being the cell itself; the constants as the
# program derives them from the chip's size. Python doubles against the program's floats: the
# harness compares with a relative tolerance.
# usage: hotspot.py ROWS_COLS PYRAMID SIM_TIME TEMP_FILE POWER_FILE > the output file's text
import sys

n, _pyramid, steps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
temp = [float(l) for l in open(sys.argv[4]) if l.strip()][: n * n]
power = [float(l) for l in open(sys.argv[5]) if l.strip()][: n * n]
t_chip, chip = 0.0005, 0.016
gw = gh = chip / n
cap = 0.5 * 1.75e6 * t_chip * gw * gh
rx = gw / (2.0 * 100 * t_chip * gh)
ry = gh / (2.0 * 100 * t_chip * gw)
rz = t_chip / (100 * gh * gw)
step = 0.001 / (3.0e6 / (0.5 * t_chip * 1.75e6))
k = step / cap
for _ in range(steps):
    t = temp
    new = [0.0] * (n * n)
    for y in range(n):
        for x in range(n):
            c = t[y * n + x]
            north = t[max(y - 1, 0) * n + x]
            south = t[min(y + 1, n - 1) * n + x]
            west = t[y * n + max(x - 1, 0)]
            east = t[y * n + min(x + 1, n - 1)]
            new[y * n + x] = c + k * (power[y * n + x] + (south + north - 2.0 * c) / ry
                                      + (east + west - 2.0 * c) / rx + (80.0 - c) / rz)
    temp = new
for i, v in enumerate(temp):
    sys.stdout.write("%d\t%g\n" % (i, v))
