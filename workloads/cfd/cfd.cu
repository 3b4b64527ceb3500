// SPDX-License-Identifier: MIT
// Unstructured-mesh flux (OWL Type-1, CFD-like): one thread per cell, 4 faces each with a
// neighbour offset (cells numbered so neighbours lie within +-span: inter-CTA locality) and a
// face weight; 5 conserved variables stored variable-major, so a neighbour costs 5 gathers. A
// neighbour outside the mesh is a wall: its face adds nothing.
#define CFD_NB 4
#define CFD_NVAR 5
extern "C" __global__ void cfd_flux(const int *vars, const int *nbr_off, const int *wgt, int *flux,
				    int n)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= n)
		return;
	int self[CFD_NVAR], acc[CFD_NVAR];
	for (int v = 0; v < CFD_NVAR; v++) {
		self[v] = vars[v * n + c];
		acc[v] = 0;
	}
	for (int k = 0; k < CFD_NB; k++) {
		int m = c + nbr_off[k * n + c];
		if (m < 0 || m >= n)
			continue;
		int wk = wgt[k * n + c];
		for (int v = 0; v < CFD_NVAR; v++)
			acc[v] += wk * (vars[v * n + m] - self[v]);
	}
	for (int v = 0; v < CFD_NVAR; v++)
		flux[v * n + c] = acc[v];
}
