/* pf_llmc_attention_hidden_out_accum_t2_outer_fp32: llm.c's attention_forward in array form:
 * the packed qkv[B][T][3 * C] read at h * hs + i (query), C + h * hs + i (key) and 2 * C +
 * h * hs + i (value), the output in the hidden layout out[B][T][C], zeroed at the head's
 * columns and accumulated with the key loop outside (`for (t2) { ...; for (i)
 * out[b][t][h * hs + i] += att * v; }`); preatt kept per row, maxval seeded -10000, the
 * reciprocal guarded. GPT-2 small: C = 768, NH = 12, fp32, causal. */
#include <math.h>
#define C 768
#define NH 12
#define hs (C / NH)
void attention_forward(int B, int T, const float inp[B][T][3 * C], float out[B][T][C])
{
	const float scale = 1.0f / sqrtf(hs);
#pragma fuse kernel(attention_forward) parallel(b, t, h) rolling(t2)
	for (int b = 0; b < B; b++) {
		for (int t = 0; t < T; t++) {
			for (int h = 0; h < NH; h++) {
				float preatt[T];
				float maxval = -10000.0f;
				for (int t2 = 0; t2 <= t; t2++) {
					float val = 0.0f;
					for (int i = 0; i < hs; i++)
						val += inp[b][t][h * hs + i] * inp[b][t2][C + h * hs + i];
					val *= scale;
					if (val > maxval)
						maxval = val;
					preatt[t2] = val;
				}
				float expsum = 0.0f;
				for (int t2 = 0; t2 <= t; t2++) {
					float expv = expf(preatt[t2] - maxval);
					expsum += expv;
					preatt[t2] = expv;
				}
				float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;
				for (int i = 0; i < hs; i++)
					out[b][t][h * hs + i] = 0.0f;
				for (int t2 = 0; t2 <= t; t2++) {
					float att_btht2 = preatt[t2] * expsum_inv;
					for (int i = 0; i < hs; i++)
						out[b][t][h * hs + i] += att_btht2 * inp[b][t2][2 * C + h * hs + i];
				}
			}
		}
	}
}
