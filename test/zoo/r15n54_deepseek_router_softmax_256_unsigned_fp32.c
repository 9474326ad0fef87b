/* DeepSeek-V3-sized router scores: softmax over 256 experts with unsigned counters and the
 * probabilities written to a score buffer; also the max probability per token. */
#include <math.h>

void router256(unsigned T, const float logits[T][256], float scores[T][256], float pmax[T])
{
#pragma fuse kernel(router256) parallel(t)
	for (unsigned t = 0; t < T; ++t) {
		float m = -INFINITY;
		for (unsigned e = 0; e < 256u; ++e) m = logits[t][e] > m ? logits[t][e] : m;
		float z = 0.0f;
		for (unsigned e = 0; e < 256u; ++e) z += expf(logits[t][e] - m);
		for (unsigned e = 0; e < 256u; ++e) scores[t][e] = expf(logits[t][e] - m) / z;
		pmax[t] = 1.0f / z;
	}
}
