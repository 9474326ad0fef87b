/* Learned temperature per head (s / tau[h]), a _Bool key padding mask, loops over the
 * keys counting down (an HPC person's habit), MQA prefill (one KV head). */
#include <math.h>
#include <stdbool.h>
void temp_attn(int B, int H, int N, const float tau[H], const bool kpm[B][N], const _Float16 q[B][H][N][64],
	       const _Float16 k[B][N][64], const _Float16 v[B][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(temp_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float inv_tau = 1.0f / tau[h];
				float m = -INFINITY;
				for (int j = N - 1; j >= 0; j--) {
					if (!kpm[b][j]) continue;
					float s = 0;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][j][d];
					m = fmaxf(m, s * inv_tau);
				}
				float l = 0, acc[64] = {0};
				for (int j = N - 1; j >= 0; j--) {
					if (!kpm[b][j]) continue;
					float s = 0;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][j][d];
					float p = expf(s * inv_tau - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(l > 0 ? acc[d] / l : 0.0f);
			}
}
