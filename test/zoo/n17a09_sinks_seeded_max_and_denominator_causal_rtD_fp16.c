/* gpt-oss attention sinks in prefill: the per-head sink logit seeds both the running max and
 * the denominator (exp(sink - m)); causal `j <= i`; run-time head dim, scale from sm_scale. */
#include <math.h>

void sink_prefill(int B, int H, int N, int D, float sm_scale, const float sinks[H],
		  const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D], const _Float16 v[B][H][N][D],
		  _Float16 o[B][H][N][D])
{
#pragma fuse kernel(sink_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = sinks[h];
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * sm_scale);
				}
				float denom = expf(sinks[h] - m);
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					denom += expf(s * sm_scale - m);
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < D; e++) s += (float)q[b][h][i][e] * (float)k[b][h][j][e];
						acc += expf(s * sm_scale - m) * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / denom);
				}
			}
}
