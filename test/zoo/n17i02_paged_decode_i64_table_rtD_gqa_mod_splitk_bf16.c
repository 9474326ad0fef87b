/* Paged decode with an int64 block table, run-time head dim and page size, GQA mapped
 * h % KVH (interleaved), context lengths int32; split-k. bf16 cache [NB][KVH][PS][D]. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void paged_decode_mod(int B, int H, int KVH, int D, int PS, int MAXP, int NB, const int64_t bt[B][MAXP],
		      const int ctx[B], const fusecc_bf16 q[B][H][D], const fusecc_bf16 kc[NB][KVH][PS][D],
		      const fusecc_bf16 vc[NB][KVH][PS][D], fusecc_bf16 out[B][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(paged_decode_mod) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kh = h % KVH;
			float lg[MAXP * PS];
			float mx = -INFINITY;
			for (int t = 0; t < ctx[b]; t++) {
				const int64_t blk = bt[b][t / PS];
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[blk][kh][t % PS][d]);
				lg[t] = s * scale;
				mx = fmaxf(mx, lg[t]);
			}
			float sum = 0.0f;
			for (int t = 0; t < ctx[b]; t++) { lg[t] = expf(lg[t] - mx); sum += lg[t]; }
			for (int d = 0; d < D; d++) {
				float a = 0.0f;
				for (int t = 0; t < ctx[b]; t++) a += lg[t] * fusecc_bf16_to_float(vc[bt[b][t / PS]][kh][t % PS][d]);
				out[b][h][d] = fusecc_float_to_bf16(a / sum);
			}
		}
}
