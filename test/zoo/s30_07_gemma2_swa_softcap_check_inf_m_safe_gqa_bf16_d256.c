/* Gemma-2 local layer with FlashAttention's Check_inf: GQA, logit soft-capping (tanh),
 * causal + sliding window as one ternary on the score, and the online softmax subtracting
 * a max that is zero while every key so far is masked. bf16, head dim 256. */
#include <math.h>
#include "fusecc.h"

#define HD 256

void gemma2_local_attn(int B, int NH, int NKV, int L, int sliding_window, float softcap,
		       const fusecc_bf16 Q[B][NH][L][HD], const fusecc_bf16 K[B][NKV][L][HD],
		       const fusecc_bf16 V[B][NKV][L][HD], fusecc_bf16 O[B][NH][L][HD])
{
	const float scaling = 1.0f / sqrtf(256.0f);
	const int groups = NH / NKV;
#pragma fuse kernel(gemma2_local) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < NH; h++)
			for (int i = 0; i < L; i++) {
				const int kvh = h / groups;
				float m = -INFINITY, l = 0.0f;
				float acc[HD];
				for (int d = 0; d < HD; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int d = 0; d < HD; d++)
						s += fusecc_bf16_to_float(Q[b][h][i][d]) * fusecc_bf16_to_float(K[b][kvh][j][d]);
					s *= scaling;
					s = softcap * tanhf(s / softcap);
					s = (j > i || i - j >= sliding_window) ? -INFINITY : s;
					float m_new = fmaxf(m, s);
					float m_safe = (m_new == -INFINITY) ? 0.0f : m_new;
					float alpha = expf(m - m_safe);
					float p = expf(s - m_safe);
					l = l * alpha + p;
					for (int d = 0; d < HD; d++)
						acc[d] = acc[d] * alpha + p * fusecc_bf16_to_float(V[b][kvh][j][d]);
					m = m_new;
				}
				for (int d = 0; d < HD; d++)
					O[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
