/* q pre-scaled into a local copy (q = q * scaling before the matmul, as fairseq does), then the dots
 * read the copy; run-time D (<= 256), bidirectional, fp32. */
#include <math.h>
void fairseq_attn(int B, int H, int N, int D, const float q[B][H][N][D], const float k[B][H][N][D], const float v[B][H][N][D],
		  float o[B][H][N][D])
{
	const float scaling = 1.0f / sqrtf((float)D);
#pragma fuse kernel(fairseq_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float qs[D];
				for (int d = 0; d < D; d++) qs[d] = q[b][h][i][d] * scaling;
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float a = 0.0f;
					for (int d = 0; d < D; d++) a += qs[d] * k[b][h][j][d];
					s[j] = a;
					mx = fmaxf(mx, a);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - mx); z += s[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * v[b][h][j][d];
					o[b][h][i][d] = a / z;
				}
			}
}
