/* MLA absorbed decode (DeepSeek-V3 inference): one latent cache c[B][L][576] is both K (all 576:
 * 512 latent + 64 rope) and V (its first 512); int64 cache lengths; split-k. fp16. */
#include <math.h>
#include <stdint.h>

void mla_absorbed(int B, int H, int L, float softmax_scale, const int64_t cache_len[B], const _Float16 q[B][H][576],
		  const _Float16 ckv[B][L][576], _Float16 o[B][H][512])
{
#pragma fuse kernel(mla_absorbed) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[L];
			float m = -INFINITY;
			for (int t = 0; t < cache_len[b]; t++) {
				float s = 0.0f;
				for (int c = 0; c < 576; c++) s += (float)q[b][h][c] * (float)ckv[b][t][c];
				sc[t] = s * softmax_scale;
				m = fmaxf(m, sc[t]);
			}
			float l = 0.0f;
			for (int t = 0; t < cache_len[b]; t++) { sc[t] = expf(sc[t] - m); l += sc[t]; }
			for (int c = 0; c < 512; c++) {
				float acc = 0.0f;
				for (int t = 0; t < cache_len[b]; t++) acc += sc[t] * (float)ckv[b][t][c];
				o[b][h][c] = (_Float16)(acc / l);
			}
		}
}
