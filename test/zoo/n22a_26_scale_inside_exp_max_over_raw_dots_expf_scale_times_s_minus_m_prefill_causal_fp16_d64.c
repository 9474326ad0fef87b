/* The scale applied inside the exponential, as Triton's tutorial and some CUDA kernels do:
 * the max is over the raw dots, p = exp(scale * (s - m)). Causal prefill, fp16. */
#include <math.h>

void attn_scale_in_exp(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		       const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
	const float sm_scale = 0.125f;
#pragma fuse kernel(attn_scale_in_exp) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++) qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, qk);
				}
				float l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++) qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(sm_scale * (qk - m));
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
