/* A kernel writer's decode with the group size a power of two baked in: kv head = h >> 2
 * (GQA 4 query heads per KV head, LOG2_GROUP 2), as in hand-written CUDA decode kernels.
 * Per-sequence kv_len (int), bshd cache [B][Lmax][KVH][128]. fp16. */
#include <math.h>

#define LOG2_GROUP 2

void gqa_decode_shift(int B, int H, int Lmax, const _Float16 q[B][H][128], const _Float16 kc[B][Lmax][H >> LOG2_GROUP][128],
		      const _Float16 vc[B][Lmax][H >> LOG2_GROUP][128], const int kv_len[B], _Float16 o[B][H][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(gqa_decode_shift) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h >> LOG2_GROUP;
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < kv_len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kc[b][t][kvh][d];
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)vc[b][t][kvh][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
