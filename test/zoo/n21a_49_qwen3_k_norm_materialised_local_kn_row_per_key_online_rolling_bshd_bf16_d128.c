/* Qwen3 attention with k_norm materialised per key: each key row normalised into a local kn[128]
 * (RMSNorm with weight) inside the key loop, q already normalised by the caller; online softmax
 * by hand with a rolling clause, [B][N][H][128]. */
#include <math.h>
#include "fusecc.h"

void qwen3_kn(int B, int N, int H, const fusecc_bf16 qn[B][N][H][128], const fusecc_bf16 k[B][N][H][128],
	      const fusecc_bf16 v[B][N][H][128], const float k_norm_w[128], fusecc_bf16 o[B][N][H][128])
{
#pragma fuse kernel(qwen3_kn) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float ss = 0.0f;
					for (int d = 0; d < 128; d++) {
						const float x = fusecc_bf16_to_float(k[b][j][h][d]);
						ss += x * x;
					}
					const float inv = 1.0f / sqrtf(ss / 128.0f + 1e-6f);
					float kn[128];
					for (int d = 0; d < 128; d++) kn[d] = fusecc_bf16_to_float(k[b][j][h][d]) * inv * k_norm_w[d];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(qn[b][i][h][d]) * kn[d];
					s *= 0.08838834764831845f;
					const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][j][h][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
