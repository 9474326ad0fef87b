/* Multi-query attention decode (all H query heads share a single K/V head), fp16,
 * k/v cache [B][L][128], q/o [B][H][128]. Style: no strategy clause; scores in a local
 * p[L]; scale computed inside the loop with 1/sqrtf(128.f); if-max; d-outer P.V. */
#include <math.h>

void mqa_decode(int B, int H, int L,
		const _Float16 q[B][H][128], const _Float16 k[B][L][128],
		const _Float16 v[B][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(mqa_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float p[L];
			float mx = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)k[b][j][d];
				s = s / sqrtf(128.0f);
				p[j] = s;
				if (s > mx)
					mx = s;
			}
			float sum = 0.0f;
			for (int j = 0; j < L; j++) {
				p[j] = expf(p[j] - mx);
				sum += p[j];
			}
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += p[j] * (float)v[b][j][d];
				o[b][h][d] = (_Float16)(acc / sum);
			}
		}
}
