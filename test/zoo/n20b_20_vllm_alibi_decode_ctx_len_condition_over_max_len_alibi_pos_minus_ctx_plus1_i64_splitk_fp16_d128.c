/* vLLM paged-attention's ALiBi as the kernel adds it, qk += alibi_slope * (token_idx - seq_len + 1),
 * on a padded (non-paged) cache [B][H][max_len][128]: the key loop runs to max_len and skips
 * keys past the sequence with a condition on context_lens (int64), as a port of the padded
 * reference does; split-k over the keys. */
#include <math.h>
#include <stdint.h>

void alibi_decode(int B, int H, int max_len, float scale, const _Float16 q[B][H][128],
		const _Float16 k[B][H][max_len][128], const _Float16 v[B][H][max_len][128],
		const float alibi_slopes[H], const int64_t context_lens[B], _Float16 out[B][H][128])
{
#pragma fuse kernel(alibi_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < max_len; j++) {
				if (j >= context_lens[b]) continue;
				float qk = 0.0f;
				for (int d = 0; d < 128; d++) qk += (float)q[b][h][d] * (float)k[b][h][j][d];
				qk = qk * scale + alibi_slopes[h] * (float)(j - context_lens[b] + 1);
				const float mn = fmaxf(m, qk), c = expf(m - mn), p = expf(qk - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
