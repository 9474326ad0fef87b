/* Gemma 3 attention ported from modeling_gemma3.py by hand: the layer index is a parameter and
 * every 6th layer is global ((layer_idx + 1) % 6 == 0), the others slide over W keys; scale is
 * query_pre_attn_scalar ** -0.5, logits soft-capped at 50 (gemma2 habit kept), GQA by h / (H / KVH),
 * q/k/v in [B][N][H][D] bf16. */
#include <math.h>
#include "fusecc.h"
#define HD 256

void gemma3_attn(int B, int N, int H, int KVH, int W, int layer_idx, float query_pre_attn_scalar,
		 const fusecc_bf16 q[B][N][H][HD], const fusecc_bf16 k[B][N][KVH][HD],
		 const fusecc_bf16 v[B][N][KVH][HD], fusecc_bf16 o[B][N][H][HD])
{
	const int is_sliding = (layer_idx + 1) % 6 != 0;
	const float scaling = 1.0f / sqrtf(query_pre_attn_scalar);
	const float softcap = 50.0f;
	const int n_rep = H / KVH;
#pragma fuse kernel(gemma3_attn) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				const int kh = h / n_rep;
				float w[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < HD; d++)
						s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][kh][d]);
					s = s * scaling;
					s = tanhf(s / softcap) * softcap;
					if (j > i || (is_sliding && i - j >= W))
						s = -INFINITY;
					w[j] = s;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++)
					if (w[j] > mx) mx = w[j];
				float den = 0.0f;
				for (int j = 0; j < N; j++) {
					w[j] = expf(w[j] - mx);
					den += w[j];
				}
				for (int d = 0; d < HD; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += w[j] / den * fusecc_bf16_to_float(v[b][j][kh][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(acc);
				}
			}
}
