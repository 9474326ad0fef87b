/* Llama attention ported from HF's modeling_llama to C by someone writing the CPU reference of a
 * fused "RoPE + FlashAttention" kernel: rotate_half (NeoX half-split) applied to q and k inside the
 * score loop, cos/sin tables [N][D/2] precomputed by the caller (inv_freq = 10000^(-2p/D)), causal,
 * fp16 storage, fp32 math, D = 128, the softmax scale passed in. */
#include <math.h>

#define HD 128
#define HALF (HD / 2)

void llama_rope_attn(int B, int H, int N, float scale, const _Float16 q[B][H][N][HD], const _Float16 k[B][H][N][HD],
		     const _Float16 v[B][H][N][HD], const float cos_cached[N][HALF], const float sin_cached[N][HALF],
		     _Float16 out[B][H][N][HD])
{
#pragma fuse kernel(llama_rope_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[HD];
				for (int d = 0; d < HD; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float score = 0.0f;
					for (int d = 0; d < HALF; d++) {
						/* q_embed = q * cos + rotate_half(q) * sin, rotate_half(x) = [-x2, x1] */
						float q1 = (float)q[b][h][i][d], q2 = (float)q[b][h][i][d + HALF];
						float k1 = (float)k[b][h][j][d], k2 = (float)k[b][h][j][d + HALF];
						float qe1 = q1 * cos_cached[i][d] - q2 * sin_cached[i][d];
						float qe2 = q2 * cos_cached[i][d] + q1 * sin_cached[i][d];
						float ke1 = k1 * cos_cached[j][d] - k2 * sin_cached[j][d];
						float ke2 = k2 * cos_cached[j][d] + k1 * sin_cached[j][d];
						score += qe1 * ke1 + qe2 * ke2;
					}
					score *= scale;
					float m_new = fmaxf(m, score);
					float corr = expf(m - m_new), p = expf(score - m_new);
					l = l * corr + p;
					for (int d = 0; d < HD; d++)
						acc[d] = acc[d] * corr + p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < HD; d++)
					out[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
