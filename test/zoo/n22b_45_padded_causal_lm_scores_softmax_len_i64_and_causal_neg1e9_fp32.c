/* Softmax of precomputed scores for a padded batch of causal LMs: keys masked when j > i or
 * j >= lens[b] (right padding), masked_fill(-1e9) as HF's older models do, fp32. */
#include <math.h>
#include <stdint.h>

void padded_causal_softmax(int B, int H, int T, const float scores[B][H][T][T], const int64_t lens[B],
			   float probs[B][H][T][T])
{
#pragma fuse kernel(padded_causal_softmax) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float m = -INFINITY;
				for (int j = 0; j < T; j++) {
					const float s = (j > i || j >= lens[b]) ? -1e9f : scores[b][h][i][j];
					m = fmaxf(m, s);
				}
				float l = 0.0f;
				for (int j = 0; j < T; j++) {
					const float s = (j > i || j >= lens[b]) ? -1e9f : scores[b][h][i][j];
					l += expf(s - m);
				}
				for (int j = 0; j < T; j++) {
					const float s = (j > i || j >= lens[b]) ? -1e9f : scores[b][h][i][j];
					probs[b][h][i][j] = expf(s - m) / l;
				}
			}
}
