/* flash_attn_varlen with separate cu_seqlens_q / cu_seqlens_k (chunked prefill: queries are the
 * last len_q of len_k tokens), causal aligned bottom-right: key j visible when j <= i + len_k - len_q. */
#include <math.h>
#include <stdint.h>

void varlen_qk(int NS, int TQ, int TK, int H, const int32_t cu_q[NS + 1], const int32_t cu_k[NS + 1],
	       const _Float16 q[TQ][H][128], const _Float16 k[TK][H][128], const _Float16 v[TK][H][128],
	       _Float16 o[TQ][H][128])
{
#pragma fuse kernel(varlen_qk) parallel(s, h, i) rolling(j)
	for (int s = 0; s < NS; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_q[s + 1] - cu_q[s]; i++) {
				const int len_q = cu_q[s + 1] - cu_q[s];
				const int len_k = cu_k[s + 1] - cu_k[s];
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < len_k; j++) {
					if (j > i + len_k - len_q) continue;
					float x = 0.0f;
					for (int d = 0; d < 128; d++) x += (float)q[cu_q[s] + i][h][d] * (float)k[cu_k[s] + j][h][d];
					x *= 0.08838834764831845f;
					const float mn = fmaxf(m, x), c = expf(m - mn), p = expf(x - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[cu_k[s] + j][h][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[cu_q[s] + i][h][d] = (_Float16)(acc[d] / l);
			}
}
