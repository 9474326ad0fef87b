/* Mistral-style sliding window, fp32 reference: causal as the loop bound, the window as a
 * `continue` on the distance, head dim 96 as a literal, probabilities normalised in the key loop. */
#include <math.h>

void swa_fp32(int B, int H, int N, int W, const float q[B][H][N][96], const float k[B][H][N][96],
	      const float v[B][H][N][96], float o[B][H][N][96])
{
	const float scale = 1.0f / sqrtf(96.0f);
#pragma fuse kernel(swa_fp32) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					if (i - j >= W) continue;
					float s = 0.0f;
					for (int d = 0; d < 96; d++) s += q[b][h][i][d] * k[b][h][j][d];
					m = fmaxf(m, s * scale);
				}
				float den = 0.0f;
				for (int j = 0; j <= i; j++) {
					if (i - j >= W) continue;
					float s = 0.0f;
					for (int d = 0; d < 96; d++) s += q[b][h][i][d] * k[b][h][j][d];
					den += expf(s * scale - m);
				}
				float acc[96];
				for (int d = 0; d < 96; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					if (i - j >= W) continue;
					float s = 0.0f;
					for (int d = 0; d < 96; d++) s += q[b][h][i][d] * k[b][h][j][d];
					const float p = expf(s * scale - m) / den;
					for (int d = 0; d < 96; d++) acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 96; d++) o[b][h][i][d] = acc[d];
			}
}
