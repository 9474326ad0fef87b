/* Llama-style GQA prefill as a PyTorch user ports `repeat_kv` + SDPA without materialising
 * the repeat: kv head = h / (H / KVH). BHSD layout, bf16, causal as a -INFINITY assignment. */
#include <math.h>
#include "fusecc.h"

void llama_gqa_prefill(int B, int H, int KVH, int N, const fusecc_bf16 q[B][H][N][128],
		       const fusecc_bf16 k[B][KVH][N][128], const fusecc_bf16 v[B][KVH][N][128],
		       fusecc_bf16 o[B][H][N][128])
{
	const float sm_scale = 0.08838834764831845f;
#pragma fuse kernel(llama_gqa_prefill) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kvh = h / (H / KVH);
				float s[N];
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 128; d++)
						acc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kvh][j][d]);
					s[j] = acc * sm_scale;
					if (j > i) s[j] = -INFINITY;
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++) m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += s[j] * fusecc_bf16_to_float(v[b][kvh][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(acc / l);
				}
			}
}
