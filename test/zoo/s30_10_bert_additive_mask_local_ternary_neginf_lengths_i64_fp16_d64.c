/* BERT encoder self-attention with a padded batch: the extended attention mask built from
 * per-example lengths as a local, 0 or -INFINITY, added to the score (HF adds a finite
 * -10000; -INFINITY here). Scores in a row, then the softmax and P.V. fp16, d = 64. */
#include <math.h>
#include <stdint.h>

void bert_self_attention(int batch, int heads, int seq, const int64_t lengths[batch],
			 const _Float16 query[batch][heads][seq][64], const _Float16 key[batch][heads][seq][64],
			 const _Float16 value[batch][heads][seq][64], _Float16 context[batch][heads][seq][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(bert_self_attention) parallel(b, h, i)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < heads; h++)
			for (int i = 0; i < seq; i++) {
				float probs[seq];
				float mx = -INFINITY;
				for (int j = 0; j < seq; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += (float)query[b][h][i][d] * (float)key[b][h][j][d];
					float ext_mask = (j < lengths[b]) ? 0.0f : -INFINITY;
					probs[j] = dot * scale + ext_mask;
					mx = probs[j] > mx ? probs[j] : mx;
				}
				float z = 0.0f;
				for (int j = 0; j < seq; j++) {
					probs[j] = expf(probs[j] - mx);
					z += probs[j];
				}
				for (int j = 0; j < seq; j++)
					probs[j] /= z;
				for (int d = 0; d < 64; d++) {
					float c = 0.0f;
					for (int j = 0; j < seq; j++)
						c += probs[j] * (float)value[b][h][j][d];
					context[b][h][i][d] = (_Float16)c;
				}
			}
}
