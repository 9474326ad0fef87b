/* pf_sigmoid_attn_rtD_fp16.c: sigmoid attention (Ramapuram et al., 2024: "Theory, Analysis,
 * and Best Practices for Sigmoid Self-Attention"): no softmax, each score through a
 * sigmoid with a bias b = -log(N) passed in, the weights not normalised.
 * Style: a researcher's reference: fp16 storage with (float) casts, run-time `int D`, the
 * score, its weight and the P.V update in one loop over the keys, no clause. */
#include <math.h>

void sigmoid_attn(int B, int H, int N, int D, float scale, float bias,
		  const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		  const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(sigmoid_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = 1.0f / (1.0f + expf(-(s * scale + bias)));
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)acc[d];
			}
}
