/* ar01_varlen_absrows_gqa_causal_i32_fp16.c: varlen causal prefill with grouped-query
 * attention over a packed batch (sequence s owns token rows cu_seqlens[s] ..
 * cu_seqlens[s+1]-1), fp16, head dim 128, G query heads per KV head.
 * Style: a reference loop next to flash_attn_varlen_func, written over absolute token
 * rows as the packed tensors are indexed: `for (t = cu_seqlens[s]; t < cu_seqlens[s + 1];
 * t++)`, causal keys `for (u = cu_seqlens[s]; u <= t; u++)`, the KV head `h / G` kept in a
 * local; int32 offsets; a max pass, then exp-sum and P.V in one pass. */
#include <math.h>
#include <stdint.h>

#define HD 128

void varlen_gqa(int nseq, int ntok, int H, int G, float scale, const int32_t cu_seqlens[nseq + 1],
		const _Float16 q[ntok][H][HD], const _Float16 k[ntok][H / G][HD],
		const _Float16 v[ntok][H / G][HD], _Float16 o[ntok][H][HD])
{
#pragma fuse kernel(varlen_gqa) parallel(s, h, t) rolling(u)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
				const int kh = h / G;
				float mx = -INFINITY;
				for (int u = cu_seqlens[s]; u <= t; u++) {
					float a = 0.0f;
					for (int d = 0; d < HD; d++)
						a += (float)q[t][h][d] * (float)k[u][kh][d];
					mx = fmaxf(mx, a * scale);
				}
				float l = 0.0f, acc[HD];
				for (int d = 0; d < HD; d++)
					acc[d] = 0.0f;
				for (int u = cu_seqlens[s]; u <= t; u++) {
					float a = 0.0f;
					for (int d = 0; d < HD; d++)
						a += (float)q[t][h][d] * (float)k[u][kh][d];
					float p = expf(a * scale - mx);
					l += p;
					for (int d = 0; d < HD; d++)
						acc[d] += p * (float)v[u][kh][d];
				}
				for (int d = 0; d < HD; d++)
					o[t][h][d] = (_Float16)(acc[d] / l);
			}
}
