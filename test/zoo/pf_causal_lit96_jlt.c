/* pf_causal_lit96_jlt.c: causal prefill with head dim 96 as a literal, fp16.
 * Style: causal bound written j < i + 1, helper local qk, max written m = m < x ? x : m
 * from -FLT_MAX, stored scores, sum l += e, d-outer P.V with a per-d scalar, normalised
 * after; the scale 1/sqrt(96) written as a literal constant in the score.
 * rolling(j) and tile(i:128, j:64) on separate pragma lines after kernel. */
#include <float.h>
#include <math.h>

void causal_d96(int B, int H, int N,
		const _Float16 q[B][H][N][96], const _Float16 k[B][H][N][96],
		const _Float16 v[B][H][N][96], _Float16 o[B][H][N][96])
{
#pragma fuse kernel(causal_d96)
#pragma fuse parallel(b, h, i)
#pragma fuse tile(i:128, j:64)
#pragma fuse rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -FLT_MAX;
				for (int j = 0; j < i + 1; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 96; d++)
						qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float x = qk * 0.10206207261596575f;
					s[j] = x;
					m = m < x ? x : m;
				}
				float l = 0.0f;
				for (int j = 0; j < i + 1; j++) {
					float e = expf(s[j] - m);
					l += e;
				}
				for (int d = 0; d < 96; d++) {
					float acc = 0.0f;
					for (int j = 0; j < i + 1; j++)
						acc += expf(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
