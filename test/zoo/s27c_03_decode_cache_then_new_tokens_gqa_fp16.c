/* A decode step whose new tokens' keys and values are not yet in the cache (the engine
 * appends them after attention): the query of head h reads the L cached keys, then the NT
 * new ones (this step's token, and draft tokens when speculating) in a second loop. GQA
 * (H / KVH query heads a KV head), fp16, D = 128, softmax in two passes. */
#include <math.h>

void decode_append(int B, int H, int KVH, int L, int NT, float scale, const _Float16 q[B][H][128],
		   const _Float16 kc[B][KVH][L][128], const _Float16 vc[B][KVH][L][128],
		   const _Float16 kn[B][KVH][NT][128], const _Float16 vn[B][KVH][NT][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_append) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int g = h / (H / KVH);
			float m = -INFINITY;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kc[b][g][t][d];
				m = fmaxf(m, s * scale);
			}
			for (int t = 0; t < NT; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kn[b][g][t][d];
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kc[b][g][t][d];
				const float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < 128; d++)
					acc[d] += p * (float)vc[b][g][t][d];
			}
			for (int t = 0; t < NT; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kn[b][g][t][d];
				const float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < 128; d++)
					acc[d] += p * (float)vn[b][g][t][d];
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
