/* pf_global_tf32_optin_rtD.c: unmasked prefill attention in fp32 by someone who runs
 * PyTorch with torch.backends.cuda.matmul.allow_tf32 = True and asks for the same here:
 * precision(tf32), one tf32 product per fp32 product instead of three.
 * Style: fp32 storage, run-time `int D`, the scale computed before the region from D,
 * online softmax written by hand (m, l, acc[D] rescaled as keys arrive), j-outer P.V. */
#include <math.h>

void attn_tf32(int B, int H, int N, int D, const float q[B][H][N][D],
	       const float k[B][H][N][D], const float v[B][H][N][D], float o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_tf32) parallel(b, h, i) rolling(j)
#pragma fuse precision(tf32)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = acc[d] / l;
			}
}
