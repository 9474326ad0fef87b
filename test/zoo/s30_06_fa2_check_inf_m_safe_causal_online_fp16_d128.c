/* FlashAttention-2's forward written out by someone reading the CUDA kernel: the online
 * softmax subtracts a "safe" max, zero while every key so far is masked (the kernel's
 * Check_inf), so a fully masked prefix gives exp(-inf) = 0 rather than NaN. Causal, fp16,
 * d = 128, scale a parameter; rows with no key output zeros. */
#include <math.h>

void fa2_forward(int B, int H, int N, float softmax_scale, const _Float16 q[B][H][N][128],
		 const _Float16 k[B][H][N][128], const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(fa2_forward) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float row_max = -INFINITY, row_sum = 0.0f, acc_o[128];
				for (int d = 0; d < 128; d++)
					acc_o[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = -INFINITY;
					if (j <= i) {
						s = 0.0f;
						for (int d = 0; d < 128; d++)
							s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
						s *= softmax_scale;
					}
					float max_new = fmaxf(row_max, s);
					float max_scaled = max_new == -INFINITY ? 0.0f : max_new;
					float scores_scale = expf(row_max - max_scaled);
					float p = expf(s - max_scaled);
					row_sum = row_sum * scores_scale + p;
					for (int d = 0; d < 128; d++)
						acc_o[d] = acc_o[d] * scores_scale + p * (float)v[b][h][j][d];
					row_max = max_new;
				}
				float inv_sum = row_sum == 0.0f ? 0.0f : 1.0f / row_sum;
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc_o[d] * inv_sum);
			}
}
