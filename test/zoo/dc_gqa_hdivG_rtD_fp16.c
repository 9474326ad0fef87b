/* dc_gqa_hdivG_rtD_fp16.c: GQA decode, query head h reads KV head h / G.
 * Style: fp16, run-time `int D`, KV cache [B][HKV][L][D], GQA by index k[b][h / G][j][d],
 * one CTA per (b, h) as the user wrote it, stored scores, max / sum, j-outer P.V into
 * acc[D], normalised after. parallel(b, h) splitk(j) tile(j:64). */
#include <math.h>

void gqa_decode_idx(int B, int H, int HKV, int G, int L, int D, float scale,
		    const _Float16 q[B][H][D], const _Float16 k[B][HKV][L][D],
		    const _Float16 v[B][HKV][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(gqa_decode_idx) parallel(b, h) tile(j:64) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][h / G][j][d];
				s[j] = scale * dot;
			}
			float m = -INFINITY;
			for (int j = 0; j < L; j++)
				m = fmaxf(m, s[j]);
			float l = 0.0f;
			for (int j = 0; j < L; j++)
				l += expf(s[j] - m);
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float p = expf(s[j] - m);
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[b][h / G][j][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
