/* HuggingFace repeat_kv written without the copy: query head h reads KV head h / (H / KVH);
 * causal prefill, the scores kept in a row buffer, bf16 storage, head dim a run-time parameter
 * (Gemma's 256). */
#include <math.h>
#include "fusecc.h"

void gqa_causal(int B, int H, int KVH, int S, int D, const fusecc_bf16 q[B][H][S][D],
		const fusecc_bf16 k[B][KVH][S][D], const fusecc_bf16 v[B][KVH][S][D], fusecc_bf16 o[B][H][S][D])
{
	const int n_rep = H / KVH;
	const float scaling = powf((float)D, -0.5f);
#pragma fuse kernel(gqa_causal) parallel(b, h, s)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int s = 0; s < S; s++) {
				const int kvh = h / n_rep;
				float attn[S];
				float mx = -INFINITY;
				for (int t = 0; t <= s; t++) {
					float w = 0.0f;
					for (int d = 0; d < D; d++)
						w += fusecc_bf16_to_float(q[b][h][s][d]) * fusecc_bf16_to_float(k[b][kvh][t][d]);
					attn[t] = w * scaling;
					mx = attn[t] > mx ? attn[t] : mx;
				}
				float z = 0.0f;
				for (int t = 0; t <= s; t++) { attn[t] = expf(attn[t] - mx); z += attn[t]; }
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int t = 0; t <= s; t++) acc += attn[t] * fusecc_bf16_to_float(v[b][kvh][t][d]);
					o[b][h][s][d] = fusecc_float_to_bf16(acc / z);
				}
			}
}
