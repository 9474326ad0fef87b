/* DeepSeek MLA decode with the weights absorbed (FlashMLA's reference): the query is a 512-wide
 * latent part and a 64-wide rope part; the cache stores kv_c (512) and k_pe (64) per token; the score
 * is q_nope . kv_c + q_pe . k_pe, and the value is the latent kv_c itself. */
#include <math.h>
#include <stdint.h>

void mla_decode(int B, int H, int T, float scale, const _Float16 q_nope[B][H][512], const _Float16 q_pe[B][H][64],
		const _Float16 kv_c[B][T][512], const _Float16 k_pe[B][T][64], const int32_t seq_lens[B],
		_Float16 out[B][H][512])
{
#pragma fuse kernel(mla_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[512];
			for (int c = 0; c < 512; c++) acc[c] = 0.0f;
			for (int t = 0; t < seq_lens[b]; t++) {
				float s_nope = 0.0f, s_pe = 0.0f;
				for (int c = 0; c < 512; c++) s_nope += (float)q_nope[b][h][c] * (float)kv_c[b][t][c];
				for (int r = 0; r < 64; r++) s_pe += (float)q_pe[b][h][r] * (float)k_pe[b][t][r];
				float s = (s_nope + s_pe) * scale;
				float mn = fmaxf(m, s), c0 = expf(m - mn), p = expf(s - mn);
				l = l * c0 + p;
				for (int c = 0; c < 512; c++) acc[c] = acc[c] * c0 + p * (float)kv_c[b][t][c];
				m = mn;
			}
			for (int c = 0; c < 512; c++) out[b][h][c] = (_Float16)(acc[c] / l);
		}
}
