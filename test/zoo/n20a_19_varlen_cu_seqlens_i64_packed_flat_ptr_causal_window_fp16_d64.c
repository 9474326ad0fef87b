/* flash_attn_varlen_func reference on packed tokens: q/k/v [total][H][64] flat arrays, cu_seqlens int64
 * [nseq + 1], causal with a left window (window_size_left = W; W < 0 means none). */
#include <math.h>
#include <stdint.h>
void varlen_attn(int nseq, int total, int H, int W, const int64_t cu_seqlens[nseq + 1], const _Float16 q[total * H * 64],
		 const _Float16 k[total * H * 64], const _Float16 v[total * H * 64], _Float16 o[total * H * 64])
{
#pragma fuse kernel(varlen_attn) parallel(s, h, t) rolling(u)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int64_t t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				float sc[total];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int64_t u = cu_seqlens[s]; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[(t * H + h) * 64 + d] * (float)k[(u * H + h) * 64 + d];
					sc[u] = (W >= 0 && u < t - W) ? -INFINITY : x * 0.125f;
					m = fmaxf(m, sc[u]);
				}
				for (int64_t u = cu_seqlens[s]; u <= t; u++) l += expf(sc[u] - m);
				for (int d = 0; d < 64; d++) {
					for (int64_t u = cu_seqlens[s]; u <= t; u++) acc[d] += expf(sc[u] - m) * (float)v[(u * H + h) * 64 + d];
					o[(t * H + h) * 64 + d] = (_Float16)(acc[d] / l);
				}
			}
}
