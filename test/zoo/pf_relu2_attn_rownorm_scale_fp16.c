/* pf_relu2_attn_rownorm_scale_fp16.c: ReLU^2 attention normalised by the row's sum of
 * weights, o_i = sum_j relu(s_ij * scale)^2 v_j / (eps + sum_j relu(s_ij * scale)^2), the
 * score scale passed in (a softmax replacement whose weights are not bounded: at scale 1
 * and inputs in [-8, 8] they pass fp16's 65504, and the output, a weighted mean of v,
 * stays in range).
 * Style: a researcher's reference for a softmax replacement: fp16 storage with (float)
 * casts, D from an enum, the weight, its sum and the P.V update in one loop over the keys,
 * the division at the end. */
#include <math.h>
enum { D = 128 };

void relu2_rownorm(int B, int H, int N, float scale, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		   const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(relu2_rownorm) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float acc[D];
				float den = 1e-6f;
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float r = fmaxf(s * scale, 0.0f);
					float w = r * r;
					den += w;
					for (int d = 0; d < D; d++)
						acc[d] += w * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / den);
			}
}
