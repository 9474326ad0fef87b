/* A CUDA programmer's CPU emulation of their block-per-row softmax kernel: 256 "threads" each
 * striding the row by blockDim, partial maxima and sums in a shared-memory-like array, then the
 * block reduction, then the strided stores. */
#include <math.h>

#define NT 256

void softmax_block_emu(int R, int V, const float *x, float *y)
{
#pragma fuse kernel(softmax_block_emu) parallel(r)
	for (int r = 0; r < R; r++) {
		float smax[NT], ssum[NT];
		for (int tid = 0; tid < NT; tid++) {
			float m = -INFINITY;
			for (int c = tid; c < V; c += NT)
				m = fmaxf(m, x[r * V + c]);
			smax[tid] = m;
		}
		float m = -INFINITY;
		for (int tid = 0; tid < NT; tid++)
			m = fmaxf(m, smax[tid]);
		for (int tid = 0; tid < NT; tid++) {
			float s = 0.0f;
			for (int c = tid; c < V; c += NT)
				s += expf(x[r * V + c] - m);
			ssum[tid] = s;
		}
		float s = 0.0f;
		for (int tid = 0; tid < NT; tid++)
			s += ssum[tid];
		for (int tid = 0; tid < NT; tid++)
			for (int c = tid; c < V; c += NT)
				y[r * V + c] = expf(x[r * V + c] - m) / s;
	}
}
