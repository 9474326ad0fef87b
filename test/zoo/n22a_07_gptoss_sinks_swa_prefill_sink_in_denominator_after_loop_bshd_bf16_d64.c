/* gpt-oss attention (openai/gpt-oss torch reference): a learned sink logit per head joins the softmax
 * denominator, not the output; alternate layers use a 128-token sliding window. Written with the sink
 * handled after the key loop: the max starts at the sink, the denominator adds exp(sink - m). */
#include <math.h>
#include "fusecc.h"

void gptoss_attn(int B, int N, int H, int KVH, int W, const fusecc_bf16 q[B][N][H][64], const fusecc_bf16 k[B][N][KVH][64],
		 const fusecc_bf16 v[B][N][KVH][64], const float sinks[H], fusecc_bf16 o[B][N][H][64])
{
	const float sm_scale = 0.125f;
#pragma fuse kernel(gptoss_attn) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				const int kv = h / (H / KVH);
				const int start = i - W + 1 < 0 ? 0 : i - W + 1;
				float m = sinks[h];
				for (int j = start; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][kv][d]);
					m = fmaxf(m, s * sm_scale);
				}
				float denom = expf(sinks[h] - m);
				float acc[64] = {0};
				for (int j = start; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][kv][d]);
					float p = expf(s * sm_scale - m);
					denom += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][j][kv][d]);
				}
				for (int d = 0; d < 64; d++)
					o[b][i][h][d] = fusecc_float_to_bf16(acc[d] / denom);
			}
}
