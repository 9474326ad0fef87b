/* Decode over a cache whose slots carry their own token positions (kv_pos[b][S], -1 = empty slot),
 * as in llama.cpp's unified cache or a prefix-shared cache: a slot is visible when
 * 0 <= kv_pos <= q_pos[b]. bf16 cache [B][S][H][64]. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void pos_decode(int B, int H, int S, const int32_t q_pos[B], const int32_t kv_pos[B][S],
		const fusecc_bf16 q[B][H][64], const fusecc_bf16 k[B][S][H][64], const fusecc_bf16 v[B][S][H][64],
		fusecc_bf16 o[B][H][64])
{
#pragma fuse kernel(pos_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S];
			float mx = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = -INFINITY;
				if (kv_pos[b][j] >= 0 && kv_pos[b][j] <= q_pos[b]) {
					s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					s *= 0.125f;
				}
				sc[j] = s;
				mx = fmaxf(mx, s);
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) l += expf(sc[j] - mx);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j] - mx) * fusecc_bf16_to_float(v[b][j][h][d]);
				o[b][h][d] = fusecc_float_to_bf16(acc / l);
			}
		}
}
