/* Multi-query attention decode (PaLM/Falcon-7B): one KV head, k[B][L][D]. */
#include <math.h>
void mqa_decode(int B, int H, int L, const _Float16 q[B][H][64], const _Float16 k[B][L][64],
		const _Float16 v[B][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(mqa_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			float l = 0, acc[64] = {0};
			for (int j = 0; j < L; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][j][d];
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
