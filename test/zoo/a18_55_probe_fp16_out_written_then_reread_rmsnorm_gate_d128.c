/* Probe: the attention output is stored in fp16, then read back (rounded) for a per-head RMS norm
 * of the output (QK-norm-like post-norm) and rescaled in place. */
#include <math.h>

void attn_postnorm(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		   const _Float16 v[B][H][N][128], const float w[128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(attn_postnorm) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++) x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = x * 0.08838834764831845f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
				float ss = 0.0f;
				for (int d = 0; d < 128; d++) ss += (float)o[b][h][i][d] * (float)o[b][h][i][d];
				const float r = 1.0f / sqrtf(ss / 128.0f + 1e-6f);
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)((float)o[b][h][i][d] * r * w[d]);
			}
}
