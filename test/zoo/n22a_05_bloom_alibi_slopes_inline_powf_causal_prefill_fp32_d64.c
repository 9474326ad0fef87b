/* BLOOM-style ALiBi prefill, slopes computed inline from the head count (power of two heads:
 * slope_h = 2^(-8 (h+1) / H)), bias = slope * (j - i), causal; fp32 throughout, a student port. */
#include <math.h>

void bloom_alibi(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		 float o[B][H][N][64])
{
#pragma fuse kernel(bloom_alibi)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float slope = powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					s[j] = dot * 0.125f + slope * (float)(j - i);
					if (s[j] > mx)
						mx = s[j];
				}
				float z = 0.0f;
				for (int j = 0; j <= i; j++) {
					s[j] = expf(s[j] - mx);
					z += s[j];
				}
				for (int d = 0; d < 64; d++) {
					float r = 0.0f;
					for (int j = 0; j <= i; j++)
						r += s[j] * v[b][h][j][d];
					o[b][h][i][d] = r / z;
				}
			}
}
