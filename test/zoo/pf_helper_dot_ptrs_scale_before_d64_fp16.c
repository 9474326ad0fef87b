/* pf_helper_dot_ptrs_scale_before_d64_fp16.c: a `static float dot(const _Float16 *a, const _Float16 *b, int n)` helper\n * with a loop, called inside fmaxf and expf on rows q[b][h][i] and k[b][h][j]; the scale\n * computed before the region from the #define; causal by the j <= i bound. rolling(j). */
#include <math.h>
#define D 64
static float dot(const _Float16 *a, const _Float16 *b, int n)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += (float)a[i] * (float)b[i];
	return s;
}

void attn(int B, int H, int N, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D], const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++)
					m = fmaxf(m, dot(q[b][h][i], k[b][h][j], D) * scale);
				float l = 0.0f, acc[D] = {0};
				for (int j = 0; j <= i; j++) {
					float p = expf(dot(q[b][h][i], k[b][h][j], D) * scale - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
