/* Tensors kept as [B*H][N*64] matrices (a .view(B*H, -1) port), the inner index written by hand:
 * K[bh][j * 64 + d]; bidirectional, fp32. */
#include <math.h>

void attn_bh2d(int BH, int N, const float Q[BH][N * 64], const float K[BH][N * 64], const float V[BH][N * 64], float O[BH][N * 64])
{
#pragma fuse kernel(attn_bh2d) parallel(bh, i)
	for (int bh = 0; bh < BH; bh++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j < N; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += Q[bh][i * 64 + d] * K[bh][j * 64 + d];
				m = fmaxf(m, s * 0.125f);
			}
			float l = 0.0f, acc[64] = {0};
			for (int j = 0; j < N; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += Q[bh][i * 64 + d] * K[bh][j * 64 + d];
				const float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * V[bh][j * 64 + d];
			}
			for (int d = 0; d < 64; d++) O[bh][i * 64 + d] = acc[d] / l;
		}
}
