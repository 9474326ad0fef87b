/* Prefill with no schedule clause at all (the user trusts the tool): BSHD, GQA h / (H / KVH),
 * run-time D, causal, online softmax; fp16. */
#include <math.h>

void prefill_auto(int B, int N, int H, int KVH, int D, const _Float16 q[B][N][H][D],
		  const _Float16 k[B][N][KVH][D], const _Float16 v[B][N][KVH][D], _Float16 o[B][N][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(prefill_auto)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				const int kh = h / (H / KVH);
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][i][h][d] * (float)k[b][j][kh][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn);
					float p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * (float)v[b][j][kh][d];
					m = mn;
				}
				for (int d = 0; d < D; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
