/* nn.MultiheadAttention cross-attention port: decoder queries tgt_len, encoder keys src_len, a bool
 * key_padding_mask[B][S] (true = pad) filled with -inf; sizes from an enum { HEAD_DIM = 64, NUM_HEADS = 8 }. */
#include <math.h>
#include <stdbool.h>
enum { HEAD_DIM = 64, NUM_HEADS = 8 };
void mha_cross(int B, int T, int S, const float q[B][NUM_HEADS][T][HEAD_DIM], const float k[B][NUM_HEADS][S][HEAD_DIM],
	       const float v[B][NUM_HEADS][S][HEAD_DIM], const bool key_padding_mask[B][S], float out[B][T][NUM_HEADS][HEAD_DIM])
{
	const float scaling = 1.0f / 8.0f;
#pragma fuse kernel(mha_cross) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < NUM_HEADS; h++)
			for (int t = 0; t < T; t++) {
				float w[S];
				for (int s = 0; s < S; s++) {
					float dot = 0.0f;
					for (int e = 0; e < HEAD_DIM; e++) dot += (q[b][h][t][e] * scaling) * k[b][h][s][e];
					w[s] = key_padding_mask[b][s] ? -INFINITY : dot;
				}
				float mx = -INFINITY;
				for (int s = 0; s < S; s++) mx = fmaxf(mx, w[s]);
				float sum = 0.0f;
				for (int s = 0; s < S; s++) { w[s] = expf(w[s] - mx); sum += w[s]; }
				for (int e = 0; e < HEAD_DIM; e++) {
					float acc = 0.0f;
					for (int s = 0; s < S; s++) acc += w[s] / sum * v[b][h][s][e];
					out[b][t][h][e] = acc;
				}
			}
}
