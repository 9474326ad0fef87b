/* T5 / BART decoder cross attention with an online softmax but no schedule clause: NQ decoder
 * positions against NK encoder states, D=128, fp16; to compare with the clause form. */
#include <math.h>

void bart_xattn(int B, int H, int NQ, int NK, const _Float16 q[B][H][NQ][128], const _Float16 k[B][H][NK][128],
		const _Float16 v[B][H][NK][128], _Float16 o[B][H][NQ][128])
{
#pragma fuse kernel(bart_xattn)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
