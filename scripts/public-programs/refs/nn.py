#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checker for ISPASS-2009 NN (LeCun's digit network), written from its source (NN.cu, NN_kernel.cu),
# not run on any GPU or on warpsim: the first image of data/t10k-images-idx3-ubyte (28x28 bytes
# into a 29x29 field of 1 - byte/256), two 5x5 stride-2 convolution layers (6 and 50 maps), two
# full layers (100, 10), each neuron 1.7159 * tanh(0.66666667 * (bias + sum)). The program writes
# image 0's ten outputs as doubles to out.res; exit 0 when each is within 1e-4 relative of ours.
# usage: nn.py (in the program's folder, after it ran)
import math
import struct
import sys

def floats(name, n):
    with open(name, "rb") as f:
        return list(struct.unpack("<%df" % n, f.read(4 * n)))

w1, w2 = floats("data/lw1.wei", 156), floats("data/lw2.wei", 7800)
w3, w4 = floats("data/lw3.wei", 125100), floats("data/lw4.wei", 1010)
with open("data/t10k-images-idx3-ubyte", "rb") as f:
    f.read(16)
    img = [0] * (29 * 29)
    for i in range(28):
        img[i * 29:i * 29 + 28] = f.read(28)
l1 = [1.0 - v / 256.0 for v in img]
act = lambda x: 1.7159 * math.tanh(0.66666667 * x)
t1 = [r * 29 + c for r in range(5) for c in range(5)]
t2 = [r * 13 + c for r in range(5) for c in range(5)]
l2 = [0.0] * (6 * 169)
for m in range(6):
    for y in range(13):
        for x in range(13):
            s = w1[m * 26]
            for i in range(25):
                s += l1[y * 2 * 29 + x * 2 + t1[i]] * w1[m * 26 + 1 + i]
            l2[m * 169 + y * 13 + x] = act(s)
l3 = [0.0] * 1250
for m in range(50):
    b = m * 156
    for y in range(5):
        for x in range(5):
            s = w2[b]
            for i in range(25):
                for k in range(6):
                    s += l2[169 * k + x * 2 + 13 * y * 2 + t2[i]] * w2[b + 1 + i * 6 + k]
            l3[m * 25 + y * 5 + x] = act(s)
l4 = [act(w3[n * 1251] + sum(l3[i] * w3[n * 1251 + 1 + i] for i in range(1250))) for n in range(100)]
l5 = [act(w4[n * 101] + sum(l4[i] * w4[n * 101 + 1 + i] for i in range(100))) for n in range(10)]
with open("out.res", "rb") as f:
    got = struct.unpack("<10d", f.read(80))
bad = [i for i in range(10) if abs(got[i] - l5[i]) > 1e-4 * max(abs(l5[i]), 1e-3)]
sys.exit(1 if bad else 0)
