// SPDX-License-Identifier: MIT
// Viterbi decoding with beam pruning: one observation sequence per thread, integer log-scores,
// transition/emission tables in constant memory, back-pointers in local memory, traceback.
// Pruned states depend on the data, so the inner loops diverge.
#define VT_S 8   /* states */
#define VT_M 16  /* observation symbols */
#define VT_T 64  /* maximum sequence length */
__constant__ int trans[VT_S * VT_S];
__constant__ int emit[VT_S * VT_M];

extern "C" __global__ void viterbi(const unsigned char *obs, unsigned char *path, int *score,
				   int n, int T, int beam)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const unsigned char *o = obs + i * T;
	int prev[VT_S], cur[VT_S];
	unsigned char bp[VT_T][VT_S];
	for (int s = 0; s < VT_S; s++)
		prev[s] = emit[s * VT_M + o[0]];
	for (int t = 1; t < T; t++) {
		int top = prev[0];
		for (int s = 1; s < VT_S; s++)
			top = max(top, prev[s]);
		int ot = o[t];
		for (int s = 0; s < VT_S; s++) {
			int best = -1000000000, arg = 0;
			for (int p = 0; p < VT_S; p++) {
				if (prev[p] < top - beam)
					continue;
				int v = prev[p] + trans[p * VT_S + s];
				if (v > best) {
					best = v;
					arg = p;
				}
			}
			cur[s] = best + emit[s * VT_M + ot];
			bp[t][s] = (unsigned char)arg;
		}
		for (int s = 0; s < VT_S; s++)
			prev[s] = cur[s];
	}
	int best = prev[0], st = 0;
	for (int s = 1; s < VT_S; s++)
		if (prev[s] > best) {
			best = prev[s];
			st = s;
		}
	score[i] = best;
	for (int t = T - 1; t > 0; t--) {
		path[i * T + t] = (unsigned char)st;
		st = bp[t][st];
	}
	path[i * T] = (unsigned char)st;
}
