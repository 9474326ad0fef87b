/* Mistral 7B v0.1 decode with its rolling buffer cache (mistral-src one_file_ref.py): the cache has
 * W slots, token t lives in slot t % W; the query at position pos[b] attends to the last
 * min(pos+1, W) tokens. Cache [B][W][KVH][D] fp16, GQA by h / (H / KVH). */
#include <math.h>
#include <stdint.h>

void mistral_decode(int B, int H, int KVH, int W, const int32_t pos[B], const _Float16 q[B][H][128],
		    const _Float16 cache_k[B][W][KVH][128], const _Float16 cache_v[B][W][KVH][128],
		    _Float16 out[B][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(mistral_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			const int p = pos[b];
			const int first = p - W + 1 > 0 ? p - W + 1 : 0;
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int t = first; t <= p; t++) {
				const int slot = t % W;
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)cache_k[b][slot][kvh][d];
				s *= scale;
				float mn = fmaxf(m, s);
				float corr = expf(m - mn), e = expf(s - mn);
				l = l * corr + e;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * corr + e * (float)cache_v[b][slot][kvh][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
