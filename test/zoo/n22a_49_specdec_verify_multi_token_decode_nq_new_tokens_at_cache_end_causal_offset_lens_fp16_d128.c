/* Speculative-decoding verification: NQ draft tokens appended at the end of each sequence's cache
 * (lens[b] includes them); draft i sits at position lens[b] - NQ + i and sees keys t < lens[b] - NQ + i + 1. */
#include <math.h>
#include <stdint.h>

void spec_verify(int B, int H, int NQ, int T, const int32_t lens[B], const _Float16 q[B][NQ][H][128],
		 const _Float16 kc[B][T][H][128], const _Float16 vc[B][T][H][128], _Float16 o[B][NQ][H][128])
{
#pragma fuse kernel(spec_verify) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < NQ; i++)
			for (int h = 0; h < H; h++) {
				const int end = lens[b] - NQ + i + 1;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int t = 0; t < end; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)kc[b][t][h][d];
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)vc[b][t][h][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
