/* dc_sigmoid_decode_gqa_fp16.c: one decode step of sigmoid attention over a KV cache,
 * GQA with the KV head as h / G, fp16 cache, head dim 128 from a #define, lengths per
 * sequence from an array.
 * Style: an inference engineer's reference: weight computed by a helper, the cache
 * indexed [b][kh][t][d]. */
#include <math.h>
#define HEAD 128

static inline float sigm(float x) { return 1.0f / (1.0f + expf(-x)); }

void sigmoid_decode(int B, int H, int G, int L, const int len[B], float scale, float bias,
		    const _Float16 q[B][H][HEAD], const _Float16 kc[B][H / G][L][HEAD],
		    const _Float16 vc[B][H / G][L][HEAD], _Float16 o[B][H][HEAD])
{
#pragma fuse kernel(sigmoid_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kh = h / G;
			float acc[HEAD];
			for (int d = 0; d < HEAD; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD; d++)
					s += (float)q[b][h][d] * (float)kc[b][kh][t][d];
				float w = sigm(s * scale + bias);
				for (int d = 0; d < HEAD; d++)
					acc[d] += w * (float)vc[b][kh][t][d];
			}
			for (int d = 0; d < HEAD; d++)
				o[b][h][d] = (_Float16)acc[d];
		}
}
