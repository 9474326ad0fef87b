/* nn.EmbeddingBag(mode='mean') with offsets (CSR). */
#include <stdint.h>
void emb_bag(int NB, int NI, int V, int E, const int64_t idx[NI], const int64_t off[NB + 1],
	     const float w[V][E], float out[NB][E])
{
#pragma fuse kernel(emb_bag) parallel(b)
	for (int b = 0; b < NB; b++) {
		for (int e = 0; e < E; e++) {
			float s = 0;
			for (int64_t t = off[b]; t < off[b + 1]; t++) s += w[idx[t]][e];
			int64_t n = off[b + 1] - off[b];
			out[b][e] = n > 0 ? s / (float)n : 0.0f;
		}
	}
}
