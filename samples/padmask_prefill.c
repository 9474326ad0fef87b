/* padmask_prefill.c: encoder (BERT-style) prefill attention with a key padding mask, the
 * `key_padding_mask` of torch.nn.MultiheadAttention inverted: keep[b][j] is true for a
 * real token of sequence b, false for padding. A row whose keys are all padding has no
 * defined softmax (NaN, as in PyTorch): the caller keeps at least one key per sequence.
 * Style: `const bool keep[B][N]` (stdbool.h) tested in an `if` that sets the score to
 * -INFINITY; scores stored in s[N]; max, sum of exp, P.V with j outside d into acc[D],
 * normalised after. fp16 storage, fp32 math, D = 128; B = 1 ... 32, N = 128 ... 4096. */
#include <math.h>
#include <stdbool.h>

#define D 128

void padmask_prefill(int B, int H, int N, float scale, const bool keep[B][N],
		     const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		     const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(padmask_prefill) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
					if (!keep[b][j])
						s[j] = -INFINITY;
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
