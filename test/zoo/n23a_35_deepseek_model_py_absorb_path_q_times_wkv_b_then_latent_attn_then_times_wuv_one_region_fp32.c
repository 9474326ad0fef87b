/* DeepSeek-V3 inference/model.py, attn_impl == "absorb", for one decode step, in C:
 *   q_nope = einsum("shd,hdc->shc", q_nope, wkv_b[:, :qk_nope_head_dim])      (128 -> 512)
 *   scores = einsum("shc,btc->sht", q_nope, kv_cache) + einsum("shr,btr->sht", q_pe, pe_cache)
 *   scores = softmax(scores * softmax_scale)
 *   x      = einsum("sht,btc->shc", scores, kv_cache)
 *   x      = einsum("shc,hdc->shd", x, wkv_b[:, -v_head_dim:])                 (512 -> 128)
 * all inside one (b, h) row. Small dims (kv_lora_rank 512, rope 64, nope 128, v 128), fp32. */
#include <math.h>

void mla_absorb_decode(int B, int H, int T, float softmax_scale, const float q_nope[B][H][128], const float q_pe[B][H][64],
		       const float w_uk[H][128][512], const float w_uv[H][128][512], const float kv_cache[B][T][512],
		       const float pe_cache[B][T][64], float out[B][H][128])
{
#pragma fuse kernel(mla_absorb_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float qc[512];
			for (int c = 0; c < 512; c++) {
				float a = 0.0f;
				for (int d = 0; d < 128; d++)
					a += q_nope[b][h][d] * w_uk[h][d][c];
				qc[c] = a;
			}
			float sc[T];
			float mx = -INFINITY;
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int c = 0; c < 512; c++)
					s += qc[c] * kv_cache[b][t][c];
				for (int r = 0; r < 64; r++)
					s += q_pe[b][h][r] * pe_cache[b][t][r];
				sc[t] = s * softmax_scale;
				mx = fmaxf(mx, sc[t]);
			}
			float sum = 0.0f;
			for (int t = 0; t < T; t++) {
				sc[t] = expf(sc[t] - mx);
				sum += sc[t];
			}
			float x[512];
			for (int c = 0; c < 512; c++) {
				float a = 0.0f;
				for (int t = 0; t < T; t++)
					a += sc[t] / sum * kv_cache[b][t][c];
				x[c] = a;
			}
			for (int d = 0; d < 128; d++) {
				float a = 0.0f;
				for (int c = 0; c < 512; c++)
					a += x[c] * w_uv[h][d][c];
				out[b][h][d] = a;
			}
		}
}
