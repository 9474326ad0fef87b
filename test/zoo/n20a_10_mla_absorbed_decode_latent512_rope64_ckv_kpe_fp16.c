/* DeepSeek-V2 MLA decode with weights absorbed (FlashMLA's reference): q_nope in the latent space (512) and
 * q_pe (64) per head; one latent cache c_kv[B][T][512] and k_pe[B][T][64] shared by all heads; the output
 * is in the latent space (V = c_kv). Score = (q_nope.c_kv + q_pe.k_pe) * scale. */
#include <math.h>
#define KV_LORA 512
#define ROPE 64
void mla_decode(int B, int H, int T, float scale, const _Float16 q_nope[B][H][KV_LORA], const _Float16 q_pe[B][H][ROPE],
		const _Float16 c_kv[B][T][KV_LORA], const _Float16 k_pe[B][T][ROPE], const int cache_len[B],
		_Float16 out_latent[B][H][KV_LORA])
{
#pragma fuse kernel(mla_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[T];
			float mx = -INFINITY;
			for (int t = 0; t < cache_len[b]; t++) {
				float a = 0.f, r = 0.f;
				for (int c = 0; c < KV_LORA; c++) a += (float)q_nope[b][h][c] * (float)c_kv[b][t][c];
				for (int c = 0; c < ROPE; c++) r += (float)q_pe[b][h][c] * (float)k_pe[b][t][c];
				sc[t] = (a + r) * scale;
				mx = fmaxf(mx, sc[t]);
			}
			float l = 0.f;
			for (int t = 0; t < cache_len[b]; t++) { sc[t] = expf(sc[t] - mx); l += sc[t]; }
			for (int c = 0; c < KV_LORA; c++) {
				float acc = 0.f;
				for (int t = 0; t < cache_len[b]; t++) acc += sc[t] * (float)c_kv[b][t][c];
				out_latent[b][h][c] = (_Float16)(acc / l);
			}
		}
}
