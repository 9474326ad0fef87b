/* Gemma-2 style attention logit softcapping (cap * tanh(s / cap)), GQA with heads interleaved
 * over the KV heads (h % KVH), head dim 256, bidirectional, no schedule clause. bf16. */
#include <math.h>
#include "fusecc.h"

static inline float softcap(float x, float cap) { return cap * tanhf(x / cap); }

void gemma_softcap(int B, int H, int KVH, int N, float cap, const fusecc_bf16 q[B][H][N][256],
		   const fusecc_bf16 k[B][KVH][N][256], const fusecc_bf16 v[B][KVH][N][256], fusecc_bf16 o[B][H][N][256])
{
	const float scale = 0.0625f;
#pragma fuse kernel(gemma_softcap)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kh = h % KVH;
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 256; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
					m = fmaxf(m, softcap(s * scale, cap));
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 256; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
					l += expf(softcap(s * scale, cap) - m);
				}
				for (int d = 0; d < 256; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int e = 0; e < 256; e++)
							s += fusecc_bf16_to_float(q[b][h][i][e]) * fusecc_bf16_to_float(k[b][kh][j][e]);
						a += expf(softcap(s * scale, cap) - m) * fusecc_bf16_to_float(v[b][kh][j][d]);
					}
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
