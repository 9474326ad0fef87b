/* A numpy-minded port of a ViT encoder block's attention: small static helpers for the dot product,
 * written once and called per key, bidirectional, fp32. */
#include <math.h>

static inline float dot64(const float *a, const float *b)
{
	float s = 0.0f;
	for (int d = 0; d < 64; d++) s += a[d] * b[d];
	return s;
}

void vit_attn(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
	      float o[B][H][N][64])
{
#pragma fuse kernel(vit_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float a[N];
				float amax = -INFINITY;
				for (int j = 0; j < N; j++) {
					a[j] = dot64(q[b][h][i], k[b][h][j]) * 0.125f;
					amax = fmaxf(amax, a[j]);
				}
				float asum = 0.0f;
				for (int j = 0; j < N; j++) asum += expf(a[j] - amax);
				for (int d = 0; d < 64; d++) {
					float r = 0.0f;
					for (int j = 0; j < N; j++) r += expf(a[j] - amax) * v[b][h][j][d];
					o[b][h][i][d] = r / asum;
				}
			}
}
