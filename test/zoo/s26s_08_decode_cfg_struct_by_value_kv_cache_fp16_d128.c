/* A decode step (one query per head) in an inference engine written in C: the model
 * config by value as llama2.c passes Config (n_heads, seq_len, the current position), the
 * K/V cache fp16 [n_heads][seq_len][128]; keys up to pos, scale 1/sqrt(head_size). */
#include <math.h>

typedef struct {
	int n_heads;
	int seq_len;
	int pos;
} DecodeConfig;

void decode_attn(DecodeConfig c, const float *q, const _Float16 *kc, const _Float16 *vc, float *out)
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(decode_attn) parallel(h)
	for (int h = 0; h < c.n_heads; h++) {
		float m = -INFINITY, l = 0.0f, acc[128] = {0};
		for (int t = 0; t <= c.pos; t++) {
			float s = 0.0f;
			for (int d = 0; d < 128; d++)
				s += q[h * 128 + d] * (float)kc[(h * c.seq_len + t) * 128 + d];
			s *= scale;
			const float mn = fmaxf(m, s), a = expf(m - mn), e = expf(s - mn);
			l = l * a + e;
			for (int d = 0; d < 128; d++)
				acc[d] = acc[d] * a + e * (float)vc[(h * c.seq_len + t) * 128 + d];
			m = mn;
		}
		for (int d = 0; d < 128; d++)
			out[h * 128 + d] = acc[d] / l;
	}
}
