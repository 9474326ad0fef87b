/* Probe: causality by an early `break` out of the key loop (j > i ends the row), scores in a
 * local array of N; the later loops run to i. BSHD fp16. */
#include <math.h>

void attn_break(int B, int N, int H, const _Float16 q[B][N][H][64], const _Float16 k[B][N][H][64],
		const _Float16 v[B][N][H][64], _Float16 o[B][N][H][64])
{
#pragma fuse kernel(attn_break) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					if (j > i) break;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					sc[j] = s * 0.125f;
					if (sc[j] > mx) mx = sc[j];
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) l += expf(sc[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += expf(sc[j] - mx) * (float)v[b][j][h][d];
					o[b][i][h][d] = (_Float16)(acc / l);
				}
			}
}
