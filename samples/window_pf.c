/* window_pf.c: Window PF (Neptune set), sliding-window causal prefill: row i sees keys
 * i - W < j <= i (W = 4096), GQA 32 / 8 (HKV = 8, G = 4), softcap 50.
 * Style: triangular domain (j <= i) plus the window's lower edge as a ternary mask;
 * stored scores; P normalised before P.V (d outside j).
 * fp16 storage, fp32 math, D = 128; B = 1, N = 256 ... 32768, W = 4096. */
#include <math.h>

#define D 128

void window_pf(int B, int HKV, int G, int N, int W, float scale,
	       const _Float16 q[B][HKV][G][N][D], const _Float16 k[B][HKV][N][D],
	       const _Float16 v[B][HKV][N][D], _Float16 o[B][HKV][G][N][D])
{
#pragma fuse kernel(window_pf) parallel(b, kh, g, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					float s[N];
					for (int j = 0; j <= i; j++) {
						float dot = 0.0f;
						for (int d = 0; d < D; d++)
							dot += (float)q[b][kh][g][i][d] * (float)k[b][kh][j][d];
						float c = 50.0f * tanhf(scale * dot / 50.0f);
						s[j] = (j > i - W) ? c : -INFINITY;
					}
					float m = -INFINITY;
					for (int j = 0; j <= i; j++)
						m = fmaxf(m, s[j]);
					float l = 0.0f;
					for (int j = 0; j <= i; j++)
						l = l + expf(s[j] - m);
					for (int d = 0; d < D; d++) {
						float acc = 0.0f;
						for (int j = 0; j <= i; j++)
							acc = acc + expf(s[j] - m) / l * (float)v[b][kh][j][d];
						o[b][kh][g][i][d] = (_Float16)acc;
					}
				}
}
