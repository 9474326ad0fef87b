/* Llama-3 prefill with GQA as repeat_kv does it (kv head = h / n_rep, n_rep = H / KVH), written by a
 * kernel engineer who folds log2(e) into the softmax scale and uses exp2f, online softmax, causal. */
#include <math.h>
#include "fusecc.h"

void gqa_prefill(int B, int H, int KVH, int N, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][KVH][N][64],
		 const fusecc_bf16 v[B][KVH][N][64], fusecc_bf16 o[B][H][N][64])
{
	const int n_rep = H / KVH;
	const float scale_log2 = 0.125f * 1.44269504088896340736f;
#pragma fuse kernel(gqa_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kvh = h / n_rep;
				float m = -INFINITY, l = 0.0f;
				float acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kvh][j][d]);
					s *= scale_log2;
					const float m_new = fmaxf(m, s);
					const float alpha = exp2f(m - m_new);
					const float p = exp2f(s - m_new);
					l = l * alpha + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * alpha + p * fusecc_bf16_to_float(v[b][kvh][j][d]);
					m = m_new;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
