/* Gemma-2 local layer prefill: logit softcap 50 via tanhf, sliding window 4096 (run-time W),
 * GQA h / G, head dim 256, query scale 1/sqrt(256) folded as query_pre_attn_scalar, bf16. */
#include <math.h>
#include "fusecc.h"

void gemma2_local(int B, int H, int G, int N, int W, float softcap,
		  const fusecc_bf16 q[B][H][N][256], const fusecc_bf16 k[B][H / G][N][256],
		  const fusecc_bf16 v[B][H / G][N][256], fusecc_bf16 o[B][H][N][256])
{
#pragma fuse kernel(gemma2_local) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float logits[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 256; d++)
						x += fusecc_bf16_to_float(q[b][h][i][d]) * 0.0625f * fusecc_bf16_to_float(k[b][h / G][j][d]);
					x = softcap * tanhf(x / softcap);
					if (j > i || i - j >= W) x = -INFINITY;
					logits[j] = x;
					m = fmaxf(m, x);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { logits[j] = expf(logits[j] - m); l += logits[j]; }
				for (int d = 0; d < 256; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += logits[j] * fusecc_bf16_to_float(v[b][h / G][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
