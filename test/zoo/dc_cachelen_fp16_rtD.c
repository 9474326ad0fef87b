/* dc_cachelen_fp16_rtD.c: batched decode over a KV cache of capacity L where sequence b
 * has filled cache_len[b] slots (the cache_seqlens of flash_attn_with_kvcache).
 * Style: fp16, run-time `int D`, the key loop bound read from cache_len[b], stored
 * scores, max / sum / d-outer P.V; an empty cache gives zeros. splitk(j). */
#include <math.h>

void decode_cachelen(int B, int H, int L, int D, float scale, const int cache_len[B],
		     const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
		     const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_cachelen) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			for (int j = 0; j < cache_len[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = dot * scale;
			}
			float m = -INFINITY;
			for (int j = 0; j < cache_len[b]; j++)
				m = fmaxf(m, s[j]);
			float l = 0.0f;
			for (int j = 0; j < cache_len[b]; j++)
				l += expf(s[j] - m);
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < cache_len[b]; j++)
					acc += expf(s[j] - m) * (float)v[b][h][j][d];
				o[b][h][d] = cache_len[b] > 0 ? (_Float16)(acc / l) : (_Float16)0.0f;
			}
		}
}
