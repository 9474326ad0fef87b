/* pf_window_clamp_rtD.c: sliding-window causal prefill (Mistral-style, row i sees keys
 * i - W < j <= i).
 * Style: fp16 storage, run-time `int D`, the window's lower edge as a clamped local
 * (int lo = i - W + 1; if (lo < 0) lo = 0;) used as the loop's start, stored scores in
 * s[N] indexed by absolute key position, max / sum / P.V d-outer with the division
 * folded into the probability (normalise before). rolling(j), tile(i:128, j:64). */
#include <math.h>

void swa_prefill(int B, int H, int N, int D, int W, float scale,
		 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(swa_prefill) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				int lo = i - W + 1;
				if (lo < 0)
					lo = 0;
				float s[N];
				for (int j = lo; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = scale * dot;
				}
				float m = -INFINITY;
				for (int j = lo; j <= i; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = lo; j <= i; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = lo; j <= i; j++)
						acc += expf(s[j] - m) / l * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
