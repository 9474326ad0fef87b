/* ar02_varlen_absrows_window_ternmax_i32_fp16.c: packed varlen prefill with a causal
 * sliding window of W keys (Mistral, Gemma's local layers), fp16, head dim 128.
 * Style: absolute token rows from int32 cu_seqlens; the window's first key written as one
 * ternary max against the sequence start, `const int lo = t - W + 1 > cu_seqlens[s] ?
 * t - W + 1 : cu_seqlens[s];`, keys `for (u = lo; u <= t; u++)`; the scale applied to q
 * once per dot product. */
#include <math.h>
#include <stdint.h>

void swa_varlen_fp16(int nseq, int ntok, int H, int W, float scale, const int32_t cu_seqlens[nseq + 1],
		     const _Float16 q[ntok][H][128], const _Float16 k[ntok][H][128],
		     const _Float16 v[ntok][H][128], _Float16 o[ntok][H][128])
{
#pragma fuse kernel(swa_varlen_fp16) parallel(s, h, t) rolling(u)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
				const int lo = t - W + 1 > cu_seqlens[s] ? t - W + 1 : cu_seqlens[s];
				float m = -INFINITY;
				for (int u = lo; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += (float)q[t][h][d] * (float)k[u][h][d];
					m = fmaxf(m, x * scale);
				}
				float den = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int u = lo; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += (float)q[t][h][d] * (float)k[u][h][d];
					float p = expf(x * scale - m);
					den += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (float)v[u][h][d];
				}
				for (int d = 0; d < 128; d++)
					o[t][h][d] = (_Float16)(acc[d] / den);
			}
}
