/* pf_causal_nostrategy_rtD.c: causal prefill with only a parallel clause: no rolling,
 * no tile, fusecc picks. Loop variables named like a PyTorch porter might
 * (bi, hi, qi, kj, c).
 * Style: fp16, run-time `int D`, triangular kj <= qi, recomputed q.k in each of three
 * passes, max via fmaxf, j-outer P.V with the probability normalised before (e / l),
 * into acc[D]. */
#include <math.h>

void causal_auto(int B, int H, int N, int D, float scale,
		 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(causal_auto) parallel(bi, hi, qi)
	for (int bi = 0; bi < B; bi++)
		for (int hi = 0; hi < H; hi++)
			for (int qi = 0; qi < N; qi++) {
				float m = -INFINITY;
				for (int kj = 0; kj <= qi; kj++) {
					float s = 0.0f;
					for (int c = 0; c < D; c++)
						s += (float)q[bi][hi][qi][c] * (float)k[bi][hi][kj][c];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				for (int kj = 0; kj <= qi; kj++) {
					float s = 0.0f;
					for (int c = 0; c < D; c++)
						s += (float)q[bi][hi][qi][c] * (float)k[bi][hi][kj][c];
					l += expf(s * scale - m);
				}
				float acc[D];
				for (int c = 0; c < D; c++)
					acc[c] = 0.0f;
				for (int kj = 0; kj <= qi; kj++) {
					float s = 0.0f;
					for (int c = 0; c < D; c++)
						s += (float)q[bi][hi][qi][c] * (float)k[bi][hi][kj][c];
					float p = expf(s * scale - m) / l;
					for (int c = 0; c < D; c++)
						acc[c] += p * (float)v[bi][hi][kj][c];
				}
				for (int c = 0; c < D; c++)
					o[bi][hi][qi][c] = (_Float16)acc[c];
			}
}
