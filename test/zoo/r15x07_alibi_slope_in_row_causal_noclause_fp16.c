/* ALiBi causal prefill, slope computed in the loop, no clause, fp16, D = 128. */
#include <math.h>

void alibi_nc(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
              const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(alibi_nc)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float slope = powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.08838834764831845f - slope * (float)(i - j));
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.08838834764831845f - slope * (float)(i - j) - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
