/* naive_causal_row_stats_bf16.c: causal attention ported step by step from a
 * textbook: scores of every pair into a scratch matrix with the future masked to
 * -inf, then the row maxima into m[], the exponentials and their row sums into l[],
 * then the weighted values, each its own nest over the query rows. Style: bf16
 * tensors, head dim 128 as a macro, 2-D and 1-D scratch locals of run-time size,
 * the scale in the score nest, parallel(b, h). */
#include <math.h>
#include "fusecc.h"
#define HD 128

void causal_textbook(int B, int H, int T, const fusecc_bf16 Q[B][H][T][HD], const fusecc_bf16 K[B][H][T][HD],
		     const fusecc_bf16 V[B][H][T][HD], fusecc_bf16 Y[B][H][T][HD])
{
#pragma fuse kernel(causal_textbook) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float A[T][T];
			float m[T], l[T];
			for (int t = 0; t < T; t++)
				for (int s = 0; s < T; s++) {
					if (s > t) {
						A[t][s] = -INFINITY;
					} else {
						float x = 0.0f;
						for (int c = 0; c < HD; c++)
							x += fusecc_bf16_to_float(Q[b][h][t][c]) * fusecc_bf16_to_float(K[b][h][s][c]);
						A[t][s] = x * 0.08838834764831845f;
					}
				}
			for (int t = 0; t < T; t++) {
				m[t] = -INFINITY;
				for (int s = 0; s < T; s++)
					m[t] = fmaxf(m[t], A[t][s]);
			}
			for (int t = 0; t < T; t++) {
				l[t] = 0.0f;
				for (int s = 0; s < T; s++) {
					A[t][s] = expf(A[t][s] - m[t]);
					l[t] += A[t][s];
				}
			}
			for (int t = 0; t < T; t++)
				for (int c = 0; c < HD; c++) {
					float y = 0.0f;
					for (int s = 0; s < T; s++)
						y += A[t][s] * fusecc_bf16_to_float(V[b][h][s][c]);
					Y[b][h][t][c] = fusecc_float_to_bf16(y / l[t]);
				}
		}
}
