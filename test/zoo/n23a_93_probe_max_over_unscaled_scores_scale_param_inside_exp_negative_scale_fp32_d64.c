/* Probe: max taken over the raw dot products and the scale applied inside the exponential,
 * exp((s - max) * softmax_scale), with softmax_scale a parameter. For a negative scale
 * (an "inverse temperature" someone flips to get a soft-min) C still computes exactly this:
 * the exponent (s - max) * scale is then >= 0, and rows stay finite for small inputs. */
#include <math.h>

void attn_scale_in_exp(int B, int H, int N, float softmax_scale, const float q[B][H][N][64], const float k[B][H][N][64],
		       const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_scale_in_exp) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					s[j] = dot;
					mx = fmaxf(mx, dot);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) {
					s[j] = expf((s[j] - mx) * softmax_scale);
					z += s[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += s[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / z;
				}
			}
}
