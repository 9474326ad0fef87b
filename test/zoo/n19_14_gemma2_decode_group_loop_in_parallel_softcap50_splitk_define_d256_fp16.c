/* Gemma-2 decode step, GQA written with a group loop (b, kv head, group) as a CUDA programmer lays out a CTA,
 * attn_logit_softcapping 50, query_pre_attn_scalar 256 (scale 1/16), KV cache of kv_len[b]... here a fixed L. */
#include <math.h>
#define D 256
void gemma2_decode(int B, int KVH, int G, int L, const _Float16 q[B][KVH * G][D], const _Float16 kcache[B][KVH][L][D],
		   const _Float16 vcache[B][KVH][L][D], _Float16 out[B][KVH * G][D])
{
	const float scaling = 1.0f / sqrtf(256.0f);
	const float cap = 50.0f;
#pragma fuse kernel(gemma2_decode) parallel(b, kh, g) splitk(t)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				float logits[L];
				float mx = -INFINITY;
				for (int t = 0; t < L; t++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][kh * G + g][d] * (float)kcache[b][kh][t][d];
					s = s * scaling;
					s = tanhf(s / cap) * cap;
					logits[t] = s;
					if (s > mx) mx = s;
				}
				float sum = 0.0f;
				for (int t = 0; t < L; t++) { logits[t] = expf(logits[t] - mx); sum += logits[t]; }
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int t = 0; t < L; t++) acc += logits[t] * (float)vcache[b][kh][t][d];
					out[b][kh * G + g][d] = (_Float16)(acc / sum);
				}
			}
}
