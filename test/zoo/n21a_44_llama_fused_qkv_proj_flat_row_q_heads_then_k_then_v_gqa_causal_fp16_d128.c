/* Reading straight from a fused qkv_proj output (vLLM's QKVParallelLinear): each token's row holds
 * H query heads, then KVH key heads, then KVH value heads, of 128 each: qkv[T][(H + 2 * KVH) * 128];
 * one sequence, causal, GQA h / (H / KVH). */
#include <math.h>

void qkv_row_attn(int T, int H, int KVH, const _Float16 qkv[T][(H + 2 * KVH) * 128], _Float16 out[T][H * 128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(qkv_row_attn) parallel(t, h)
	for (int t = 0; t < T; t++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			float sc[T], mx = -INFINITY;
			for (int u = 0; u <= t; u++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)qkv[t][h * 128 + d] * (float)qkv[u][(H + kvh) * 128 + d];
				sc[u] = s * scale;
				mx = fmaxf(mx, sc[u]);
			}
			float l = 0.0f;
			for (int u = 0; u <= t; u++) l += expf(sc[u] - mx);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int u = 0; u <= t; u++) acc += expf(sc[u] - mx) * (float)qkv[u][(H + KVH + kvh) * 128 + d];
				out[t][h * 128 + d] = (_Float16)(acc / l);
			}
		}
}
