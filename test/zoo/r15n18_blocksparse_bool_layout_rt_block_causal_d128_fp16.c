/* Block-sparse layout as _Bool layout[H][NB][NB] with a run-time block size BLK (DeepSpeed
 * sparse attention config), plus causal; scores masked with `continue`. fp16, D=128. */
#include <math.h>
#include <stdbool.h>

void bsa_layout(int H, int N, int NB, int BLK, const bool layout[H][NB][NB],
		const _Float16 q[H][N][128], const _Float16 k[H][N][128], const _Float16 v[H][N][128],
		_Float16 o[H][N][128])
{
#pragma fuse kernel(bsa_layout) parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j <= i; j++) {
				if (!layout[h][i / BLK][j / BLK]) continue;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
				m = fmaxf(m, s * 0.08838834764831845f);
			}
			float l = 0.0f;
			float acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j <= i; j++) {
				if (!layout[h][i / BLK][j / BLK]) continue;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
				float p = expf(s * 0.08838834764831845f - m);
				l += p;
				for (int d = 0; d < 128; d++) acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < 128; d++) o[h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
		}
}
