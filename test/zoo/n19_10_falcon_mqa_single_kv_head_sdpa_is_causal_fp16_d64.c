/* Falcon-7B multi_query: one K/V head shared by all query heads (k[B][N][64], no head index),
 * F.scaled_dot_product_attention(q, k, v, is_causal=True) math path ported, online softmax per row. */
#include <math.h>
void falcon_mqa(int batch, int num_heads, int q_len, const _Float16 *query, const _Float16 *key, const _Float16 *value, _Float16 *attn_output)
{
	const float inv_norm_factor = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(falcon_mqa) parallel(b, h, i) rolling(j)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < num_heads; h++)
			for (int i = 0; i < q_len; i++) {
				float m_i = -INFINITY, l_i = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++)
						qk += (float)query[(((long)b * num_heads + h) * q_len + i) * 64 + d] * (float)key[((long)b * q_len + j) * 64 + d];
					qk *= inv_norm_factor;
					float m_new = fmaxf(m_i, qk);
					float alpha = expf(m_i - m_new), p = expf(qk - m_new);
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * alpha + p * (float)value[((long)b * q_len + j) * 64 + d];
					l_i = l_i * alpha + p;
					m_i = m_new;
				}
				for (int d = 0; d < 64; d++) attn_output[((long)(b * q_len + i) * num_heads + h) * 64 + d] = (_Float16)(acc[d] / l_i);
			}
}
