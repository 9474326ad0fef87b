/* Gemma-2B (MQA, head_dim 256) decode: one KV head, `static const int head_dim = 256;` inside the function,
 * seq_lens int64, logits VLA over the cache size, softcap-free. */
#include <math.h>
#include <stdint.h>
void gemma_mqa_decode(int B, int H, int MAXS, const _Float16 q[B][H][256], const _Float16 kc[B][MAXS][256],
		      const _Float16 vc[B][MAXS][256], const int64_t seq_lens[B], _Float16 out[B][H][256])
{
	static const int head_dim = 256;
	const float query_pre_attn_scalar = 256.0f;
	const float scale = 1.0f / sqrtf(query_pre_attn_scalar);
#pragma fuse kernel(gemma_mqa_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float logits[MAXS];
			float m = -INFINITY;
			for (int64_t t = 0; t < seq_lens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < head_dim; d++) s += (float)q[b][h][d] * scale * (float)kc[b][t][d];
				logits[t] = s;
				m = fmaxf(m, s);
			}
			float den = 0.0f;
			for (int64_t t = 0; t < seq_lens[b]; t++) { logits[t] = expf(logits[t] - m); den += logits[t]; }
			for (int d = 0; d < head_dim; d++) {
				float acc = 0.0f;
				for (int64_t t = 0; t < seq_lens[b]; t++) acc += logits[t] * (float)vc[b][t][d];
				out[b][h][d] = (_Float16)(acc / den);
			}
		}
}
