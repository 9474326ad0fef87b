/* flash_attn_varlen_func reference: packed q/k/v [total][H][128], cu_seqlens int32 [NS+1],
 * relative rows i < cu[s+1] - cu[s], causal, fp16. */
#include <math.h>
#include <stdint.h>

void varlen_causal(int NS, int TOTAL, int H, const int32_t cu_seqlens[NS + 1],
		   const _Float16 q[TOTAL][H][128], const _Float16 k[TOTAL][H][128],
		   const _Float16 v[TOTAL][H][128], _Float16 o[TOTAL][H][128])
{
#pragma fuse kernel(varlen_causal) parallel(s, h, i) rolling(j)
	for (int s = 0; s < NS; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens[s + 1] - cu_seqlens[s]; i++) {
				const int start = cu_seqlens[s];
				float m = -INFINITY, l = 0.0f;
				float acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += (float)q[start + i][h][d] * (float)k[start + j][h][d];
					x *= 0.08838834764831845f;
					float mn = fmaxf(m, x);
					float a = expf(m - mn);
					float p = expf(x - mn);
					l = l * a + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * a + p * (float)v[start + j][h][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[start + i][h][d] = (_Float16)(acc[d] / l);
			}
}
