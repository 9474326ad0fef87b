/* HF LlamaAttention eager_attention_forward ported op by op: attn_weights = q @ repeat_kv(k)^T * scaling,
 * + causal_mask[:, :, :, :kv_len] (additive float mask [B][1][N][N] of 0 / finfo.min), softmax in fp32,
 * cast to bf16 (query dtype), @ repeat_kv(v), transpose(1, 2) into [B][N][H][D]. D = 128 #define. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
#define HEAD_DIM 128
void llama_eager(int B, int H, int KVH, int N, const fusecc_bf16 q[B][H][N][HEAD_DIM], const fusecc_bf16 k[B][KVH][N][HEAD_DIM],
		 const fusecc_bf16 v[B][KVH][N][HEAD_DIM], const float causal_mask[B][1][N][N], fusecc_bf16 attn_output[B][N][H][HEAD_DIM])
{
	const int num_key_value_groups = H / KVH;
	const float scaling = powf((float)HEAD_DIM, -0.5f);
#pragma fuse kernel(llama_eager) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float attn_weights[N];
				fusecc_bf16 probs[N];
				const int kv = h / num_key_value_groups;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kv][j][d]);
					/* matmul output is bf16, then mask add in bf16 -> we keep fp32 as upcast softmax */
					attn_weights[j] = dot * scaling + causal_mask[b][0][i][j];
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, attn_weights[j]);
				float denom = 0.0f;
				for (int j = 0; j < N; j++) { attn_weights[j] = expf(attn_weights[j] - mx); denom += attn_weights[j]; }
				for (int j = 0; j < N; j++) probs[j] = fusecc_float_to_bf16(attn_weights[j] / denom);
				for (int d = 0; d < HEAD_DIM; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += fusecc_bf16_to_float(probs[j]) * fusecc_bf16_to_float(v[b][kv][j][d]);
					attn_output[b][i][h][d] = fusecc_float_to_bf16(acc);
				}
			}
}
