/* ConvNeXt's LayerNorm(channels_first): for every pixel of an NCHW fp16 map, mean and variance over
 * the C channels (stride HW), then the per-channel weight and bias. From the timm code, ported. */
#include <math.h>

void ln2d_channels_first(int N, int C, int HW, float eps, const _Float16 x[N][C][HW], const float w[C],
			 const float b[C], _Float16 y[N][C][HW])
{
#pragma fuse kernel(ln2d_channels_first) parallel(n, p)
	for (int n = 0; n < N; n++)
		for (int p = 0; p < HW; p++) {
			float u = 0.0f;
			for (int c = 0; c < C; c++)
				u += (float)x[n][c][p];
			u /= C;
			float s = 0.0f;
			for (int c = 0; c < C; c++) {
				const float d = (float)x[n][c][p] - u;
				s += d * d;
			}
			s /= C;
			const float r = 1.0f / sqrtf(s + eps);
			for (int c = 0; c < C; c++)
				y[n][c][p] = (_Float16)(w[c] * (((float)x[n][c][p] - u) * r) + b[c]);
		}
}
