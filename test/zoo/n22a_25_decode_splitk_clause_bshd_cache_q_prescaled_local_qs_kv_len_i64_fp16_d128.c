/* Flash-decoding reference: q pre-scaled into a local copy before the key loop, cache [B][T][H][D]
 * with int64 lengths, split-k clause on the key loop, two passes (max, then sum and P.V). */
#include <math.h>
#include <stdint.h>

void flash_decode(int B, int H, int T, const _Float16 q[B][H][128], const _Float16 k_cache[B][T][H][128],
		  const _Float16 v_cache[B][T][H][128], const int64_t cache_seqlens[B], _Float16 out[B][H][128])
{
#pragma fuse kernel(flash_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float qs[128];
			for (int d = 0; d < 128; d++) qs[d] = (float)q[b][h][d] * 0.08838834764831845f;
			float mx = -INFINITY;
			for (int64_t t = 0; t < cache_seqlens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += qs[d] * (float)k_cache[b][t][h][d];
				mx = fmaxf(mx, s);
			}
			float l = 0.0f, acc[128] = {0};
			for (int64_t t = 0; t < cache_seqlens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += qs[d] * (float)k_cache[b][t][h][d];
				float p = expf(s - mx);
				l += p;
				for (int d = 0; d < 128; d++) acc[d] += p * (float)v_cache[b][t][h][d];
			}
			for (int d = 0; d < 128; d++) out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
