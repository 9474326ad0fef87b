/* A decode kernel whose attention mask arrives bit-packed (8 keys per byte, LSB first, as
 * np.packbits(..., bitorder="little") writes it): keep = (mask_bits[b][j >> 3] >> (j & 7)) & 1;
 * GQA by h / G; the usual CUDA-C flat index math on a [B][KVH][N][128] cache. */
#include <math.h>
#include <stdint.h>

void decode_bitmask(int B, int H, int KVH, int N, int NB, const _Float16 *q, const _Float16 *k_cache,
		const _Float16 *v_cache, const uint8_t mask_bits[B][NB], _Float16 *out)
{
	const int G = H / KVH;
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(decode_bitmask) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const _Float16 *qp = q + (b * H + h) * 128;
			const int kvoff = (b * KVH + h / G) * N * 128;
			float mx = -INFINITY, sum = 0.0f, acc[128] = {0};
			for (int j = 0; j < N; j++) {
				if (!((mask_bits[b][j >> 3] >> (j & 7)) & 1)) continue;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)qp[d] * (float)k_cache[kvoff + j * 128 + d];
				s *= scale;
				float mn = fmaxf(mx, s), r = expf(mx - mn), p = expf(s - mn);
				sum = sum * r + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * r + p * (float)v_cache[kvoff + j * 128 + d];
				mx = mn;
			}
			for (int d = 0; d < 128; d++) out[(b * H + h) * 128 + d] = (_Float16)(sum > 0.0f ? acc[d] / sum : 0.0f);
		}
}
