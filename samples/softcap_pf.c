/* softcap_pf.c: SoftCap PF (Neptune set), causal prefill, GQA 32 / 16 (HKV = 16, G = 2),
 * scores capped as 50 * tanh(s / 50).
 * Style: full j range with the causal mask as an if; no score buffer, the capped score
 * is recomputed in each pass; P normalised before P.V, j outside d into acc[D].
 * fp16 storage, fp32 math, D = 128; B = 1, N = 256 ... 32768. */
#include <math.h>

#define D 128

void softcap_pf(int B, int HKV, int G, int N, float scale,
		const _Float16 q[B][HKV][G][N][D], const _Float16 k[B][HKV][N][D],
		const _Float16 v[B][HKV][N][D], _Float16 o[B][HKV][G][N][D])
{
#pragma fuse kernel(softcap_pf)
#pragma fuse parallel(b, kh, g, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					float m = -INFINITY;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int d = 0; d < D; d++)
							s += (float)q[b][kh][g][i][d] * (float)k[b][kh][j][d];
						s = 50.0f * tanhf(s * scale / 50.0f);
						if (j > i)
							s = -INFINITY;
						m = fmaxf(m, s);
					}
					float l = 0.0f;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int d = 0; d < D; d++)
							s += (float)q[b][kh][g][i][d] * (float)k[b][kh][j][d];
						s = 50.0f * tanhf(s * scale / 50.0f);
						if (j > i)
							s = -INFINITY;
						l += expf(s - m);
					}
					float acc[D];
					for (int d = 0; d < D; d++)
						acc[d] = 0.0f;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int d = 0; d < D; d++)
							s += (float)q[b][kh][g][i][d] * (float)k[b][kh][j][d];
						s = 50.0f * tanhf(s * scale / 50.0f);
						if (j > i)
							s = -INFINITY;
						float p = expf(s - m) / l;
						for (int d = 0; d < D; d++)
							acc[d] += p * (float)v[b][kh][j][d];
					}
					for (int d = 0; d < D; d++)
						o[b][kh][g][i][d] = (_Float16)acc[d];
				}
}
