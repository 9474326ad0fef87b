/* T5/Gemma-style input: token embeddings gathered by int32 ids, scaled by sqrt(dim) (Gemma),
 * rows of the padding id written as zeros (nn.Embedding(padding_idx) semantics in a port),
 * then RMSNorm. fp16 table, fp16 out. */
#include <math.h>
#include <stdint.h>

void embed_rmsnorm(int T, int V, int E, int pad_id, const int32_t ids[T], const _Float16 table[V][E], const _Float16 w[E], _Float16 out[T][E])
{
	const float normalizer = sqrtf((float)E);
#pragma fuse kernel(embed_rmsnorm) parallel(t)
	for (int t = 0; t < T; t++) {
		if (ids[t] == pad_id) {
			for (int e = 0; e < E; e++) out[t][e] = (_Float16)0.0f;
			continue;
		}
		float ss = 0.0f;
		for (int e = 0; e < E; e++) {
			const float x = (float)table[ids[t]][e] * normalizer;
			ss += x * x;
		}
		const float r = 1.0f / sqrtf(ss / (float)E + 1e-6f);
		for (int e = 0; e < E; e++) out[t][e] = (_Float16)((float)table[ids[t]][e] * normalizer * r * (float)w[e]);
	}
}
