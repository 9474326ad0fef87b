/* P.V written over the two halves of the head dim in one loop (d < 64: acc[d] and acc[d + 64]), as a
 * port of a kernel that splits the head between two warps writes it; two-pass softmax, causal. */
#include <math.h>

void attn_halves(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		 const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(attn_halves) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					mx = fmaxf(mx, s * 0.08838834764831845f);
				}
				float l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					const float p = expf(s * 0.08838834764831845f - mx);
					l += p;
					for (int d = 0; d < 64; d++) {
						acc[d] += p * (float)v[b][h][j][d];
						acc[d + 64] += p * (float)v[b][h][j][d + 64];
					}
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
