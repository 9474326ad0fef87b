/* BERT-style encoder attention with a key padding mask, fp16, int D. keep[b][j] is true for
 * real tokens; the caller guarantees every sequence has at least one real token (so no row is
 * fully masked). Style: `const bool keep[B][N]` tested in an if that sets -INFINITY; scale
 * parameter; scores in s[N]; fmaxf/expf; d-outer P.V; no strategy. */
#include <math.h>
#include <stdbool.h>

void padded_encoder_attn(int B, int H, int N, int D, float scale, const bool keep[B][N],
			 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
			 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(padded_encoder_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					dot *= scale;
					if (!keep[b][j])
						dot = -INFINITY;
					s[j] = dot;
					m = fmaxf(m, dot);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
