/* A decode kernel ported from a Triton flash-decoding kernel: one query per (batch, head),
 * the KV cache walked in blocks of BLOCK_N = 64 keys up to the sequence length, the last
 * block's tail masked with -inf, exp2 with log2(e) folded into the scale. */
#include <math.h>
#define BLOCK_N 64
void decode_attn(int B, int H, int L, int seq_len, float sm_scale, const _Float16 q[B][H][128], const _Float16 kc[B][H][L][128],
		 const _Float16 vc[B][H][L][128], _Float16 out[B][H][128])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(decode_attn) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m_i = -INFINITY, l_i = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int start_n = 0; start_n < seq_len; start_n += BLOCK_N) {
				float s[BLOCK_N];
				float bm = -INFINITY;
				for (int n = 0; n < BLOCK_N; n++) {
					float x = -INFINITY;
					if (start_n + n < seq_len) {
						x = 0.0f;
						for (int d = 0; d < 128; d++) x += (float)q[b][h][d] * (float)kc[b][h][start_n + n][d];
						x *= qk_scale;
					}
					s[n] = x;
					bm = fmaxf(bm, x);
				}
				const float m_new = fmaxf(m_i, bm);
				const float alpha = exp2f(m_i - m_new);
				float bsum = 0.0f;
				for (int n = 0; n < BLOCK_N; n++) {
					s[n] = exp2f(s[n] - m_new);
					bsum += s[n];
				}
				l_i = l_i * alpha + bsum;
				for (int d = 0; d < 128; d++) {
					float a = acc[d] * alpha;
					for (int n = 0; n < BLOCK_N; n++)
						if (start_n + n < seq_len) a += s[n] * (float)vc[b][h][start_n + n][d];
					acc[d] = a;
				}
				m_i = m_new;
			}
			for (int d = 0; d < 128; d++) out[b][h][d] = (_Float16)(acc[d] / l_i);
		}
}
