/* Decode attention with tanh logit soft-capping (Grok/Gemma style cap 30), fp16,
 * #define HEAD_DIM 128. Style: cap as a #define; scale computed before the loop; exp2f with the
 * log2e factor applied after the cap; scores recomputed; d-outer P.V; splitk(j:32). */
#include <math.h>

#define HEAD_DIM 128
#define SOFTCAP 30.0f
#define LOG2E 1.4426950408889634f

void decode_softcap(int B, int H, int L,
		    const _Float16 q[B][H][HEAD_DIM], const _Float16 k[B][H][L][HEAD_DIM],
		    const _Float16 v[B][H][L][HEAD_DIM], _Float16 o[B][H][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);

#pragma fuse kernel(decode_softcap) parallel(b, h) splitk(j:32)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					s += (float)q[b][h][d] * (float)k[b][h][j][d];
				s = SOFTCAP * tanhf(s * scale / SOFTCAP) * LOG2E;
				m = fmaxf(m, s);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					s += (float)q[b][h][d] * (float)k[b][h][j][d];
				s = SOFTCAP * tanhf(s * scale / SOFTCAP) * LOG2E;
				l += exp2f(s - m);
			}
			for (int d = 0; d < HEAD_DIM; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int c = 0; c < HEAD_DIM; c++)
						s += (float)q[b][h][c] * (float)k[b][h][j][c];
					s = SOFTCAP * tanhf(s * scale / SOFTCAP) * LOG2E;
					acc += exp2f(s - m) * (float)v[b][h][j][d];
				}
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
