/* score_reads_split_q.c: fp32 queries against an fp16 cache (the row operand as hi + lo,
 * ggml's flash attention), an fp16 additive mask read as mask[i][j] and a bias stored key
 * major, read as bias[j][i], both read again in each pass over the keys (the max, then the
 * exponentials and P.V): per-score reads, loaded once a step into registers before the
 * products; the mask two neighbouring columns a load, the bias one element a load. */
#include <math.h>

#define D 64

void score_reads(int H, int N, float scale, const float q[H][N][D], const _Float16 k[H][N][D],
		 const _Float16 v[H][N][D], const _Float16 mask[N][N], const float bias[N][N],
		 float o[H][N][D])
{
#pragma fuse kernel parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j < N; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[h][i][d] * (float)k[h][j][d];
				s = s * scale + (float)mask[i][j] + bias[j][i];
				m = fmaxf(m, s);
			}
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < N; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[h][i][d] * (float)k[h][j][d];
				s = s * scale + (float)mask[i][j] + bias[j][i];
				float p = expf(s - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < D; d++)
				o[h][i][d] = acc[d] / l;
		}
}
