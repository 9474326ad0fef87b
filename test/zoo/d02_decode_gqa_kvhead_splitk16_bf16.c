/* GQA decode attention, bf16, #define HEAD_DIM 128, KV cache [B][KVH][L][HEAD_DIM].
 * Style: a `const int kv_head = h / (H / KVH);` local; scale computed before the loop;
 * scores recomputed in both passes; j-outer P.V into acc[HEAD_DIM]; splitk(j:16). */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 128

void decode_gqa(int B, int H, int KVH, int L,
		const fusecc_bf16 q[B][H][HEAD_DIM],
		const fusecc_bf16 k_cache[B][KVH][L][HEAD_DIM],
		const fusecc_bf16 v_cache[B][KVH][L][HEAD_DIM],
		fusecc_bf16 out[B][H][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);

#pragma fuse kernel(decode_gqa) parallel(b, h) splitk(j:16)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < H; h++) {
			const int kv_head = h / (H / KVH);
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) *
					     fusecc_bf16_to_float(k_cache[b][kv_head][j][d]);
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f;
			float acc[HEAD_DIM];
			for (int d = 0; d < HEAD_DIM; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) *
					     fusecc_bf16_to_float(k_cache[b][kv_head][j][d]);
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] += p * fusecc_bf16_to_float(v_cache[b][kv_head][j][d]);
			}
			for (int d = 0; d < HEAD_DIM; d++)
				out[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
	}
}
