/* row_d2l_masked_softmax_seed_first_fp32.c: Dive into Deep Learning's DotProductAttention with masked_softmax(valid_lens),
 * written out in C by a reader of the book: no heads, queries [B][Nq][d], keys and
 * values [B][Nk][d] / [B][Nk][dv], positions j >= valid_lens[b] replaced by -1e6
 * (not -inf), scores divided by sqrt(d) after the dot, d = 64, dv = 32 (different). */
#include <math.h>

#define DQK 64
#define DV 32

void dot_product_attention(int B, int Nq, int Nk, const float queries[B][Nq][DQK],
			   const float keys[B][Nk][DQK], const float values[B][Nk][DV],
			   const int valid_lens[B], float output[B][Nq][DV])
{
	int b, i, j, t;
#pragma fuse kernel(dot_product_attention) parallel(b, i)
	for (b = 0; b < B; b++)
		for (i = 0; i < Nq; i++) {
			float scores[Nk];
			float maxv, total;
			for (j = 0; j < Nk; j++) {
				float s = 0;
				for (t = 0; t < DQK; t++)
					s += queries[b][i][t] * keys[b][j][t];
				s = s / sqrtf((float)DQK);
				if (j >= valid_lens[b])
					s = -1e6f;
				scores[j] = s;
			}
			maxv = scores[0];
			for (j = 0; j < Nk; j++)
				if (scores[j] > maxv) maxv = scores[j];
			total = 0;
			for (j = 0; j < Nk; j++) {
				scores[j] = expf(scores[j] - maxv);
				total += scores[j];
			}
			for (t = 0; t < DV; t++) {
				float acc = 0;
				for (j = 0; j < Nk; j++)
					acc += scores[j] / total * values[b][j][t];
				output[b][i][t] = acc;
			}
		}
}
