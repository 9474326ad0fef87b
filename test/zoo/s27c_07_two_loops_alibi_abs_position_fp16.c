/* Prefix prefill with ALiBi, two loops per pass, the bias written from absolute positions:
 * a cached key j sits at position j, a new key j at P + j, the query at P + i. The loops'
 * statements differ beyond the arrays they read (the bias reads j itself), so they are not
 * one loop over both sources to fusecc: refused, saying so. fp16, D = 128. */
#include <math.h>

void alibi_prefix(int B, int H, int P, int T, const float slope[H], const _Float16 q[B][H][T][128],
		  const _Float16 kc[B][H][P][128], const _Float16 vc[B][H][P][128], const _Float16 k[B][H][T][128],
		  const _Float16 v[B][H][T][128], _Float16 o[B][H][T][128])
{
#pragma fuse kernel(alibi_prefix) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float m = -INFINITY;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)kc[b][h][j][d];
					m = fmaxf(m, s * 0.08838834764831845f + slope[h] * (float)(j - (P + i)));
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.08838834764831845f + slope[h] * (float)(P + j - (P + i)));
				}
				float l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)kc[b][h][j][d];
					const float p = expf(s * 0.08838834764831845f + slope[h] * (float)(j - (P + i)) - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (float)vc[b][h][j][d];
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					const float p = expf(s * 0.08838834764831845f + slope[h] * (float)(P + j - (P + i)) - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
