/* FlashAttention-2's forward with softmax_lse returned, ported from its C++/CUDA epilogue:
 * a row with no visible key gets lse = +INFINITY (so the backward's exp(s - lse) is 0) and
 * an output of zeros. Bottom-right causal (query i at key position i + Nk - Nq) with a left
 * window; Nq may exceed Nk. fp16 q/k/v/o, fp32 lse [B][H][Nq]. */
#include <math.h>

void fa2_fwd_lse(int B, int H, int Nq, int Nk, int window_left, float softmax_scale, const _Float16 q[B][H][Nq][128],
		 const _Float16 k[B][H][Nk][128], const _Float16 v[B][H][Nk][128], _Float16 o[B][H][Nq][128],
		 float softmax_lse[B][H][Nq])
{
#pragma fuse kernel(fa2_fwd_lse) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				const int pos = i + Nk - Nq;
				float row_max = -INFINITY, row_sum = 0.0f, acc_o[128] = {0};
				for (int j = 0; j < Nk; j++) {
					if (j > pos || j < pos - window_left)
						continue;
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= softmax_scale;
					const float new_max = fmaxf(row_max, s);
					const float r = expf(row_max - new_max);
					const float p = expf(s - new_max);
					row_sum = row_sum * r + p;
					for (int d = 0; d < 128; d++)
						acc_o[d] = acc_o[d] * r + p * (float)v[b][h][j][d];
					row_max = new_max;
				}
				const float inv_sum = (row_sum == 0.0f || row_sum != row_sum) ? 1.0f : 1.0f / row_sum;
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc_o[d] * inv_sum);
				softmax_lse[b][h][i] = (row_sum == 0.0f || row_sum != row_sum) ? INFINITY : row_max + logf(row_sum);
			}
}
