/* Prefill GQA with heads interleaved (kv head = h % KVH), run-time head dim, causal bound
 * j < i + 1, scores in float *s = scratch row. bf16. */
#include <math.h>
#include "fusecc.h"

void gqa_mod_prefill(int B, int H, int KVH, int N, int D, const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][KVH][N][D],
		     const fusecc_bf16 v[B][KVH][N][D], fusecc_bf16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(gqa_mod_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < i + 1; j++) {
					float t = 0.0f;
					for (int d = 0; d < D; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h % KVH][j][d]);
					s[j] = t * scale;
					mx = fmaxf(mx, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < i + 1; j++) { s[j] = expf(s[j] - mx); l += s[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j < i + 1; j++) a += s[j] * fusecc_bf16_to_float(v[b][h % KVH][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
