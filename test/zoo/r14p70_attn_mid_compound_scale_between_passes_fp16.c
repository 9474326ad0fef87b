/* natural-ish: attention whose shift is the max plus a margin added with += between the passes */
#include <math.h>
void p70(int H, int N, const _Float16 q[H][N][64], const _Float16 k[H][N][64], const _Float16 v[H][N][64], _Float16 o[H][N][64])
{
#pragma fuse kernel(p70) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j <= i; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			float shift = 0.0f;
			shift += m;
			float l = 0, acc[64] = {0};
			for (int j = 0; j <= i; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
				float p = expf(s * 0.125f - shift);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < 64; d++) o[h][i][d] = (_Float16)(acc[d] / l);
		}
}
