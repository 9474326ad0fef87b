/* Mixed storage: fp32 queries (after RoPE in fp32), a bf16 KV cache, an additive fp16 mask [N][N] shared by
 * the batch (0 / -65504 as HF builds it in the model dtype), scale 1/sqrt(128). */
#include <math.h>
#include "fusecc.h"
void mixed_attn(int B, int H, int N, const float q[B][H][N][128], const fusecc_bf16 k[B][H][N][128], const fusecc_bf16 v[B][H][N][128],
		const _Float16 mask[N][N], float o[B][H][N][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(mixed_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += q[b][h][i][d] * fusecc_bf16_to_float(k[b][h][j][d]);
					w[j] = s * scale + (float)mask[i][j];
					mx = fmaxf(mx, w[j]);
				}
				float tot = 0.0f;
				for (int j = 0; j < N; j++) { w[j] = expf(w[j] - mx); tot += w[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += w[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = a / tot;
				}
			}
}
