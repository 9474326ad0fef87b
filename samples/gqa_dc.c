/* gqa_dc.c: GQA DC (Neptune set), decode with grouped KV: 64 query heads share 8 KV
 * heads (HKV = 8, G = 8); each CTA takes one KV head and its G query rows, so K and V
 * are read once per group. Style: scores recomputed in each pass, P.V with j outside d
 * into acc[D], normalised after. fp16 storage, fp32 math, D = 128;
 * B = 1 ... 32, L = 256 ... 32768. */
#include <math.h>

#define D 128

void gqa_dc(int B, int HKV, int G, int L, float scale,
	    const _Float16 q[B][HKV][G][D], const _Float16 k[B][HKV][L][D],
	    const _Float16 v[B][HKV][L][D], _Float16 o[B][HKV][G][D])
{
#pragma fuse kernel(gqa_dc) parallel(b, kh) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++) {
				float m = -INFINITY;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][kh][g][d] * (float)k[b][kh][j][d];
					m = fmaxf(m, scale * s);
				}
				float l = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][kh][g][d] * (float)k[b][kh][j][d];
					l += expf(scale * s - m);
				}
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][kh][g][d] * (float)k[b][kh][j][d];
					float p = expf(scale * s - m);
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] + p * (float)v[b][kh][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][kh][g][d] = (_Float16)(acc[d] / l);
			}
}
