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
	/* Data-dependent length T-7..T: threads of a warp leave the time loop at different steps. */
	int len = max(T - (o[0] & 7), 1);
	int prev[VT_S], cur[VT_S];
	unsigned char bp[VT_T][VT_S];
	for (int s = 0; s < VT_S; s++)
		prev[s] = emit[s * VT_M + o[0]];
	for (int t = 1; t < len; t++) {
		int top = prev[0];
		for (int s = 1; s < VT_S; s++)
			top = max(top, prev[s]);
		for (int s = 0; s < VT_S; s++) {
			cur[s] = -1000000000;
			bp[t][s] = 0;
		}
		/* Push from each surviving state; pruned states skip their whole successor loop
		 * (too long to predicate, so the warp diverges). Ascending p with a strict compare
		 * keeps the smallest best predecessor. */
		for (int p = 0; p < VT_S; p++) {
			if (prev[p] < top - beam)
				continue;
			for (int s = 0; s < VT_S; s++) {
				int v = prev[p] + trans[p * VT_S + s];
				if (v > cur[s]) {
					cur[s] = v;
					bp[t][s] = (unsigned char)p;
				}
			}
		}
		int ot = o[t];
		for (int s = 0; s < VT_S; s++)
			prev[s] = cur[s] + emit[s * VT_M + ot];
	}
	int best = prev[0], st = 0;
	for (int s = 1; s < VT_S; s++)
		if (prev[s] > best) {
			best = prev[s];
			st = s;
		}
	score[i] = best;
	for (int t = len - 1; t > 0; t--) {
		path[i * T + t] = (unsigned char)st;
		st = bp[t][st];
	}
	path[i * T] = (unsigned char)st;
}

/* The large-warp paper's viterbi kind (002 Table 2: divergent, compute bound, its data on chip):
 * the same decoding with the back-pointers in shared memory, each thread's own (the paper's
 * per-thread private memory), instead of local memory. A step's 8 back-pointers are packed into
 * one word, 4 bits each; thread x's word of step t lies at bp[t * 256 + x], in bank x mod 32: the
 * lane's own bank, as the paper's 32-banked private memory serves a sub-warp of one thread per
 * lane. Needs T <= VT_PT and CTAs of at most 256 threads (16 KB). */
#define VT_PT 16
extern "C" __global__ void viterbi_private(const unsigned char *obs, unsigned char *path, int *score,
					   int n, int T, int beam)
{
	__shared__ unsigned bp[VT_PT * 256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned *b = bp + threadIdx.x;
	const unsigned char *o = obs + i * T;
	int len = max(T - (o[0] & 7), 1);
	int prev[VT_S], cur[VT_S];
	for (int s = 0; s < VT_S; s++)
		prev[s] = emit[s * VT_M + o[0]];
	for (int t = 1; t < len; t++) {
		int top = prev[0];
		for (int s = 1; s < VT_S; s++)
			top = max(top, prev[s]);
		unsigned arg[VT_S];
		for (int s = 0; s < VT_S; s++) {
			cur[s] = -1000000000;
			arg[s] = 0;
		}
		for (int p = 0; p < VT_S; p++) {
			if (prev[p] < top - beam)
				continue;
			for (int s = 0; s < VT_S; s++) {
				int v = prev[p] + trans[p * VT_S + s];
				if (v > cur[s]) {
					cur[s] = v;
					arg[s] = (unsigned)p;
				}
			}
		}
		unsigned word = 0;
		for (int s = 0; s < VT_S; s++)
			word |= arg[s] << (4 * s);
		b[t * 256] = word;
		int ot = o[t];
		for (int s = 0; s < VT_S; s++)
			prev[s] = cur[s] + emit[s * VT_M + ot];
	}
	int best = prev[0], st = 0;
	for (int s = 1; s < VT_S; s++)
		if (prev[s] > best) {
			best = prev[s];
			st = s;
		}
	score[i] = best;
	for (int t = len - 1; t > 0; t--) {
		path[i * T + t] = (unsigned char)st;
		st = (b[t * 256] >> (4 * st)) & 15u;
	}
	path[i * T] = (unsigned char)st;
}
