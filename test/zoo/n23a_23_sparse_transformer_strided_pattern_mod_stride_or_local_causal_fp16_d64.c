/* Child et al. 2019 "Sparse Transformer" strided attention as a dense-mask reference
 * (the union of its two heads' patterns): query i sees key j <= i when j is within the
 * last `stride` positions or when (i - j) is a multiple of the stride. fp16, D = 64. */
#include <math.h>

void strided_sparse_attn(int B, int H, int N, int stride, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
			 const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(strided_sparse_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					if (!(i - j < stride || (i - j) % stride == 0))
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
