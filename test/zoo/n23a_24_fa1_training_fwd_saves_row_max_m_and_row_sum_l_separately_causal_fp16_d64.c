/* FlashAttention v1's forward saves the softmax statistics as two tensors, the row max m
 * and the row sum l (v2 merged them into one LSE); a training-framework author's CPU
 * reference returns O, m and l for the backward. Two passes over the keys: max, then sum
 * and P.V. Causal, fp16 storage, fp32 statistics. */
#include <math.h>

void fa1_fwd(int B, int H, int N, float softmax_scale, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
	     const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64], float m_out[B][H][N], float l_out[B][H][N])
{
#pragma fuse kernel(fa1_fwd) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mi = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					mi = fmaxf(mi, s * softmax_scale);
				}
				float li = 0.0f;
				float acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * softmax_scale - mi);
					li += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / li);
				m_out[b][h][i] = mi;
				l_out[b][h][i] = li;
			}
}
