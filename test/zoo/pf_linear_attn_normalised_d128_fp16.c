/* pf_linear_attn_normalised_d128_fp16.c: linear attention without a feature map, written
 * quadratically (the reference a kernel author checks a chunked linear-attention kernel
 * against): o_i = sum_j (q_i.k_j) v_j / sum_j (q_i.k_j), causal, with eps in the
 * denominator.
 * Style: C programmer: flat loops, `const int D = 128` in the file, a running denominator
 * beside the accumulator, fp16 storage. */
#include <math.h>
enum { D = 128 };

void linear_attn(int B, int H, int N, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(linear_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float num[D];
				float den = 1e-6f;
				for (int d = 0; d < D; d++)
					num[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float a = 0.0f;
					for (int d = 0; d < D; d++)
						a += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					den += a;
					for (int d = 0; d < D; d++)
						num[d] += a * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(num[d] / den);
			}
}
