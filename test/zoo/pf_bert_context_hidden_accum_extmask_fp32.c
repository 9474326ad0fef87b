/* pf_bert_context_hidden_accum_extmask_fp32: HuggingFace BertSelfAttention in C without
 * transpose_for_scores: query/key/value layers [B][S][768] read at h * 64 + d, the extended
 * attention mask (1 - mask) * -10000 added to the scores (mask int64, as PyTorch passes
 * it), and context_layer[B][S][768] accumulated at the head's columns (written d + h * 64)
 * with the key loop outside, probs stored in a local row. Bidirectional, fp32, 12 heads of
 * 64. */
#include <math.h>
#include <stdint.h>
#define HIDDEN 768
#define HEADS 12
#define HEAD_DIM 64
void bert_self_attention(int B, int S, const float query[B][S][HIDDEN], const float key[B][S][HIDDEN],
                         const float value[B][S][HIDDEN], const int64_t attention_mask[B][S],
                         float context_layer[B][S][HIDDEN])
{
	const float inv_sqrt = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(bert_self_attention) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < HEADS; h++)
			for (int i = 0; i < S; i++) {
				float probs[S];
				float max_score = -INFINITY;
				for (int j = 0; j < S; j++) {
					float score = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						score += query[b][i][d + h * HEAD_DIM] * key[b][j][d + h * HEAD_DIM];
					score = score * inv_sqrt + (1.0f - (float)attention_mask[b][j]) * -10000.0f;
					probs[j] = score;
					if (score > max_score)
						max_score = score;
				}
				float denom = 0.0f;
				for (int j = 0; j < S; j++) {
					probs[j] = expf(probs[j] - max_score);
					denom += probs[j];
				}
				for (int j = 0; j < S; j++)
					probs[j] /= denom;
				for (int d = 0; d < HEAD_DIM; d++)
					context_layer[b][i][d + h * HEAD_DIM] = 0.0f;
				for (int j = 0; j < S; j++)
					for (int d = 0; d < HEAD_DIM; d++)
						context_layer[b][i][d + h * HEAD_DIM] += probs[j] * value[b][j][d + h * HEAD_DIM];
			}
}
