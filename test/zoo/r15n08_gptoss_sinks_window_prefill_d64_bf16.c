/* gpt-oss attention (sinks per head, banded window of 128 on alternating layers), ported
 * from the reference torch implementation: the sink joins the softmax denominator only. */
#include <math.h>
#include "fusecc.h"

void gptoss_attn(int B, int H, int N, int W, const float sinks[H], const fusecc_bf16 q[B][N][H][64],
		 const fusecc_bf16 k[B][N][H][64], const fusecc_bf16 v[B][N][H][64],
		 fusecc_bf16 o[B][N][H][64])
{
	const float sm_scale = 0.125f;
#pragma fuse kernel(gptoss_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				int start = i - W + 1;
				if (start < 0) start = 0;
				float mx = sinks[h];
				for (int j = start; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++)
						qk += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					mx = fmaxf(mx, qk * sm_scale);
				}
				float den = expf(sinks[h] - mx);
				for (int j = start; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++)
						qk += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					den += expf(qk * sm_scale - mx);
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = start; j <= i; j++) {
						float qk = 0.0f;
						for (int e = 0; e < 64; e++)
							qk += fusecc_bf16_to_float(q[b][i][h][e]) * fusecc_bf16_to_float(k[b][j][h][e]);
						acc += expf(qk * sm_scale - mx) * fusecc_bf16_to_float(v[b][j][h][d]);
					}
					o[b][i][h][d] = fusecc_float_to_bf16(acc / den);
				}
			}
}
