/* numpy-minded: helpers np_dot / np_max / np_sumexp called per row; attention with an
 * additive mask [N][N] shared over batch and heads. */
#include <math.h>

static float np_dot(const float *a, const float *b, int n)
{
	float s = 0.0f;
	for (int t = 0; t < n; t++) s += a[t] * b[t];
	return s;
}

void np_attention(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		  const float v[B][H][N][64], const float mask[N][N], float o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(np_attention) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float logits[N];
				for (int j = 0; j < N; j++)
					logits[j] = np_dot(q[b][h][i], k[b][h][j], 64) * scale + mask[i][j];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, logits[j]);
				float z = 0.0f;
				for (int j = 0; j < N; j++) z += expf(logits[j] - mx);
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += expf(logits[j] - mx) / z * v[b][h][j][d];
					o[b][h][i][d] = a;
				}
			}
}
