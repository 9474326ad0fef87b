/* Varlen prefill written with `continue` rather than `break`: the batch is padded to
 * max_len rows per sequence in the loop, and a row past the sequence's length (computed
 * in the row's body from the offsets) is skipped. Causal in each sequence; fp16, d = 64. */
#include <math.h>
#include <stdint.h>

void varlen_continue(int nseq, int total, int H, int max_len, float scale, const int32_t cu[nseq + 1],
		     const _Float16 q[total][H][64], const _Float16 k[total][H][64], const _Float16 v[total][H][64],
		     _Float16 o[total][H][64])
{
#pragma fuse kernel(varlen_continue) parallel(s, h, i) rolling(j)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < max_len; i++) {
				const int base = cu[s];
				const int len = cu[s + 1] - base;
				if (i >= len)
					continue;
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++)
						x += (float)q[base + i][h][d] * (float)k[base + j][h][d];
					x *= scale;
					float mn = fmaxf(m, x);
					float a = expf(m - mn), p = expf(x - mn);
					l = l * a + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * a + p * (float)v[base + j][h][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[base + i][h][d] = (_Float16)(acc[d] / l);
			}
}
