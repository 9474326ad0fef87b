/* dc_mla_rtDK_DV_fp16.c: MLA-style decode with q.k over DK (192) and P.V over DV (128),
 * both run-time parameters.
 * Style: fp16, scale computed before the region from DK, recomputed q.k: a max pass and
 * a combined sum + j-outer P.V pass into acc[DV], helper locals, splitk(j). */
#include <math.h>

void mla_decode(int B, int H, int L, int DK, int DV,
		const _Float16 q[B][H][DK], const _Float16 kc[B][H][L][DK],
		const _Float16 vc[B][H][L][DV], _Float16 o[B][H][DV])
{
	const float scale = 1.0f / sqrtf((float)DK);
#pragma fuse kernel(mla_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float qk = 0.0f;
				for (int c = 0; c < DK; c++)
					qk += (float)q[b][h][c] * (float)kc[b][h][j][c];
				m = fmaxf(m, qk * scale);
			}
			float l = 0.0f;
			float acc[DV];
			for (int c = 0; c < DV; c++)
				acc[c] = 0.0f;
			for (int j = 0; j < L; j++) {
				float qk = 0.0f;
				for (int c = 0; c < DK; c++)
					qk += (float)q[b][h][c] * (float)kc[b][h][j][c];
				float e = expf(qk * scale - m);
				l += e;
				for (int c = 0; c < DV; c++)
					acc[c] += e * (float)vc[b][h][j][c];
			}
			for (int c = 0; c < DV; c++)
				o[b][h][c] = (_Float16)(acc[c] / l);
		}
}
