#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for Rodinia's CUDA kmeans (-o, 5 clusters, threshold 0.001, one loop), written from
# its host code (kmeans_clustering.c) and kernel, not run on any GPU or on warpsim: the first 5
# points are the initial centres; each round assigns every point to the centre of least squared
# distance (the first on a tie) and moves each centre to the mean of its points; it stops after
# a round in which no point moved (or 500 rounds). Prints the program's centroid block.
# usage: kmeans.py POINTS_FILE > stdout
import sys

K = 5
pts = []
for line in open(sys.argv[1]):
    w = line.replace(",", " ").split()
    if w:
        pts.append([float(x) for x in w[1:]])
nf = len(pts[0])
centres = [list(p) for p in pts[:K]]
member = [-1] * len(pts)
loop = 0
while True:
    delta = 0
    sums = [[0.0] * nf for _ in range(K)]
    count = [0] * K
    for i, p in enumerate(pts):
        best, bd = 0, float("inf")
        for c in range(K):
            d = sum((p[j] - centres[c][j]) ** 2 for j in range(nf))
            if d < bd:
                best, bd = c, d
        if member[i] != best:
            delta += 1
            member[i] = best
        count[best] += 1
        for j in range(nf):
            sums[best][j] += p[j]
    for c in range(K):
        if count[c] > 0:
            centres[c] = [s / count[c] for s in sums[c]]
    if not (delta > 0.001 and loop < 500):
        break
    loop += 1
print("================= Centroid Coordinates =================")
for c in range(K):
    print("%d:" % c + "".join(" %.2f" % v for v in centres[c]))
    print()
