/* Per-sequence softmax over the tokens of a packed batch (attention-pooling weights of a
 * ragged batch, torch_scatter's scatter_softmax over contiguous segments): offsets int64. */
#include <math.h>
#include <stdint.h>

void segment_softmax(int S, int TOT, const int64_t offsets[S + 1], const float score[TOT], float w[TOT])
{
#pragma fuse kernel(segment_softmax) parallel(s)
	for (int s = 0; s < S; s++) {
		float m = -INFINITY;
		for (int64_t t = offsets[s]; t < offsets[s + 1]; t++) m = fmaxf(m, score[t]);
		float z = 0.0f;
		for (int64_t t = offsets[s]; t < offsets[s + 1]; t++) z += expf(score[t] - m);
		for (int64_t t = offsets[s]; t < offsets[s + 1]; t++) w[t] = expf(score[t] - m) / z;
	}
}
