/* Prefix-cached prefill with grouped KV heads, queries token-major as a serving engine
 * stores them ([B][T][H][D]): keys 0 .. P - 1 from the prefix cache, then the prompt's own
 * keys causally. Written the way the two sources suggest: two loops per pass. fp16, D = 128. */
#include <math.h>

void gqa_prefix_prefill(int B, int T, int H, int KVH, int P, const _Float16 q[B][T][H][128],
			const _Float16 kc[B][P][KVH][128], const _Float16 vc[B][P][KVH][128],
			const _Float16 k[B][T][KVH][128], const _Float16 v[B][T][KVH][128], _Float16 o[B][T][H][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(gqa_prefix_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				const int kvh = h / (H / KVH);
				float m = -INFINITY;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][i][h][d] * (float)kc[b][j][kvh][d];
					if (s * scale > m)
						m = s * scale;
				}
				for (int j = 0; j < i + 1; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][kvh][d];
					if (s * scale > m)
						m = s * scale;
				}
				float l = 0.0f;
				float acc[128] = {0};
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][i][h][d] * (float)kc[b][j][kvh][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (float)vc[b][j][kvh][d];
				}
				for (int j = 0; j < i + 1; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][kvh][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (float)v[b][j][kvh][d];
				}
				for (int d = 0; d < 128; d++)
					o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
