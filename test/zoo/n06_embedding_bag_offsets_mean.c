/* n06_embedding_bag_offsets_mean.c: nn.EmbeddingBag(mode='mean') with 1-D indices and
 * int64 offsets (bag b is indices[offsets[b]] .. indices[offsets[b+1]-1]); empty bags
 * give 0. fp32.
 * Style: PyTorch's CPU reference, absolute positions in the loop, `for (p = offsets[b];
 * p < offsets[b + 1]; p++)`, the count as an int local after it. Tabs. */
#include <stdint.h>

void embedding_bag_mean(int B, int NIDX, int NUM_EMB, int DIM, const float weight[NUM_EMB][DIM],
			const int64_t indices[NIDX], const int64_t offsets[B + 1], float out[B][DIM])
{
#pragma fuse kernel(embedding_bag_mean) parallel(b, d)
	for (int b = 0; b < B; b++)
		for (int d = 0; d < DIM; d++) {
			float acc = 0.0f;
			for (int p = offsets[b]; p < offsets[b + 1]; p++)
				acc += weight[indices[p]][d];
			const int cnt = offsets[b + 1] - offsets[b];
			out[b][d] = cnt > 0 ? acc / cnt : 0.0f;
		}
}
