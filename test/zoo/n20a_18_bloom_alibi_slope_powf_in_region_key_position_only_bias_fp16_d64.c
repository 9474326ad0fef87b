/* BLOOM's ALiBi as its code adds it: bias = slope * j (key position only, not i - j: equal after the
 * softmax row shift), slope = 2^(-8 (h + 1) / H) computed in the region, causal via the mask (-FLT_MAX). */
#include <math.h>
#include <float.h>
void bloom_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
		_Float16 o[B][H][N][64])
{
	const float inv_norm = 0.125f;
#pragma fuse kernel(bloom_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float slope = powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
				float sc[N];
				float m = -FLT_MAX;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++) dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float x = dot * inv_norm + slope * (float)j;
					sc[j] = j > i ? -FLT_MAX : x;
					if (sc[j] > m) m = sc[j];
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - m); z += sc[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += sc[j] / z * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
