/* Unmasked prefill attention with head dimension 256. For CUDA the tiles need 192 KB of
 * shared memory (q.k on wgmma with K = 256, P.V over 256 columns on mma.sync); for HIP
 * they would need 128 KB of the 64 KB of LDS a CTA may have, so the region falls back to
 * one thread per row and the kernel's comment says why. */
#include <math.h>

#define D 256

void d256_prefill(int B, int H, int N, float scale, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		  const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(d256_prefill) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, scale * s);
				}
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(scale * s - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
