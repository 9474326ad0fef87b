/* sentence-transformers' mean pooling then F.normalize: per sentence, the masked mean over tokens of
 * the token embeddings [B][T][D] (fp16), then L2-normalised over D. Written per sentence as one
 * region, the pooled row in a local array. */
#include <math.h>
#include <stdint.h>

void mean_pool_normalize(int B, int T, int D, const _Float16 emb[B][T][D], const int64_t attn_mask[B][T],
			 float out[B][D])
{
#pragma fuse kernel(mean_pool_normalize) parallel(b)
	for (int b = 0; b < B; b++) {
		float cnt = 0.0f;
		for (int t = 0; t < T; t++)
			cnt += (float)attn_mask[b][t];
		cnt = fmaxf(cnt, 1e-9f);
		float pooled[D];
		for (int d = 0; d < D; d++) {
			float s = 0.0f;
			for (int t = 0; t < T; t++)
				s += (float)emb[b][t][d] * (float)attn_mask[b][t];
			pooled[d] = s / cnt;
		}
		float nrm = 0.0f;
		for (int d = 0; d < D; d++)
			nrm += pooled[d] * pooled[d];
		nrm = fmaxf(sqrtf(nrm), 1e-12f);
		for (int d = 0; d < D; d++)
			out[b][d] = pooled[d] / nrm;
	}
}
