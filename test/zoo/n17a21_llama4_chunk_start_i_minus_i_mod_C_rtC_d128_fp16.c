/* Llama-4 chunked local attention: each query sees keys from the start of its chunk,
 * i - i % C (C a run-time chunk size), up to itself. D = 128, fp16. */
#include <math.h>

void chunked_attn(int B, int H, int N, int C, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		  const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(chunked_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int start = i - i % C;
				float m = -INFINITY, l = 0.0f;
				float acc[128] = {0};
				for (int j = start; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * scale);
				}
				for (int j = start; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
