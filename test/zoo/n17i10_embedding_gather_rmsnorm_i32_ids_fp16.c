/* Embedding lookup fused with the first RMSNorm: x = wte[ids[t]], y = x * rsqrt(mean(x^2) + eps) * w.
 * int32 token ids, fp16 table, fp16 output. */
#include <math.h>
#include <stdint.h>

void embed_rmsnorm(int T, int V, int C, float eps, const int32_t ids[T], const _Float16 wte[V][C], const _Float16 w[C],
		   _Float16 y[T][C])
{
#pragma fuse kernel(embed_rmsnorm) parallel(t) rolling(c)
	for (int t = 0; t < T; t++) {
		const int id = ids[t];
		float ss = 0.0f;
		for (int c = 0; c < C; c++) ss += (float)wte[id][c] * (float)wte[id][c];
		const float r = 1.0f / sqrtf(ss / (float)C + eps);
		for (int c = 0; c < C; c++) y[t][c] = (_Float16)((float)wte[id][c] * r * (float)w[c]);
	}
}
