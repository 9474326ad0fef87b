/* Grouped-query attention (prefill, non-causal), fp16, layout [B][N][H][D] (sequence-major,
 * as a transformer block produces it before the transpose). Style: KV head picked inline
 * with h / (H / KVH); run-time int D; scale computed before the loop; loops b, i, h;
 * scores in a local float s[N]; P.V with j outer into a VLA acc[D]. */
#include <math.h>

void gqa_bnhd(int B, int N, int H, int KVH, int D,
	      const _Float16 q[B][N][H][D], const _Float16 k[B][N][KVH][D],
	      const _Float16 v[B][N][KVH][D], _Float16 o[B][N][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(gqa_bnhd) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < D; d++)
						t += (float)q[b][i][h][d] * (float)k[b][j][h / (H / KVH)][d];
					s[j] = t * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][j][h / (H / KVH)][d];
				}
				for (int d = 0; d < D; d++)
					o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
