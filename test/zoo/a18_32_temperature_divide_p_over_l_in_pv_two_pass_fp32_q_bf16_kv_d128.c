/* Attention with a temperature (logits / tau, tau a parameter) and the normalisation folded into
 * P.V (acc += expf(s - m) / l * v), computed as three passes over the keys: max, sum, output.
 * bf16 tensors, head dim 128, no mask. */
#include <math.h>
#include "fusecc.h"

void attn_temp(int B, int H, int N, float tau, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H][N][128],
	       const fusecc_bf16 v[B][H][N][128], float o[B][H][N][128])
{
#pragma fuse kernel(attn_temp) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, s / tau);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					l += expf(s / tau - m);
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					const float p = expf(s / tau - m) / l;
					for (int d = 0; d < 128; d++) o[b][h][i][d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
			}
}
