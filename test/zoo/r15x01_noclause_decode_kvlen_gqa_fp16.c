/* (no schedule clause) a decode step as a serving engineer writes it first: one query per
 * sequence, keys up to kv_len[b], GQA by h / (H / KVH), fp16 cache, head dim 128. */
#include <math.h>
#include "fusecc.h"

void decode_noclause(int B, int H, int KVH, int L, const int kv_len[B], const _Float16 q[B][H][128],
                     const _Float16 kc[B][KVH][L][128], const _Float16 vc[B][KVH][L][128], _Float16 out[B][H][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(decode_noclause)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int g = h / (H / KVH);
			float m = -INFINITY, l = 0.0f;
			float acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < kv_len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kc[b][g][j][d];
				m = fmaxf(m, s * scale);
			}
			for (int j = 0; j < kv_len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kc[b][g][j][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < 128; d++) acc[d] += p * (float)vc[b][g][j][d];
			}
			for (int d = 0; d < 128; d++) out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
