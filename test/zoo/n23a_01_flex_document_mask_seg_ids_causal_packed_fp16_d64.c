/* A PyTorch user porting FlexAttention's "document masking" example to C for a CPU
 * reference: several documents packed into one row of length N, doc_id[b][t] says which
 * document token t belongs to; a query sees keys of its own document at or before it.
 * mask_mod(b, h, q_idx, kv_idx) = causal & (document_id[q_idx] == document_id[kv_idx]). */
#include <math.h>
#include <stdint.h>

void doc_causal_attention(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
			  const _Float16 v[B][H][N][64], const int32_t doc_id[B][N], _Float16 out[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(doc_causal_attention) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f;
				float acc[64] = {0};
				for (int j = 0; j < N; j++) {
					if (j > i || doc_id[b][j] != doc_id[b][i])
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float m_new = fmaxf(m, s);
					float corr = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * corr + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * corr + p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < 64; d++)
					out[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
