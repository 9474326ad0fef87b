/* ALiBi (BLOOM/MPT) as a student writes it: the slope computed per head with powf, the bias
 * -(i - j) * slope added to the scaled score, causal via `if (j > i) continue;`. Head dim 80. */
#include <math.h>

void alibi_attn(int B, int H, int N, const _Float16 q[B][H][N][80], const _Float16 k[B][H][N][80],
		const _Float16 v[B][H][N][80], _Float16 o[B][H][N][80])
{
	const float scale = 1.0f / sqrtf(80.0f);
#pragma fuse kernel(alibi_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const float slope = powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
			for (int i = 0; i < N; i++) {
				float scores[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					if (j > i) continue;
					float s = 0.0f;
					for (int d = 0; d < 80; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					scores[j] = s * scale - (float)(i - j) * slope;
					mx = fmaxf(mx, scores[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					if (j > i) continue;
					scores[j] = expf(scores[j] - mx);
					sum += scores[j];
				}
				for (int d = 0; d < 80; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) {
						if (j > i) continue;
						acc += scores[j] * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / sum);
				}
			}
		}
}
