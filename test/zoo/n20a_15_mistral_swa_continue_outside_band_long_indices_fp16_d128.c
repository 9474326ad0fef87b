/* Mistral sliding-window prefill written by someone who loops over every key and `continue`s outside
 * the band (j > i or j <= i - W); long loop indices and offsets. */
#include <math.h>
void swa_prefill(long B, long H, long N, long W, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		 const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(swa_prefill) parallel(b, h, i)
	for (long b = 0; b < B; b++)
		for (long h = 0; h < H; h++)
			for (long i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (long j = 0; j < N; j++) {
					if (j > i || j <= i - W) continue;
					float s = 0.0f;
					for (long d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					mx = fmaxf(mx, s * 0.08838834764831845f);
				}
				float den = 0.0f;
				float acc[128] = {0};
				for (long j = 0; j < N; j++) {
					if (j > i || j <= i - W) continue;
					float s = 0.0f;
					for (long d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.08838834764831845f - mx);
					den += p;
					for (long d = 0; d < 128; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (long d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / den);
			}
}
