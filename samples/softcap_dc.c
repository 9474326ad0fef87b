/* softcap_dc.c: SoftCap DC (Neptune set), decode, GQA 32 / 16 (HKV = 16, G = 2), scores
 * capped as 50 * tanh(s / 50), KV cache of length L.
 * Style: stored scores; P.V with j outside d into acc[D], normalised after.
 * fp16 storage, fp32 math, D = 128; B = 1 ... 32, L = 256 ... 32768. */
#include <math.h>

#define D 128

void softcap_dc(int B, int HKV, int G, int L, float scale,
		const _Float16 q[B][HKV][G][D], const _Float16 k[B][HKV][L][D],
		const _Float16 v[B][HKV][L][D], _Float16 o[B][HKV][G][D])
{
#pragma fuse kernel(softcap_dc) parallel(b, kh) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++) {
				float s[L];
				for (int j = 0; j < L; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][kh][g][d] * (float)k[b][kh][j][d];
					s[j] = 50.0f * tanhf(scale * dot / 50.0f);
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
						acc[d] += p * (float)v[b][kh][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][kh][g][d] = (_Float16)(acc[d] / l);
			}
}
