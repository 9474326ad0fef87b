/* DeBERTa DisentangledSelfAttention ported: score = q.k + q.pos_key[c2p] + k.pos_query[p2c], relative index
 * r = clamp(i - j + att_span, 0, 2 * att_span - 1) (c2p) and clamp(j - i + att_span, ...) (p2c),
 * scale = 1/sqrt(D * scale_factor) with scale_factor 3, key padding additive mask, softmax, @ v. */
#include <math.h>
void deberta_attn(int B, int H, int N, int att_span, const float q[B][H][N][64], const float k[B][H][N][64],
		  const float v[B][H][N][64], const float pos_key[H][2 * att_span][64], const float pos_query[H][2 * att_span][64],
		  const float attn_mask_add[B][N], float context[B][N][H][64])
{
	const float scale = 1.0f / sqrtf(64.0f * 3.0f);
#pragma fuse kernel(deberta_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j < N; j++) {
					int c2p = i - j + att_span;
					c2p = c2p < 0 ? 0 : (c2p > 2 * att_span - 1 ? 2 * att_span - 1 : c2p);
					int p2c = j - i + att_span;
					p2c = p2c < 0 ? 0 : (p2c > 2 * att_span - 1 ? 2 * att_span - 1 : p2c);
					float a = 0.0f, bq = 0.0f, bk = 0.0f;
					for (int d = 0; d < 64; d++) {
						a += q[b][h][i][d] * k[b][h][j][d];
						bq += q[b][h][i][d] * pos_key[h][c2p][d];
						bk += k[b][h][j][d] * pos_query[h][p2c][d];
					}
					s[j] = (a + bq + bk) * scale + attn_mask_add[b][j];
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, s[j]);
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - mx); sum += s[j]; }
				for (int d = 0; d < 64; d++) {
					float c = 0.0f;
					for (int j = 0; j < N; j++) c += s[j] * v[b][h][j][d];
					context[b][i][h][d] = c / sum;
				}
			}
}
